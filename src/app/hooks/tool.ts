import {globsMatch, inModule, type PathEntry, withoutOwnText} from '../../recall/index.js'
import {literalHead} from '../../domain/card/scope-paths.js'
import type {Context} from '../../context.js'
import {HOOK_TEXT} from '../../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../../domain/messages/language.js'
import type {CardEntry} from '../../domain/receipts.js'
import {formatIssue} from '../../domain/errors.js'
import {type Capabilities, type ContextPart, type HookAnswer, type HookInput, NOTHING} from './types.js'
import {type HookView, inScope, openHookView, recordShown, repoRelative} from './view.js'
import {staleNotes, type StaleNote} from './stale-note.js'

/**
 * pre-tool-use: the narrow cards whose paths match the file about to be written, each shown once
 * per session. With hooks.enforce_must, a must + high-risk card denies the first write with its
 * rule as the reason, and allows the retry. With hooks.path_cards: before_write, cards the session
 * has not seen deny the write once, as the reason, so the model reads them before it writes (the
 * context of a tool call reaches it only after the tool ran); the retry is allowed. Otherwise a
 * client whose pre-tool event cannot carry context (Cursor, Gemini) gets only the deny here; its
 * path cards go out after the tool.
 */
export async function preToolUse(ctx: Context, input: HookInput, caps: Capabilities): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const files = editedPaths(view, input)
  if (files.length === 0) return closeWith(view, NOTHING)
  const cards = matchingCards(view, files)
  view.index?.close()
  if (cards.length === 0) return NOTHING
  const enforceable = view.settings.enforceMust && cards.some(c => c.policy === 'must' && c.risk === 'high')
  const local = await view.door.local(view.primary)
  // Picked and recorded under the session lock, so parallel tool calls deny an enforced card once.
  const enforced =
    enforceable &&
    local.updateSession(input.session, state => {
      const card = cards.find(c => c.policy === 'must' && c.risk === 'high' && !state.denied.includes(c.id))
      if (card) {
        state.denied.push(card.id)
        if (!state.shown.includes(card.id)) state.shown.push(card.id)
      }
      return card
    })
  if (enforced) {
    await recordShown(view, input, [enforced], {paths: files, enforced: true})
    // With before_write, the other cards come with this deny too: its "the retry is allowed" holds.
    const others = view.settings.pathCardsBeforeWrite ? await beforeWrite(view, input, cards, files, enforced.id) : null
    const reason = denyReason(enforced, files, view.settings.language)
    const entry = {id: enforced.id, store: enforced.store, why: `enforced ${pathWhy(enforced, files)}`, text: reason}
    return {
      context: [],
      deny: `${reason}${others ? `\n\n${others.text}` : ''}`,
      cards: [entry, ...(others?.cards ?? [])],
      stores: view.stores,
    }
  }
  if (view.settings.pathCardsBeforeWrite) {
    const deny = await beforeWrite(view, input, cards, files)
    return deny ? {context: [], deny: deny.text, cards: deny.cards, stores: view.stores} : NOTHING
  }
  if (!caps.preToolContext) return NOTHING
  return showOnce(view, input, cards, files)
}

/**
 * post-tool-use: records the edited paths in the event ledger; when the edited file is a card,
 * lints it and puts any problem in the context; for clients without pre-tool context, shows the
 * path cards now.
 */
export async function postToolUse(ctx: Context, input: HookInput, caps: Capabilities): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const files = editedPaths(view, input)
  if (files.length === 0) return closeWith(view, NOTHING)
  const edit = {
    ts: ctx.now().toISOString(),
    event: 'edit',
    session: input.session,
    agent: input.agent,
    tool: input.tool ?? undefined,
  }
  // Paths the adapter left out (past MAX_EVENT_PATHS) are counted, as eventLine counts what it drops.
  const local = await view.door.local(view.primary)
  local.appendEvent({...edit, paths: files, ...(input.droppedPaths ? {paths_dropped: input.droppedPaths} : {})})
  const parts: ContextPart[] = []
  const cards = caps.preToolContext ? [] : matchingCards(view, files)
  view.index?.close()
  const lint = await lintEditedCards(ctx, view, files)
  if (lint) parts.push({kind: 'notice', text: lint})
  const shown = cards.length ? await showOnce(view, input, cards, files) : NOTHING
  return {...shown, context: [...shown.context, ...parts], language: view.settings.language}
}

/**
 * The path cards of the files a prompt names (`src/db/y.ts`, `./db/migrations/004.sql`, an absolute path in the
 * repository), each shown once per session as the write would show it, so they reach the model before it writes.
 * cairn's own text echoed into the prompt names no file. The index stays open: the caller closes it.
 */
export async function promptPathCards(view: HookView, input: HookInput, files: readonly string[]): Promise<HookAnswer> {
  const cards = files.length ? matchingCards(view, files) : []
  return cards.length ? showOnce(view, input, cards, files) : NOTHING
}

/** The repository files a prompt names, cairn's own echoed text left out (promptPathCards shows their cards). */
export const promptFiles = (view: HookView, input: HookInput, prompt: string): string[] =>
  editedPaths(view, {...input, paths: namedFiles(withoutOwnText(prompt))})

/** The path cards the session has not seen, as a deny's text (hooks.path_cards: before_write); null when none. */
async function beforeWrite(
  view: HookView,
  input: HookInput,
  cards: readonly PathEntry[],
  files: readonly string[],
  except?: string,
): Promise<{text: string; cards: CardEntry[]} | null> {
  const shown = await showOnce(view, input, except ? cards.filter(c => c.id !== except) : cards, files)
  const text = shown.context[0]?.text
  const tail = speak(HOOK_TEXT, view.settings.language).pathCardsTail
  return text ? {text: `${text}\n${tail}`, cards: shown.cards ?? []} : null
}

/** The most files one prompt is read for: a pasted listing is not a list of files to work on. */
const NAMED_MAX = 20

/**
 * The words of a prompt that name a file: a path with a slash and a name (`src/db/y.ts`, `db/migrations/`, `@src/x.ts`,
 * `src/a.ts:42`) or a file name with an extension (`y.ts`), without the quotes, brackets or stop around it; never a
 * URL, an e-mail address or a host. Split on spaces, so a long prompt costs its length.
 */
export function namedFiles(prompt: string): string[] {
  const out = new Set<string>()
  for (const raw of prompt.split(/[\s`'"“”‘’()[\]{}<>,;，。；：、]+/u)) {
    // No path is that long; and a long run of dots must not meet the trailing-stop pattern below.
    if (raw.length > 300) continue
    // `@src/x.ts` is how Claude Code and Gemini CLI users point at a file; `src/a.ts:42` names a line of one.
    const word = raw
      .replace(/^@(?=[\w.]*\/|[\w-]+\.[A-Za-z])/u, '')
      .replace(/(?::\d+){1,2}$/u, '')
      .replace(/[.:!?]+$/u, '')
    // An address (a URL, an e-mail, a host) is not a file.
    if (!word || word.includes('://') || word.includes('@') || /^www\./iu.test(word)) continue
    const path = /^(?:\.{1,2}\/|\/)?[\w@.+-]+(?:\/[\w@.+-]*)+$/u.test(word)
    const file = /^[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/u.test(word)
    if ((path && /[\w]/u.test(word)) || file) out.add(word)
    if (out.size >= NAMED_MAX) break
  }
  return [...out]
}

function closeWith(view: HookView, answer: HookAnswer): HookAnswer {
  view.index?.close()
  return answer
}

function editedPaths(view: HookView, input: HookInput): string[] {
  const root = view.stores.find(s => s.kind === 'project')?.root
  if (!root || !input.cwd) return []
  const out = new Set<string>()
  for (const p of input.paths) {
    const r = repoRelative(root, input.cwd, p)
    if (r) out.add(r)
  }
  return [...out]
}

/**
 * Narrow cards whose globs (and module path, when set) match any of the files, by the matcher's own
 * path gates. A glob's literal head (src/api/ of src/api/**) rules most cards out with a string
 * compare first, so globs are compiled (and picomatch loaded) only for the few that could match.
 */
function matchingCards(view: HookView, files: readonly string[]): PathEntry[] {
  const here = inScope(view)
  return (view.index?.pathCards() ?? []).filter(
    c =>
      here(c) &&
      files.some(
        f => inModule(c.module_path, f) && c.paths.some(g => f.startsWith(literalHead(g))) && globsMatch(c.paths, f),
      ),
  )
}

async function showOnce(
  view: HookView,
  input: HookInput,
  cards: readonly PathEntry[],
  files: readonly string[],
): Promise<HookAnswer> {
  const local = await view.door.local(view.primary)
  const fresh = local.updateSession(input.session, state => {
    const unseen = cards.filter(c => !state.shown.includes(c.id))
    state.shown.push(...unseen.map(c => c.id))
    return unseen
  })
  if (fresh.length === 0) return NOTHING
  await recordShown(view, input, fresh, {paths: [...files]})
  const language = view.settings.language
  const {text, entries} = pathCards(fresh, files, staleNotes(view.door, view.stores, language), language)
  return {context: [{kind: 'cards', text}], cards: entries, stores: view.stores, language}
}

export const renderPathCards = (
  cards: readonly PathEntry[],
  files: readonly string[],
  note?: StaleNote,
  language?: StoreLanguage,
): string => pathCards(cards, files, note, language).text

/** The path cards' text, and each card's entry in it with the glob that matched (the hook's receipt). */
function pathCards(
  cards: readonly PathEntry[],
  files: readonly string[],
  note?: StaleNote,
  language?: StoreLanguage,
): {text: string; entries: CardEntry[]} {
  const t = speak(HOOK_TEXT, language)
  const head = t.pathCardsHead(nameFiles(files, language))
  // Must-cards first, so a cut to the client's size cap drops the least binding lines.
  const order = {must: 0, should: 1, may: 2} as const
  const sorted = [...cards].sort((a, b) => order[a.policy] - order[b.policy])
  const entries = sorted.map(c => {
    const line = t.pathCardLine(c.policy, c.title, c.id, c.summary)
    const stale = note?.(c)
    return {id: c.id, store: c.store, why: pathWhy(c, files), text: stale ? `${line}\n  ${stale}` : line}
  })
  return {text: [head, ...entries.map(e => e.text)].join('\n'), entries}
}

/** Why a path card applies: the first of its globs that matches one of the files. */
function pathWhy(card: PathEntry, files: readonly string[]): string {
  const glob = card.paths.find(g => files.some(f => globsMatch([g], f)))
  return `path ${glob ?? card.paths[0] ?? ''}`.trim()
}

export function denyReason(card: PathEntry, files: readonly string[], language?: StoreLanguage): string {
  const t = speak(HOOK_TEXT, language)
  return `${t.denial(card.title, card.id, nameFiles(files, language))}\n${card.rule.trim()}\n${t.denialTail}`
}

/** The first few files by name: a patch of hundreds of files would make a heading too long to show at all. */
function nameFiles(files: readonly string[], language?: StoreLanguage): string {
  const SHOWN = 5
  return files.length > SHOWN
    ? speak(HOOK_TEXT, language).moreFiles(files.slice(0, SHOWN).join(', '), files.length - SHOWN)
    : files.join(', ')
}

/** Lints edited card files (pending or reviewed) and returns their problems as one notice, or ''. */
async function lintEditedCards(ctx: Context, view: HookView, files: readonly string[]): Promise<string> {
  const prefix = view.primary.kind === 'project' ? `${view.primary.prefix}/` : ''
  const cards = files.filter(
    f => f.endsWith('.md') && /^(pending|cards)\//.test(f.slice(prefix.length)) && f.startsWith(prefix),
  )
  if (cards.length === 0) return ''
  const {lintCardFiles} = await import('../lint.js')
  const root = view.primary.root
  const result = await lintCardFiles(
    ctx,
    cards.map(f => `${root}/${f}`),
    view.settings.language,
  )
  if (result.problems.length === 0) return ''
  const t = speak(HOOK_TEXT, view.settings.language)
  const lines = result.problems.map(p => t.lintLine(p.file, p.field, p.message, p.fix))
  return [t.lintHead(result.errors, result.warnings), ...lines].join('\n')
}
