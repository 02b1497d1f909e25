import type {Context} from '../context.js'
import {type Asker, reviewSession, type ReviewSessionResult} from '../app/review-session.js'
import type {UseCaseOutput} from '../app/use-case.js'

/** Leaving a prompt (Ctrl-C, Ctrl-D) is quitting, not a failure. */
const LEFT = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError'])

type Key = {ctrl?: boolean; name?: string}
/** expand types a key as one letter or digit; the session's action keys are single letters. */
type ExpandKey = Parameters<typeof import('@inquirer/prompts').expand>[0]['choices'][number] extends infer C
  ? C extends {key: infer K}
    ? K
    : never
  : never

/**
 * The interactive review on a terminal: the session's questions, asked with @inquirer/prompts.
 * The prompt library is loaded here, on this path only, so no other command pays for it.
 */
export async function interactiveReview(
  ctx: Context,
  input: {since?: string},
): Promise<UseCaseOutput<ReviewSessionResult>> {
  const {expand, input: line, select} = await import('@inquirer/prompts')
  const leave = new AbortController()
  const context = {signal: leave.signal}
  // Ctrl-C while a decision is written (no prompt open) does not kill cairn mid-write: the transaction
  // commits or rolls back whole, and the next question quits.
  const onSigint = () => leave.abort()
  // Ctrl-D closes readline's line without settling the prompt, which would then wait forever.
  const onKey = (_: unknown, key?: Key) => {
    if (key?.ctrl && key.name === 'd') leave.abort()
  }
  const ask = async <T>(prompt: () => Promise<T>): Promise<T | null> => {
    if (leave.signal.aborted) return null
    try {
      return await prompt()
    } catch (error) {
      if (error instanceof Error && LEFT.has(error.name)) return null
      throw error
    }
  }
  const asker: Asker = {
    say: text => process.stdout.write(`${text}\n`),
    choose: (message, choices) =>
      ask(() =>
        choices.every(c => c.key)
          ? expand({message, expanded: true, choices: choices.map(c => ({...c, key: c.key as ExpandKey}))}, context)
          : select(
              {message, choices, pageSize: choices.length, theme: {style: {keysHelpTip: () => undefined}}},
              context,
            ),
      ),
    text: (message, validate) => ask(() => line({message, validate}, context)),
  }
  process.on('SIGINT', onSigint)
  process.stdin.on('keypress', onKey)
  try {
    const r = await reviewSession(ctx, asker, input)
    return {data: r, text: r.text}
  } finally {
    process.off('SIGINT', onSigint)
    process.stdin.off('keypress', onKey)
  }
}
