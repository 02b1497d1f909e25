import {type Card, type Evidence, MAX_EVIDENCE, MAX_SYMBOL_CHARS, repoPathProblem} from './card/schema.js'
import {citedPaths} from './stale.js'

/**
 * What a card's text names in the code, as candidates for its evidence (cairn/card@3): paths (a code span or a word
 * with a folder or a file extension) and symbols (a code span that is an identifier, a config key or a short command;
 * outside code spans, a camelCase or snake_case word or a call such as `load()`). Propose keeps the candidates the
 * repository holds; the rest were prose.
 */

export interface Candidates {
  paths: string[]
  symbols: string[]
}

const SPAN = /`([^`\n]{1,200})`/g
/** A path: folders and a name, or a name with an extension; optional :line suffix. */
const PATH = /^(?:\.\/)?((?:[\w.@+-]+\/)+[\w.@+-]*|[\w@+-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,7})(?::\d+(?::\d+)?)?$/
/** An identifier or a dotted config key, a call's name, or a command of up to four words. */
const SYMBOL = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*$/
const COMMAND = /^[a-z][\w.-]*(?: [\w.:=@/-]+){1,3}$/
/** camelCase (a lower-case start and an upper-case hump), snake_case or SCREAMING_CASE with an underscore, or a call. */
const CODE_WORD =
  /(?<![\w$./-])([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Za-z_$][\w$]*(?=\(\)))(?![\w$])/g
/** Outside code spans: a path with a folder (docs/adr, src/a.ts), or a file name with a known extension (README.md). */
const PATH_WORD = /(?<![\w@/.:-])((?:[\w.@+-]+\/)+[\w.@+-]*[\w@+-]|[\w@+-]+(?:\.[\w-]+)*\.[A-Za-z]\w{0,7})(?![\w/])/g
/** Extensions that make a dotted word a file name rather than a config key (`config.yaml`, not `server.port`). */
const FILE_EXT = new Set(
  (
    'ts tsx js jsx mjs cjs py rb go rs java kt swift c h cc cpp hpp cs php sh bash zsh ps1 sql md mdx rst txt ' +
    'json jsonc yaml yml toml ini cfg conf env xml html htm css scss less vue svelte lock gradle proto graphql tf'
  ).split(' '),
)
const hasFileExt = (p: string): boolean => FILE_EXT.has(p.slice(p.lastIndexOf('.') + 1).toLowerCase())
/**
 * Language keywords and built-ins: they are in every repository and never go away, so a card citing them would be
 * watched for nothing.
 */
const BUILTIN = new Set(
  (
    'async await fetch Promise JSON Math Object Array String Number Boolean Date Error Map Set Symbol RegExp console ' +
    'process window document require import export return function const let var class new this null undefined ' +
    'true false self None True False def lambda print len str int dict list tuple range async_std tokio std'
  ).split(' '),
)
/** A dotted name on a built-in (`JSON.stringify`, `console.log`). */
const ON_BUILTIN = /^(?:JSON|Math|Object|Array|String|Number|Promise|Date|console|process|window|document)\./
/** A span worth watching as a symbol: shaped like code (a hump, an underscore, a dot or ::), a call, or a command. */
const codeShaped = (span: string, call: boolean): boolean =>
  call || /[A-Z_.#]|::/.test(span.slice(1)) || COMMAND.test(span)
/** Words shaped like code that are names of things, not code. */
const PROSE = new Set([
  'iOS',
  'iPhone',
  'iPad',
  'macOS',
  'eBay',
  'iCloud',
  'npm',
  'pnpm',
  'gRPC',
  'jQuery',
  'wget',
  'curl',
])

export function evidenceCandidates(card: Pick<Card, 'title' | 'summary' | 'body'>): Candidates {
  const text = `${card.title}\n${card.summary}\n${card.body}`
  const paths: string[] = []
  const symbols: string[] = []
  const addPath = (p: string) => {
    const clean = p
      .replace(/^\.\//, '')
      .replace(/:\d+(?::\d+)?$/, '')
      .replace(/\/+$/, '')
    if (clean && !repoPathProblem(clean) && !clean.startsWith('.cairn/') && clean !== '.cairn') paths.push(clean)
  }
  const symbol = (s: string, call = false) => {
    const plain = !PROSE.has(s) && !BUILTIN.has(s) && !ON_BUILTIN.test(s) && s.length <= MAX_SYMBOL_CHARS
    if (plain && codeShaped(s, call)) symbols.push(s)
  }
  for (const [, raw] of text.matchAll(SPAN)) {
    const call = /\(\)$/.test(raw.trim())
    const span = raw.trim().replace(/\(\)$/, '')
    const path = PATH.test(span) && (span.includes('/') || !SYMBOL.test(span) || hasFileExt(span))
    if (path) addPath(span)
    else if (SYMBOL.test(span) || COMMAND.test(span)) symbol(span, call)
  }
  const prose = text.replace(SPAN, ' ')
  for (const [, word] of prose.matchAll(PATH_WORD)) if (word.includes('/') || hasFileExt(word)) addPath(word)
  for (const [, word] of prose.matchAll(CODE_WORD)) if (word.length >= 4) symbol(word, true)
  return {paths: [...new Set(paths)], symbols: [...new Set(symbols)]}
}

/**
 * The card with the evidence propose writes: the candidate paths and symbols the repository holds (paths the card
 * already cites left out), capped, and the commit it was written against as its last confirmation; the card as it was
 * when its text names nothing the repository holds.
 */
export function withEvidence(card: Card, found: Held, verified: {at: string; commit: string | null}): Card {
  const {paths, symbols} = heldEvidence(card, found)
  // A card whose text names nothing in the code keeps the oldest format that holds it: its scope and recent paths are
  // its evidence, and the commit that last wrote its file its last confirmation.
  if (!paths.length && !symbols.length) return card
  const evidence: Evidence = {
    paths,
    symbols,
    verified_at: verified.at,
    verified_commit: verified.commit,
  }
  return {...card, evidence}
}

/** The paths and symbols, of those a card's text names, that the repository holds. */
export interface Held {
  paths: ReadonlySet<string>
  symbols: ReadonlySet<string>
}

/**
 * The evidence a card's text gives it: its own evidence, and the paths and symbols its text names that the repository
 * holds (paths it already cites elsewhere left out), each capped.
 */
export function heldEvidence(card: Card, found: Held): {paths: string[]; symbols: string[]} {
  const cands = evidenceCandidates(card)
  const cited = new Set(citedPaths({...card, evidence: {...card.evidence, paths: []}}))
  return {
    paths: merge(
      card.evidence.paths,
      cands.paths.filter(p => found.paths.has(p) && !cited.has(p)),
    ),
    symbols: merge(
      card.evidence.symbols,
      cands.symbols.filter(s => found.symbols.has(s)),
    ),
  }
}

const merge = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])].slice(0, MAX_EVIDENCE)
