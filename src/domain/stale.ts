import {createRequire} from 'node:module'
import type {Card} from './card/schema.js'
import {controlCharProblem, repoPathProblem} from './card/text-checks.js'

/**
 * Staleness (DESIGN: Staleness): which active cards a change to the code may have made wrong. Pure: the app hands in
 * each card's evidence and the change from its baseline to HEAD, and gets back each card's reasons. A card is stale
 * when a file or folder it cites was deleted or renamed, a symbol it cites is no longer found, a file it cites was
 * rewritten (at least half its lines, and at least REWRITE_MIN_LINES), or it was not confirmed for verify_days.
 */

/** One file's change between a baseline and HEAD: D deleted, R renamed (to), M modified, A added, T type changed. */
export interface FileChange {
  status: 'A' | 'C' | 'D' | 'M' | 'R' | 'T'
  path: string
  /** The new name of a renamed (or copied) file. */
  to: string | null
  /** The file's blob at the baseline ('' when it had none). */
  baseBlob: string
  /** Lines removed from the baseline's file; null for a binary file. */
  deleted: number | null
}

export type StaleReason =
  | {kind: 'deleted'; path: string}
  | {kind: 'renamed'; path: string; to: string}
  | {kind: 'symbol'; symbol: string}
  | {kind: 'rewritten'; path: string; changed: number; lines: number}
  | {kind: 'unverified'; days: number; since: string}

export interface StaleCard {
  id: string
  path: string
  title: string
  reasons: StaleReason[]
}

/** A card's evidence as the check reads it. */
export interface Evidenced {
  id: string
  path: string
  title: string
  /** Files, folders and globs the card cites: scope.paths, provenance.recent_paths and evidence.paths. */
  cited: string[]
  symbols: string[]
}

/** A rewrite removes at least this many lines, and at least half the file. */
export const REWRITE_MIN_LINES = 3
const DAY = 86_400_000

/** The paths a card cites, each once, in the order the card gives them. */
export const citedPaths = (card: Pick<Card, 'scope' | 'provenance' | 'evidence'>): string[] => [
  ...new Set([...card.scope.paths, ...card.provenance.recent_paths, ...card.evidence.paths].map(trimSlash)),
]

const trimSlash = (p: string): string => p.replace(/^\.\//, '').replace(/\/+$/, '')
/**
 * A glob has a wildcard, a brace set or a leading "!"; brackets and parentheses alone are how Next.js and SvelteKit name
 * routes (`pages/[id].tsx`, `app/(auth)/page.tsx`), so such a path is a file's name.
 */
export const isGlob = (p: string): boolean => /[*?{}]|^!/.test(p)

/** The folder a glob's matches all sit under ('' for the repository root). */
export function globBase(glob: string): string {
  const parts = glob.split('/')
  const at = parts.findIndex(isGlob)
  return parts.slice(0, at < 0 ? parts.length : at).join('/')
}

/** The folders a path sits in, innermost first, ending with the root (''). */
function parents(p: string): string[] {
  const out: string[] = []
  for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) out.push(p.slice(0, at))
  out.push('')
  return out
}

/** What the card cites that a change touched: the change, and the cited path (file, folder or glob) it touched. */
export interface Hit {
  cited: string
  change: FileChange
}

type Matcher = (p: string) => boolean
let picomatch: ((glob: string, options?: object) => Matcher) | undefined
const compiled = new Map<string, Matcher>()
export function globMatcher(glob: string): Matcher {
  let m = compiled.get(glob)
  if (!m) {
    picomatch ??= createRequire(import.meta.url)('picomatch') as typeof picomatch
    m = picomatch!(glob, {dot: true})
    compiled.set(glob, m)
  }
  return m
}

/**
 * Each card's hits among the changes (deleted, renamed and modified files only). Indexed by path so a 500-file change
 * over 10,000 cards costs a lookup per folder of each changed file, not a comparison per card.
 */
export function hitsOf(cards: Evidenced[], changes: FileChange[]): Map<string, Hit[]> {
  const literal = new Map<string, Evidenced[]>()
  const globs = new Map<string, {glob: string; card: Evidenced}[]>()
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key)
    if (list) list.push(value)
    else map.set(key, [value])
  }
  for (const card of cards)
    for (const cited of card.cited) {
      if (isGlob(cited)) push(globs, globBase(cited), {glob: cited, card})
      else push(literal, cited, card)
    }
  const out = new Map<string, Hit[]>()
  const seen = new Set<string>()
  const add = (card: Evidenced, hit: Hit) => {
    const key = `${card.id}\0${hit.cited}\0${hit.change.path}`
    if (seen.has(key)) return
    seen.add(key)
    push(out, card.id, hit)
  }
  for (const change of changes) {
    if (change.status !== 'D' && change.status !== 'R' && change.status !== 'M') continue
    for (const card of literal.get(change.path) ?? []) add(card, {cited: change.path, change})
    // A change inside a cited folder or glob matters only when it takes a file away: a rewrite is of a file cited by name.
    if (change.status === 'M') continue
    for (const folder of parents(change.path)) {
      if (folder) for (const card of literal.get(folder) ?? []) add(card, {cited: folder, change})
      for (const {glob, card} of globs.get(folder) ?? [])
        if (globMatcher(glob)(change.path)) add(card, {cited: glob, change})
    }
  }
  // In the order the card cites them, whatever order git listed the changes in.
  for (const card of cards) out.get(card.id)?.sort((a, b) => card.cited.indexOf(a.cited) - card.cited.indexOf(b.cited))
  return out
}

/** What HEAD holds, for deciding whether a cited path is gone. */
export interface HeadTree {
  /** A file or folder at this path. */
  has(path: string): boolean
  /** Some file matches the glob. */
  matches(glob: string): boolean
}

/** Builds HeadTree from HEAD's file list. */
export function headTree(files: string[]): HeadTree {
  const all = new Set(files)
  for (const f of files) for (const folder of parents(f)) if (folder) all.add(folder)
  return {
    has: p => all.has(p),
    matches: glob => {
      const match = globMatcher(glob)
      return files.some(f => match(f))
    },
  }
}

/** Whether the reasons need HEAD's tree (a deletion or rename touched a cited path). */
export const needsTree = (hits: Iterable<Hit[]>): boolean =>
  [...hits].some(list => list.some(h => h.change.status !== 'M'))

/** The baseline blobs whose line counts decide a rewrite: files a card cites by name that lost enough lines. */
export const rewriteBlobs = (hits: Iterable<Hit[]>): string[] => [
  ...new Set(
    [...hits].flatMap(list =>
      list
        .filter(
          h => h.cited === h.change.path && h.change.status === 'M' && (h.change.deleted ?? 0) >= REWRITE_MIN_LINES,
        )
        .map(h => h.change.baseBlob),
    ),
  ),
]

/** The reasons a card's hits give: a cited path gone (deleted, or renamed with its new name), or a cited file rewritten. */
export function pathReasons(hits: Hit[], tree: HeadTree | null, lines: Map<string, number>): StaleReason[] {
  const out: StaleReason[] = []
  const byCited = new Map<string, Hit[]>()
  for (const h of hits) byCited.set(h.cited, [...(byCited.get(h.cited) ?? []), h])
  for (const [cited, list] of byCited) {
    const gone = list.filter(h => h.change.status !== 'M')
    const stillThere = isGlob(cited) ? tree?.matches(cited) : tree?.has(cited)
    if (gone.length && tree && !stillThere) {
      // A new name a card could not hold (a backslash, a control character) is, for the card, a deletion.
      const moved = movedTo(cited, gone)
      const to = moved && !repoPathProblem(moved) && !controlCharProblem(moved) ? moved : null
      out.push(to ? {kind: 'renamed', path: cited, to} : {kind: 'deleted', path: cited})
      continue
    }
    const own = list.find(h => h.change.path === cited && h.change.status === 'M')
    const total = own ? lines.get(own.change.baseBlob) : undefined
    const changed = own?.change.deleted ?? 0
    if (total && changed >= REWRITE_MIN_LINES && changed * 2 >= total)
      out.push({kind: 'rewritten', path: cited, changed: Math.min(changed, total), lines: total})
  }
  return out
}

/** Where a gone path went: the file's new name, or the one folder every file under a folder (or glob) moved to. */
function movedTo(cited: string, gone: Hit[]): string | null {
  if (gone.some(h => h.change.status !== 'R' || !h.change.to)) return null
  if (!isGlob(cited) && gone.length === 1 && gone[0].change.path === cited) return gone[0].change.to
  const folder = isGlob(cited) ? globBase(cited) : cited
  const targets = new Set(
    gone.map(({change}) => {
      const rest = change.path.slice(folder.length)
      return change.to!.endsWith(rest) ? change.to!.slice(0, change.to!.length - rest.length) : null
    }),
  )
  const [to] = targets
  if (targets.size !== 1 || !to) return null
  return isGlob(cited) ? `${to}${cited.slice(folder.length)}` : to
}

/**
 * The evidence a card confirmed as it is should carry, given what cairn stale found against it: a renamed file or
 * folder under its new name (in recent paths, evidence paths and scope paths), a deleted one dropped from the recent
 * and evidence paths (scope paths decide where the card applies: a person changes those), a gone symbol dropped.
 * Patches for the fields that change.
 */
export function settledEvidence(
  card: Pick<Card, 'scope' | 'provenance' | 'evidence'>,
  reasons: StaleReason[],
): {path: string[]; value: string[]}[] {
  const renamed = new Map<string, string>()
  const deleted = new Set<string>()
  const gone = new Set<string>()
  for (const r of reasons) {
    if (r.kind === 'renamed') renamed.set(r.path, r.to)
    if (r.kind === 'deleted') deleted.add(r.path)
    if (r.kind === 'symbol') gone.add(r.symbol)
  }
  const move = (paths: string[], drop: boolean) => [
    ...new Set(paths.filter(p => !drop || !deleted.has(trimSlash(p))).map(p => renamed.get(trimSlash(p)) ?? p)),
  ]
  const fields: [string[], string[], string[]][] = [
    [['provenance', 'recent_paths'], card.provenance.recent_paths, move(card.provenance.recent_paths, true)],
    [['evidence', 'paths'], card.evidence.paths, move(card.evidence.paths, true)],
    [['scope', 'paths'], card.scope.paths, move(card.scope.paths, false)],
    [['evidence', 'symbols'], card.evidence.symbols, card.evidence.symbols.filter(s => !gone.has(s))],
  ]
  return fields
    .filter(([, before, after]) => before.join('\0') !== after.join('\0'))
    .map(([path, , value]) => ({path, value}))
}

/**
 * How much of a card's evidence the reasons say is gone: some cited file, folder or symbol (broken), or every one of
 * them (gone). A rewrite or a late confirmation takes nothing away.
 */
export function evidenceLost(
  card: Pick<Card, 'scope' | 'provenance' | 'evidence'>,
  reasons: StaleReason[],
): {broken: boolean; gone: boolean} {
  const paths = new Set(reasons.flatMap(r => (r.kind === 'deleted' || r.kind === 'renamed' ? [r.path] : [])))
  const symbols = new Set(reasons.flatMap(r => (r.kind === 'symbol' ? [r.symbol] : [])))
  const broken = paths.size + symbols.size > 0
  const gone = broken && citedPaths(card).every(p => paths.has(p)) && card.evidence.symbols.every(x => symbols.has(x))
  return {broken, gone}
}

/** The overdue reason of a card last confirmed at `since`, when that is more than verifyDays ago. */
export function overdue(since: string | null, now: Date, verifyDays: number): StaleReason | null {
  if (!since || verifyDays <= 0) return null
  const days = Math.floor((now.getTime() - new Date(since).getTime()) / DAY)
  return days > verifyDays ? {kind: 'unverified', days, since} : null
}

const TEXT = {
  en: {
    deleted: (r: {path: string}) => `${r.path} was deleted`,
    renamed: (r: {path: string; to: string}) => `${r.path} was renamed to ${r.to}`,
    symbol: (r: {symbol: string}) => `${r.symbol} is no longer found in the repository`,
    rewritten: (r: {path: string; changed: number; lines: number}) =>
      `${r.path} was rewritten (${r.changed} of its ${r.lines} lines changed)`,
    unverified: (r: {days: number}) => `not confirmed for ${r.days} days`,
    note: 'may be stale',
  },
  zh: {
    deleted: (r: {path: string}) => `${r.path} 已删除`,
    renamed: (r: {path: string; to: string}) => `${r.path} 已改名为 ${r.to}`,
    symbol: (r: {symbol: string}) => `仓库中已找不到 ${r.symbol}`,
    rewritten: (r: {path: string; changed: number; lines: number}) =>
      `${r.path} 已大幅改写（${r.lines} 行中改了 ${r.changed} 行）`,
    unverified: (r: {days: number}) => `已 ${r.days} 天未确认`,
    note: '可能已过时',
  },
}

export function reasonText(r: StaleReason, language: 'en' | 'zh' = 'en'): string {
  const t = TEXT[language]
  switch (r.kind) {
    case 'deleted':
      return t.deleted(r)
    case 'renamed':
      return t.renamed(r)
    case 'symbol':
      return t.symbol(r)
    case 'rewritten':
      return t.rewritten(r)
    case 'unverified':
      return t.unverified(r)
  }
}

/** The hook's short note: "may be stale: src/x.ts was deleted" (the first reason; "+N more" when there are others). */
export function staleNote(reasons: StaleReason[], language: 'en' | 'zh' = 'en'): string {
  if (!reasons.length) return ''
  const more =
    reasons.length > 1
      ? language === 'zh'
        ? `（另有 ${reasons.length - 1} 项）`
        : ` (+${reasons.length - 1} more)`
      : ''
  return `${TEXT[language].note}: ${reasonText(reasons[0], language)}${more}`
}

/** The commands that settle a stale card: confirm it, change it, or archive it. */
export const settleCommands = (id: string): string[] => [
  `cairn verify ${id}`,
  `cairn review modify ${id}`,
  `cairn archive ${id}`,
]
