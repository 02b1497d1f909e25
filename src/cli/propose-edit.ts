import {propose, proposalLanguage, type ProposeResult} from '../app/propose.js'
import type {Context} from '../context.js'
import {CairnError} from '../domain/errors.js'
import {cardTemplate} from './card-template.js'
import {createDraft, editorCommand, runEditor} from './editor.js'

export interface EditInput {
  layer: 'team' | 'personal'
  noCommit?: boolean
  replace?: boolean
}

/**
 * `cairn propose --edit`, as `git commit` without -m: the card template opens in the user's editor,
 * and what is saved goes through the same propose use case as a FILE. An empty or unchanged file,
 * or an editor that fails, aborts with exit 2 and writes nothing. When the proposal is refused, the
 * edited file is kept and its path given, so the text is never lost.
 */
export async function proposeInEditor(ctx: Context, input: EditInput): Promise<ProposeResult> {
  const template = cardTemplate(await proposalLanguage(ctx, input.layer), input.layer)
  const onTerminal = !!process.stdin.isTTY && !!process.stdout.isTTY
  const editor = editorCommand(ctx.env, onTerminal)
  if (!editor) {
    const where = onTerminal ? 'the terminal is dumb' : 'this is not a terminal'
    throw new CairnError(
      'usage',
      `No editor for --edit: ${where} and neither VISUAL nor EDITOR is set. Fix: set one, or give the card as a FILE`,
    )
  }
  const draft = createDraft('card.md', template)
  const exit = await runEditor(editor, draft.file, ctx.env)
  const edited = hasEdits(draft.read(), template)
  if (!exit.ok) {
    if (!edited) draft.remove()
    const kept = edited ? ` Your text is kept in ${draft.file}.` : ''
    const fix = edited ? `Fix: propose it with "cairn propose ${draft.file}"` : 'Fix: run "cairn propose --edit" again'
    throw new CairnError(
      'usage',
      `Propose aborted: the editor "${editor}" ${exit.reason}; nothing was written.${kept} ${fix}`,
      {editor, kept: edited ? draft.file : null},
    )
  }
  if (!edited) {
    draft.remove()
    throw new CairnError(
      'usage',
      'Propose aborted: the card was left empty or unchanged; nothing was written. Fix: write the card, save it, then quit the editor',
      {
        kept: null,
      },
    )
  }
  let result: ProposeResult
  try {
    result = await propose(ctx, {file: draft.file, noCommit: input.noCommit, replace: input.replace})
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    const data = {...(error.data && typeof error.data === 'object' ? error.data : {}), kept: draft.file}
    const hint = `Your card is kept in ${draft.file}: fix it, then run "cairn propose ${draft.file}".`
    throw new CairnError(error.code, `${error.message}\n${hint}`, data)
  }
  draft.remove()
  return result
}

/**
 * Whether the saved text holds anything the template did not: a line that is not one of the
 * template's own lines, and not a comment. Deleting lines alone is no edit.
 */
export function hasEdits(saved: string, template: string): boolean {
  const scaffold = new Set(template.split('\n').map(l => l.trimEnd()))
  return saved
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map(l => l.trimEnd())
    .some(l => l.trim() !== '' && !scaffold.has(l) && !/^\s*#(\s|$)/.test(l))
}
