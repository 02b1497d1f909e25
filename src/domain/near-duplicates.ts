import {getRule} from './card/sections.js'
import type {Card} from './card/schema.js'

/**
 * A proposed card close to an active one (DESIGN: Trust and receipts): the same scope, and triggers or text that
 * overlap. Review and the pull request comment show the pair with what to do (merge, or supersedes:), and flag a pair
 * that gives opposite instructions on the same subject (always / never, 必须 / 不要). Pure: the app hands in the cards.
 */
export interface NearCard {
  id: string
  /** Weighted overlap of the two cards' words (title, summary, rule, phrases; rare words weigh more), 0–1. */
  overlap: number
  /** Recall phrases both cards have, as written on the proposed one. */
  shared: string[]
  /** One card says to do what the other says never to do, on the same subject. */
  contradicts: boolean
}

/**
 * Weighted overlap past which two cards of one scope say the same thing; with two recall phrases in common, less is
 * enough, and opposite instructions need less to be on one subject. Set on pairs written blind (test/fixtures/
 * near-duplicate-samples.json): no distinct pair reached it, nor 99.8% of the cards of other pairs.
 */
export const NEAR_OVERLAP = 0.12
/** Chinese is compared by character pairs, which overlap less than words do: a pair with Chinese needs less. */
export const NEAR_OVERLAP_ZH = 0.07
const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/
const SHARED_OVERLAP = 0.06
const SUBJECT_OVERLAP = 0.06
const MAX_NEAR = 3

const STOP = new Set(
  'the a an and or of to in on for with by at is are be it this that when use using not do does never always must should into from as any all your you'.split(
    ' ',
  ),
)

/** What the comparison reads of a card. */
type Compared = Pick<Card, 'id' | 'title' | 'summary' | 'body' | 'scope'> & {
  recall: Pick<Card['recall'], 'triggers' | 'aliases'>
  criteria: Pick<Card['criteria'], 'use_when'>
}

/** Words of a card: English words of 3+ letters without stop words, stemmed by a trailing s; Chinese as bigrams. */
export function cardWords(card: Compared): Set<string> {
  return textWords([card.title, card.summary, getRule(card.body) ?? '', ...phrases(card)].join('\n'))
}

function textWords(raw: string): Set<string> {
  const text = raw.toLowerCase()
  const words = new Set<string>()
  for (const w of text.match(/[a-z][a-z0-9_]{2,}/g) ?? []) if (!STOP.has(w)) words.add(w.replace(/(?<=[a-z]{3})s$/, ''))
  for (const run of text.match(/[\u3400-\u9fff\uf900-\ufaff]+/g) ?? []) {
    if (run.length === 1) words.add(run)
    for (let i = 0; i + 1 < run.length; i++) words.add(run.slice(i, i + 2))
  }
  return words
}

const phrases = (card: Compared): string[] => [
  ...card.recall.triggers,
  ...card.recall.aliases.en,
  ...card.recall.aliases.zh,
  ...card.criteria.use_when,
]

const norm = (p: string) => p.toLowerCase().replace(/\s+/g, ' ').trim()

/** Two scopes a card could both apply in: both broad, or path globs or a module in common. */
function sameScope(a: Compared['scope'], b: Compared['scope']): boolean {
  if (a.module_path && b.module_path && a.module_path !== b.module_path) return false
  if (a.paths.length === 0 || b.paths.length === 0) return a.paths.length === b.paths.length
  const head = (g: string) => g.replace(/[*?{[].*$/, '')
  return a.paths.some(p => b.paths.some(q => head(p).startsWith(head(q)) || head(q).startsWith(head(p))))
}

const NEVER =
  /\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|avoid|no longer)\b|(?:不要|禁止|切勿|不得|不能|别再|避免|严禁)/gi
const ALWAYS = /\b(?:always|must|make sure|be sure to|only)\b|(?:必须|总是|始终|务必|一定要|一律|统一)/gi
/** Where an instruction's object ends: the end of its clause. */
const CLAUSE_END = /[.;:!?,()。；：！？，、（）\n]/

/** The words each card tells the agent always to do and never to do: what follows a marker, to the clause's end. */
function instructions(card: Compared): {always: Set<string>; never: Set<string>} {
  const text = `${card.title}\n${card.summary}\n${getRule(card.body) ?? ''}`
  const objects = (marker: RegExp, skip?: RegExp) => {
    const words = new Set<string>()
    for (const m of text.matchAll(marker)) {
      const before = text.slice(Math.max(0, m.index - 12), m.index + m[0].length)
      if (skip && skip.test(before)) continue
      // An instruction's object is a clause: at most 200 characters, so a long card costs a pass, not a square.
      const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 200)
      const clause = rest.slice(0, rest.search(CLAUSE_END) < 0 ? rest.length : rest.search(CLAUSE_END))
      for (const w of textWords(clause)) words.add(w)
    }
    return words
  }
  return {always: objects(ALWAYS, /\b(?:must|should) not$|mustn't$/i), never: objects(NEVER)}
}

/** One card says always what the other says never, about at least one word neither treats as common. */
function opposed(a: ReturnType<typeof instructions>, b: ReturnType<typeof instructions>, {common}: Weights) {
  const meets = (x: Set<string>, y: Set<string>) => [...x].some(w => y.has(w) && !common(w))
  return meets(a.always, b.never) || meets(a.never, b.always)
}

/**
 * How much each word says: rare words across the cards compared (the store's active cards and the proposed ones) weigh
 * more than the vocabulary a whole area shares ("git", "test", "配置"), log(1 + cards / cards with the word).
 */
export function wordWeights(cards: Set<string>[]): Weights {
  const df = new Map<string, number>()
  for (const words of cards) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1)
  const n = cards.length
  return {
    weight: w => Math.log(1 + n / (df.get(w) ?? 1)),
    // A word in more than a quarter of the cards (and more than two) is the area's vocabulary, not a subject.
    common: w => (df.get(w) ?? 0) > Math.max(2, n / 4),
  }
}

export interface Weights {
  weight: (word: string) => number
  common: (word: string) => boolean
}

/** Weighted Jaccard overlap of two cards' words: the weight of what both say over the weight of what either says. */
export function overlapOf(a: Set<string>, b: Set<string>, {weight}: Weights): number {
  let both = 0
  let all = 0
  for (const w of a) {
    all += weight(w)
    if (b.has(w)) both += weight(w)
  }
  for (const w of b) if (!a.has(w)) all += weight(w)
  return all === 0 ? 0 : both / all
}

/**
 * For each proposed card, the active cards of its scope it is close to, closest first (at most three): overlapping
 * text, or two shared recall phrases and some overlap, or opposite instructions on a shared subject.
 */
export function nearDuplicates(proposed: Compared[], active: Compared[]): Map<string, NearCard[]> {
  const words = new Map([...active, ...proposed].map(c => [c, cardWords(c)]))
  const weight = wordWeights([...words.values()])
  const told = new Map([...active, ...proposed].map(c => [c, instructions(c)]))
  const out = new Map<string, NearCard[]>()
  for (const p of proposed) {
    const mine = words.get(p)!
    const own = phrases(p)
    const near: NearCard[] = []
    for (const a of active) {
      if (a.id === p.id || !sameScope(p.scope, a.scope)) continue
      const overlap = Math.round(overlapOf(mine, words.get(a)!, weight) * 100) / 100
      const theirs = new Set(phrases(a).map(norm))
      const shared = own.filter(x => theirs.has(norm(x)))
      const opposite = opposed(told.get(p)!, told.get(a)!, weight)
      const contradicts = opposite && (overlap >= SUBJECT_OVERLAP || shared.length > 0)
      const chinese = CHINESE.test(`${p.title}${p.summary}${a.title}${a.summary}`)
      const close =
        overlap >= (chinese ? NEAR_OVERLAP_ZH : NEAR_OVERLAP) || (shared.length >= 2 && overlap >= SHARED_OVERLAP)
      if (close || contradicts) near.push({id: a.id, overlap, shared: [...new Set(shared)], contradicts})
    }
    near.sort((x, y) => y.overlap - x.overlap || (x.id < y.id ? -1 : 1))
    if (near.length) out.set(p.id, near.slice(0, MAX_NEAR))
  }
  return out
}
