import {propose, proposalLanguage, type ProposeResult} from '../app/propose.js'
import type {Context} from '../context.js'
import {CairnError} from '../domain/errors.js'
import {speak} from '../domain/messages/language.js'
import {PROPOSE_TEXT} from '../domain/messages/propose.js'
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
  const language = await proposalLanguage(ctx, input.layer)
  const t = speak(PROPOSE_TEXT, language)
  const template = cardTemplate(language, input.layer)
  const onTerminal = !!process.stdin.isTTY && !!process.stdout.isTTY
  const editor = editorCommand(ctx.env, onTerminal)
  if (!editor) throw new CairnError('usage', t.noEditor(onTerminal))
  const draft = createDraft('card.md', template)
  const exit = await runEditor(editor, draft.file, ctx.env)
  const edited = hasEdits(draft.read(), template)
  if (!exit.ok) {
    if (!edited) draft.remove()
    const kept = edited ? draft.file : null
    throw new CairnError('usage', t.aborted(editor, exit.reason, kept), {editor, kept})
  }
  if (!edited) {
    draft.remove()
    throw new CairnError('usage', t.unchanged, {kept: null})
  }
  let result: ProposeResult
  try {
    result = await propose(ctx, {file: draft.file, noCommit: input.noCommit, replace: input.replace})
  } catch (error) {
    if (!(error instanceof CairnError)) throw error
    const data = {...(error.data && typeof error.data === 'object' ? error.data : {}), kept: draft.file}
    throw new CairnError(error.code, `${error.message}\n${t.kept(draft.file)}`, data)
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
