import path from 'node:path'
import {ripgrepBinary, runRipgrep} from '../store/files/ripgrep.js'
import type {Store} from '../store/layout.js'
import {readProjectSignals} from '../store/settings/signals.js'
import {parseActive, settingsOf} from './build.js'
import type {Found, RecallIndex, Settings} from './format.js'
import {foundIn} from './fresh.js'
import {loadLexicon, shippedFormsText, shippedTranslator, teamTranslator} from './lexicon.js'
import {type CorpusStats, statsOf} from './match/bm25.js'
import {type CardDoc, FIELDS, type Field, type MatchDoc} from './match/doc.js'
import {hasCjk, isSingleCjk} from './match/tokenize.js'
import type {Translator} from './match/expand.js'
import {byRank, type Considered, type MatchResult} from './match/match.js'
import {analysePrompt, type PromptView} from './match/prompt.js'
import {signalRegistry} from './match/signals.js'
import {decodeMatch, decodeRank} from './match/codec.js'

/**
 * Recall while the index is cold (a fresh clone, or an index too stale to update inside a hook):
 * ripgrep finds the card files that can hold a prompt's terms, and only those are parsed and
 * matched. The answer is the index's own or none:
 * - Candidates. The index finds a card only by a posting equal to a prompt term or a term the
 *   lexicon adds (candidates.ts): the card's own phrase terms, and the anchors of its phrases'
 *   translations. Each term has a probe that every raw text holding it contains (`probesOf`), and
 *   each translation the lexicon can give a card for these terms adds its key's probe
 *   (`reverseKeys`). A file whose raw text can differ from what the matcher reads (anything but
 *   ASCII, CJK ideographs, kana, Hangul syllables and common CJK punctuation, which NFKC or case
 *   folding could change; a backslash, YAML's escape; `!!`, a YAML tag) is always a candidate, and
 *   so is every file rg did not say it read without a hit (`--files-without-match`).
 * - Visibility. The first active card of an id wins (build.ts): every file that holds a candidate's
 *   id as text is parsed too.
 * - Ranking. bm25 needs the library's statistics (card count, document frequencies, average field
 *   lengths), which only the whole library gives. The answer is given only when its cards and their
 *   order are the same for every such statistics (`sameForAnyStats`); else none.
 */

export interface ColdIndex extends Pick<RecallIndex, 'settings' | 'signals' | 'stats' | 'skipped' | 'rebuilt'> {
  expand: RecallIndex['expand']
  /** The parsed candidates that are visible: a superset of the cards the index would judge. */
  candidates: () => MatchDoc[]
  hydrate: (doc: MatchDoc) => CardDoc
  /**
   * Whether this match is the index's: its selection and order hold whatever the whole library's
   * statistics are, and no earlier copy of an admitted card's id hides it.
   */
  confirms: (match: MatchResult, pv: PromptView) => Promise<boolean>
}

export interface ColdOptions {
  /** When rg may run (CAIRN_RG). */
  env?: NodeJS.ProcessEnv
  /** Date.now() past which the cold path gives up (the hook's deadline, less its margin). */
  until: number
  paths?: readonly string[]
}

/**
 * The prompt's cards from the card files, for a hook while the index is cold: null when rg is
 * missing, the deadline passes, or a file cannot be read as cairn reads it.
 */
export async function coldIndex(
  stores: readonly Store[],
  prompt: string,
  options: ColdOptions,
): Promise<ColdIndex | null> {
  const rg = ripgrepBinary(options.env)
  if (!rg || stores.length === 0) return null
  const primary = stores[0]
  const settings = settingsOf(primary)
  const signals = primary.kind === 'project' ? readProjectSignals(primary) : []
  const registry = await signalRegistry(signals)
  const {translator} = await loadLexicon(primary)
  const expand = (keys: string[]) => expandWith(translator, keys)
  const pv = analysePrompt(prompt, registry, options.paths, expand)
  const found = stores.flatMap(foundIn)
  const terms = promptTerms(pv)
  const probes = probesOf([...terms, ...(await reverseKeys(terms, primary))])
  const parsed = new Map<string, CardDoc | null>()
  if (probes.size > 0) {
    const latin = [...probes].filter(p => !hasCjk(p)).map(escapeRegex)
    const [misses, bodyMisses] = await Promise.all([
      filesWithout(rg, dirsOf(found), [...[...probes].map(probePattern), UNSAFE], options.until, ['--ignore-case']),
      latin.length
        ? filesWithout(rg, dirsOf(found), textKeys(latin), options.until, ['--ignore-case', '--multiline'])
        : null,
    ])
    if (!misses || (latin.length && !bodyMisses)) return null
    if (bodyMisses) for (const f of misses) if (!bodyMisses.has(f)) misses.delete(f)
    const candidates = found.filter(f => !misses.has(f.file))
    if (!parseAll(stores, candidates, translator, parsed, options.until)) return null
  }
  const docs = visibleDocs(found, parsed)
  const shown = async (match: MatchResult, view: PromptView): Promise<boolean> =>
    sameForAnyStats(match, view, settings) &&
    (await noEarlierCopy(rg, stores, found, match, {parsed, translator, until: options.until}))
  return {
    settings,
    signals,
    stats: pointStats(docs, found.length),
    skipped: [],
    rebuilt: false,
    expand,
    candidates: () => docs,
    hydrate: doc => doc as CardDoc,
    confirms: shown,
  }
}

/**
 * Whether no card file outside those parsed holds an earlier active copy of an admitted card's id,
 * which would hide it (the first copy of an id wins): rg names every file holding one of those ids
 * as text, and those are parsed. Files rg did not read are parsed too.
 */
async function noEarlierCopy(
  rg: string,
  stores: readonly Store[],
  found: readonly Found[],
  match: MatchResult,
  {parsed, translator, until}: {parsed: Map<string, CardDoc | null>; translator: Translator; until: number},
): Promise<boolean> {
  const ids = [...new Set(match.considered.filter(c => c.admitted).map(c => c.doc.id))]
  if (ids.length === 0) return true
  const without = await filesWithout(rg, dirsOf(found), ids.map(escapeRegex), until, ['--case-sensitive'])
  if (!without) return false
  const before = new Map(docsBefore(found, parsed))
  if (
    !parseAll(
      stores,
      found.filter(f => !without.has(f.file)),
      translator,
      parsed,
      until,
    )
  )
    return false
  return visibleDocs(found, parsed).every(d => !ids.includes(d.id) || before.get(d.id) === d)
}

const docsBefore = (found: readonly Found[], parsed: ReadonlyMap<string, CardDoc | null>): [string, CardDoc][] =>
  visibleDocs(found, parsed).map(d => [d.id, d])

const dirsOf = (found: readonly Found[]): string[] => [...new Set(found.map(f => path.dirname(f.file)))]

const expandWith = (tr: Translator, keys: readonly string[]): Map<string, readonly string[]> => {
  const out = new Map<string, readonly string[]>()
  for (const k of keys) {
    const forms = tr.forms(k)
    if (forms.length) out.set(k, forms)
  }
  return out
}

/**
 * Every term a card can be found by for this prompt (RecallIndex.candidates' `terms` and
 * `expanded`), with the prompt's concept words and whole forms, split into their words.
 */
export function promptTerms(pv: PromptView): Set<string> {
  const out = new Set<string>()
  for (const [t, w] of pv.active) if (w > 0) out.add(t)
  const whole = new Set([...pv.expandedForms.keys(), ...pv.words])
  // A lone character of a longer translation meets no unit and anchors nothing: the index does not look it up.
  for (const t of pv.expanded.keys()) if (!isSingleCjk(t) || whole.has(t)) out.add(t)
  for (const t of whole) for (const part of t.split(' ')) if (part) out.add(part)
  return out
}

/** Porter2's exceptions whose stem is no near prefix of the word: "dying" is "die". */
const ODD_STEMS: Record<string, string> = {die: 'dy', lie: 'ly', tie: 'ty', sky: 'sk'}

/**
 * The strings ripgrep seeks, case-insensitively, each at the start of a word, for these terms:
 * every raw text whose matcher tokens hold a term holds its probe there. A CJK term, a compound or
 * a word with a digit is its own text. A Latin stem starts the word it came from but for its last
 * letter when Porter2 wrote that letter: a final "i" for "y" ("happy" is "happi"), an "e" it added
 * ("using" is "use"), "bl" for "bility" ("possibility" is "possibl"); its exceptions add theirs.
 * test/recall-cold.test.ts checks this over the glossary's words and their inflections (and about
 * 1.7 million word forms of the shipped dictionary were checked when it was written).
 */
export function probesOf(terms: Iterable<string>): Set<string> {
  const out = new Set<string>()
  for (const term of terms) {
    for (const t of term.split(' ')) {
      if (!t) continue
      if (hasCjk(t) || /[\d._\-/+#]/.test(t) || t.length <= 2) out.add(t)
      else out.add(/[eily]$/.test(t) ? t.slice(0, -1) : t)
      if (ODD_STEMS[t]) out.add(ODD_STEMS[t])
    }
  }
  return out
}

/**
 * The lexicon keys (a Chinese word, an English stem sequence) with a form anchored by one of these
 * terms: a card holding such a key posts that form's anchors (doc.ts, conceptPostings), so the index
 * finds it by a prompt that holds none of the card's own words. The shipped table is searched as
 * text (iterating its entries costs about 90 ms), the team's lexicon by its entries.
 */
export async function reverseKeys(terms: ReadonlySet<string>, primary: Store): Promise<Set<string>> {
  const keys = new Set<string>()
  const team = await teamTranslator(primary)
  for (const [key, forms] of team?.entries() ?? []) if (forms.some(f => anchoredBy(f, terms))) keys.add(key)
  const {translator} = await shippedTranslator()
  const text = shippedFormsText()
  if (text === undefined) {
    for (const [key, forms] of translator.entries()) if (forms.some(f => anchoredBy(f, terms))) keys.add(key)
    return keys
  }
  for (const t of terms) {
    for (let i = text.indexOf(t); i >= 0; i = text.indexOf(t, i + 1)) {
      const start = text.lastIndexOf('\n', i) + 1
      const tab = text.indexOf('\t', start)
      if (tab < 0) break
      if (i <= tab) {
        i = tab
        continue
      }
      const from = Math.max(text.lastIndexOf('|', i), tab) + 1
      const bar = text.indexOf('|', i)
      const end = text.indexOf('\n', i)
      const to = end < 0 ? text.length : bar >= 0 && bar < end ? bar : end
      if (!anchoredBy(text.slice(from, to), terms)) continue
      keys.add(text.slice(start, tab))
      if (end < 0) break
      i = end
    }
  }
  return keys
}

/** Whether a form's anchors (doc.ts: a Chinese form's first two characters, an English form's stems) hold one of these terms. */
const anchoredBy = (form: string, terms: ReadonlySet<string>): boolean =>
  hasCjk(form) ? terms.has(form.slice(0, 2)) : form.split(' ').some(t => terms.has(t))

/** A word character of the matcher's (tokenize.ts WORD), as rg spells it; files where NFKC could make one are unsafe. */
const WORD_RG = 'a-z0-9\\x{C0}-\\x{24F}\\x{370}-\\x{3FF}\\x{400}-\\x{4FF}'

/**
 * A probe as rg seeks it. A Latin probe starts the word it is found in (a token is a run of word
 * characters), so it follows no word character: "us" (of "use") is not sought in "status". And the
 * run it starts is no YAML key: a run followed by ": " or a colon at the end of the line
 * ("use_when:", "{level: global}") is a key wherever YAML reads it as one, and the files where it
 * could be text are candidates anyway: such a run in the body or after a block scalar (textKeys), a
 * quoted scalar holding ": " or left open on its line (UNSAFE). A CJK probe needs no boundary.
 */
const probePattern = (probe: string): string =>
  hasCjk(probe)
    ? escapeRegex(probe)
    : `(?:^|[^${WORD_RG}])${escapeRegex(probe)}[a-z0-9_]*(?:[^a-z0-9_:\\r\\n]|:[^ \\t\\r\\n]|\\r?$)`

/**
 * Where a key-shaped run starting with one of these probes may be text, not a key: after the
 * frontmatter's closing line (frontmatter.ts), or anywhere after a block scalar's indicator.
 */
const textKeys = (probes: readonly string[]): string[] => {
  const run = `(?:^|[^${WORD_RG}])(?:${probes.join('|')})[a-z0-9_]*:(?:[ \\t]|\\r?$)`
  return [
    `(?ms)\\A---[ \\t]*\\r?\\n.*?^---[ \\t]*\\r?$.*${run}`,
    `(?ms):[ \\t]*[|>][-+0-9]*[ \\t]*(?:#[^\\n]*)?\\r?$.*${run}`,
  ]
}

const escapeRegex = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|#&~-]/g, c => `\\${c}`)

/**
 * What a file may hold for its raw text to differ from what the matcher reads: any character but
 * ASCII, CJK ideographs, kana, Hangul syllables and common CJK punctuation (all stable under NFKC
 * and lowercasing, and none a combining mark), a backslash (a YAML escape), `!!` (a YAML tag). And
 * what may make a key-shaped run text (probePattern): a quoted scalar holding ": ", a quote opened
 * and not closed on its line.
 */
const UNSAFE = [
  '(?-i:[^\\x00-\\x7F\\x{3400}-\\x{4DBF}\\x{4E00}-\\x{9FFF}\\x{3041}-\\x{3096}\\x{30A1}-\\x{30FA}\\x{AC00}-\\x{D7A3}',
  '\\x{3001}\\x{3002}\\x{300A}-\\x{3011}\\x{FF01}\\x{FF08}\\x{FF09}\\x{FF0C}\\x{FF1A}\\x{FF1B}\\x{FF1F}]|\\\\|!!',
  '|"[^"\\n]*:[ \\t][^"\\n]*"|\'[^\'\\n]*:[ \\t][^\'\\n]*\'',
  '|^[^"\\n]*(?:"[^"\\n]*"[^"\\n]*)*"[^"\\n]*$',
  "|(?:^|[:\\[{,]|-[ \\t])[ \\t]*'(?:[^'\\n]|'')*$)",
].join('')

/**
 * The card files rg read and found none of these patterns in (nor, when `unsafe`, anything that
 * makes the raw text unreliable): the only files the cold path leaves out. Null when rg fails or
 * the deadline passes first.
 */
async function filesWithout(
  rg: string,
  dirs: readonly string[],
  patterns: readonly string[],
  until: number,
  mode: readonly string[],
): Promise<Set<string> | null> {
  const left = until - Date.now()
  if (left <= 0 || dirs.length === 0) return left > 0 ? new Set() : null
  const args = ['--files-without-match', '--null', '--max-depth', '1', '--hidden', '--no-ignore', '--text']
  args.push(...mode, '--no-messages')
  for (const p of patterns) args.push('-e', p)
  try {
    const run = await runRipgrep(rg, [...args, '--', ...dirs], {
      cwd: dirs[0],
      signal: AbortSignal.timeout(left),
      maxOutputBytes: 64 * 1024 * 1024,
    })
    if (run.code > 1 && run.stdout.length === 0) return null
    return new Set(run.stdout.toString('utf8').split('\0').filter(Boolean))
  } catch {
    return null
  }
}

/** Parses these card files as the index build does (a CardDoc as the index decodes it); false past the deadline. */
function parseAll(
  stores: readonly Store[],
  files: readonly Found[],
  tr: Translator,
  parsed: Map<string, CardDoc | null>,
  until: number,
): boolean {
  for (const f of files) {
    if (parsed.has(f.file)) continue
    if (Date.now() > until) return false
    const out = parseActive(stores[f.store], f.file, tr)
    const active = 'active' in out ? out.active : undefined
    parsed.set(f.file, active ? {...decodeMatch(active.halves.match), ...decodeRank(active.halves.rank)} : null)
  }
  return true
}

/** The parsed cards an index of the same files would show: the first active copy of each id, in scan order. */
function visibleDocs(found: readonly Found[], parsed: ReadonlyMap<string, CardDoc | null>): CardDoc[] {
  const seen = new Set<string>()
  const out: CardDoc[] = []
  for (const f of found) {
    const doc = parsed.get(f.file)
    if (!doc) continue
    if (!seen.has(doc.id)) out.push(doc)
    seen.add(doc.id)
  }
  return out
}

/** Statistics of the parsed cards only: they order the cards for a first answer, which sameForAnyStats then checks. */
function pointStats(docs: readonly CardDoc[], files: number): CorpusStats {
  return {...statsOf(docs), n: Math.max(files, docs.length)}
}

/**
 * Whether the selection and its order are the same for every library statistics: every pair of an
 * admitted card that can be shown (a must card, or a ranked one within max_cards) and any other
 * admitted card keeps its order whatever the card count, document frequencies and average lengths.
 */
export function sameForAnyStats(match: MatchResult, pv: PromptView, settings: Pick<Settings, 'maxCards'>): boolean {
  const admitted = match.considered.filter(c => c.admitted).sort(byRank)
  const must = admitted.filter(c => c.doc.policy === 'must')
  const room = Math.max(0, settings.maxCards - must.length)
  const top = [...must, ...admitted.filter(c => c.doc.policy !== 'must').slice(0, room)]
  const weights = new Set([...pv.active].filter(([, w]) => w > 0).map(([t]) => t))
  for (const a of top) for (const b of admitted) if (a !== b && !fixedOrder(a, b, weights)) return false
  return true
}

/**
 * Whether byRank orders a and b the same for every statistics. bm25 (bm25.ts) sums, per prompt
 * term, idf(n, df) × saturate(tf), tf summing count × weight / (1 − B + B × len / avgLen) over the
 * fields: increasing in each count, and for a count c of a field of length l against another's c'
 * and l' the same field's avgLen x is shared, so c / (1 − B + B l/x) ≥ c' / (1 − B + B l'/x) for
 * every x > 0 exactly when c ≥ c' and c × l' ≥ c' × l. A card at least as high in every term and
 * field ranks at least as high; equal ranks (rounded) fall to the evidence score and the id.
 */
function fixedOrder(a: Considered, b: Considered, terms: ReadonlySet<string>): boolean {
  const ca = a.card as CardDoc
  const cb = b.card as CardDoc
  const ab = dominates(ca, cb, terms)
  const ba = dominates(cb, ca, terms)
  const tie = a.evidence.score - b.evidence.score || (a.doc.id < b.doc.id ? 1 : -1)
  // Same rank always: the tie-break decides. Else the higher card must also win its ties.
  if (ab && ba) return true
  if (ab) return tie > 0
  if (ba) return tie < 0
  return false
}

function dominates(a: CardDoc, b: CardDoc, terms: ReadonlySet<string>): boolean {
  for (const f of FIELDS) {
    const la = a.len[f] ?? 0
    const lb = b.len[f] ?? 0
    const ta = new Map(a.tf[f] ?? [])
    for (const [t, cb] of b.tf[f] ?? []) {
      if (!terms.has(t)) continue
      const c = ta.get(t) ?? 0
      if (c < cb || c * lb < cb * la) return false
    }
  }
  return true
}
