import {getRule} from './card/sections.js'
import type {Card} from './card/schema.js'

/**
 * A proposed card close to an active one (DESIGN: Trust and receipts): the same scope, and triggers or text that
 * overlap. Review and the pull request comment show the pair with what to do (merge, or supersedes:), and flag a pair
 * that gives opposite instructions on the same subject (always / never, 必须 / 不要). Pure: the app hands in the cards.
 */
export interface NearCard {
  id: string
  /** Jaccard overlap of the two cards' words (title, summary, rule, triggers), 0–1, two decimals. */
  overlap: number
  /** Recall phrases both cards have, as written on the proposed one. */
  shared: string[]
  /** One card says to do what the other says never to do, on the same subject. */
  contradicts: boolean
}

/** Overlap past which two cards of one scope say the same thing; with two shared phrases, less is enough. */
export const NEAR_OVERLAP = 0.5
const SHARED_OVERLAP = 0.2
/** Overlap past which opposite instructions are about the same subject. */
const SUBJECT_OVERLAP = 0.3
const MAX_NEAR = 3

const STOP = new Set(
  'the a an and or of to in on for with by at is are be it this that when use using not do does never always must should into from as any all your you'.split(
    ' ',
  ),
)

type Compared = Pick<Card, 'id' | 'title' | 'summary' | 'body' | 'recall' | 'criteria' | 'scope'>

/** Words of a card: English words of 3+ letters without stop words, stemmed by a trailing s; Chinese as bigrams. */
export function cardWords(card: Compared): Set<string> {
  const text = [card.title, card.summary, getRule(card.body) ?? '', ...phrases(card)].join('\n').toLowerCase()
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

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let both = 0
  for (const w of a) if (b.has(w)) both++
  return both / (a.size + b.size - both)
}

/** Two scopes a card could both apply in: both broad, or path globs or a module in common. */
function sameScope(a: Compared['scope'], b: Compared['scope']): boolean {
  if (a.module_path && b.module_path && a.module_path !== b.module_path) return false
  if (a.paths.length === 0 || b.paths.length === 0) return a.paths.length === b.paths.length
  const head = (g: string) => g.replace(/[*?{[].*$/, '')
  return a.paths.some(p => b.paths.some(q => head(p).startsWith(head(q)) || head(q).startsWith(head(p))))
}

const NEVER =
  /\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|avoid|no longer)\b|(?:不要|禁止|切勿|不得|不能|别再|避免|严禁)/i
const ALWAYS = /\b(?:always|must|make sure|be sure to|required)\b|(?:必须|总是|始终|务必|一定要|一律)/i

/** "never", "always" or neither: what the card's summary and rule tell the agent to do. */
function polarity(card: Compared): 'never' | 'always' | null {
  const text = `${card.summary}\n${getRule(card.body) ?? ''}`
  const never = NEVER.test(text)
  const always = ALWAYS.test(text.replace(new RegExp(NEVER.source, 'gi'), ' '))
  return never === always ? null : never ? 'never' : 'always'
}

/**
 * For each proposed card, the active cards of its scope it is close to, closest first (at most three): overlapping
 * text, or two shared recall phrases and some overlap, or opposite instructions on a shared subject.
 */
export function nearDuplicates(proposed: Compared[], active: Compared[]): Map<string, NearCard[]> {
  const words = new Map(active.map(c => [c.id, cardWords(c)]))
  const sides = new Map(active.map(c => [c.id, polarity(c)]))
  const out = new Map<string, NearCard[]>()
  for (const p of proposed) {
    const mine = cardWords(p)
    const side = polarity(p)
    const own = phrases(p)
    const near: NearCard[] = []
    for (const a of active) {
      if (a.id === p.id || !sameScope(p.scope, a.scope)) continue
      const overlap = Math.round(jaccard(mine, words.get(a.id)!) * 100) / 100
      const theirs = new Set(phrases(a).map(norm))
      const shared = own.filter(x => theirs.has(norm(x)))
      const opposite = side !== null && sides.get(a.id) !== null && side !== sides.get(a.id)
      const contradicts = opposite && (overlap >= SUBJECT_OVERLAP || shared.length > 0)
      const close = overlap >= NEAR_OVERLAP || (shared.length >= 2 && overlap >= SHARED_OVERLAP)
      if (close || contradicts) near.push({id: a.id, overlap, shared: [...new Set(shared)], contradicts})
    }
    near.sort((x, y) => y.overlap - x.overlap || (x.id < y.id ? -1 : 1))
    if (near.length) out.set(p.id, near.slice(0, MAX_NEAR))
  }
  return out
}
