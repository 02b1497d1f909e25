import type {Context} from '../context.js'
import {type Asker, reviewSession, type ReviewSessionResult} from '../app/review-session.js'
import type {UseCaseOutput} from '../app/use-case.js'
import {styleText} from 'node:util'
import {displayWidth, terminalColumns, wrap} from './width.js'

/** Leaving a prompt (Ctrl-C, Ctrl-D) is quitting, not a failure. */
const LEFT = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError'])
/** The prompt library's error for Ctrl-C at a prompt (readline's SIGINT), and for the process ending on a signal. */
const INTERRUPTED = 'ExitPromptError'

type Key = {ctrl?: boolean; name?: string}
/** expand types a key as one letter or digit; the session's action keys are single letters. */
type ExpandKey = Parameters<typeof import('@inquirer/prompts').expand>[0]['choices'][number] extends infer C
  ? C extends {key: infer K}
    ? K
    : never
  : never

/**
 * How the chosen answer is echoed after its question: on the question's last line when it fits there, else on a
 * line of its own under it, folded, so the prompt library cuts no word.
 */
function answerAfter(question: string): (answer: string) => string {
  const columns = terminalColumns(process.stdout)
  const last = displayWidth(`? ${question}`.split('\n').at(-1)!)
  return answer => {
    const flat = answer.replace(/\n\s*/g, ' ')
    const text = last + 1 + displayWidth(flat) <= columns ? flat : `\n${wrap(`  ${flat}`, columns)}`
    return styleText('cyan', text)
  }
}

/**
 * The interactive review on a terminal: the session's questions, asked with @inquirer/prompts, and what it says
 * folded to the terminal's width. The prompt library is loaded here, on this path only, so no other command pays for
 * it. `interrupted` is true when the reviewer left with Ctrl-C: the command then exits 130, as an interrupt does.
 */
export async function interactiveReview(
  ctx: Context,
  input: {since?: string},
): Promise<UseCaseOutput<ReviewSessionResult> & {interrupted: boolean}> {
  const {expand, input: line, select} = await import('@inquirer/prompts')
  const leave = new AbortController()
  const context = {signal: leave.signal}
  let interrupted = false
  // Ctrl-C while a decision is written (no prompt open) does not kill cairn mid-write: the transaction
  // commits or rolls back whole, and the next question quits.
  const onSigint = () => {
    interrupted = true
    leave.abort()
  }
  // Ctrl-D closes readline's line without settling the prompt, which would then wait forever.
  const onKey = (_: unknown, key?: Key) => {
    if (key?.ctrl && key.name === 'd') leave.abort()
  }
  const ask = async <T>(prompt: () => Promise<T>): Promise<T | null> => {
    if (leave.signal.aborted) return null
    try {
      return await prompt()
    } catch (error) {
      if (!(error instanceof Error && LEFT.has(error.name))) throw error
      if (error.name === INTERRUPTED) interrupted = true
      return null
    }
  }
  // Read at each use, so a resized terminal is followed. A question is folded after its "? " and a choice after its
  // "  a) ", so the prompt library, which cuts a long line anywhere, finds none to cut.
  const fold = (text: string, lead = 0) => wrap(' '.repeat(lead) + text, terminalColumns(process.stdout)).slice(lead)
  const asker: Asker = {
    say: text => process.stdout.write(`${fold(text)}\n`),
    choose: (message, choices) =>
      ask(() =>
        choices.every(c => c.key)
          ? expand(
              {
                message: fold(message, 2),
                expanded: true,
                choices: choices.map(c => ({...c, name: fold(c.name, 5), key: c.key as ExpandKey})),
                theme: {style: {answer: answerAfter(fold(message, 2))}},
              },
              context,
            )
          : select(
              {
                message: fold(message, 2),
                choices,
                pageSize: choices.length,
                theme: {style: {keysHelpTip: () => undefined}},
              },
              context,
            ),
      ),
    text: (message, validate) => ask(() => line({message: fold(message, 2), validate}, context)),
  }
  process.on('SIGINT', onSigint)
  process.stdin.on('keypress', onKey)
  try {
    const r = await reviewSession(ctx, asker, input)
    return {data: r, text: fold(r.text), interrupted}
  } finally {
    process.off('SIGINT', onSigint)
    process.stdin.off('keypress', onKey)
  }
}
