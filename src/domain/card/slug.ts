/**
 * The five slug rules of seed 000 (fabric-archive Phase 1):
 * kebab-case; 2–5 words; 20–40 characters; semantic core only (no articles or filler);
 * unique within the store. Uniqueness needs the store, so it is checked by callers.
 */
export const SLUG_MIN = 20
export const SLUG_MAX = 40
export const FILLER_WORDS = new Set(['the', 'a', 'an', 'stuff', 'thing', 'things', 'misc', 'etc', 'some', 'various'])

export type SlugRule = 'kebab-case' | 'word-count' | 'length' | 'semantic-core' | 'unique'

export interface SlugProblem {
  rule: SlugRule
  message: string
  suggestion?: string
}

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * Words a slug may hold in its middle but never end on: a name that ends "...-rebase-in" or "...-after" reads as
 * cut off.
 */
export const STOP_WORDS = new Set([
  ...FILLER_WORDS,
  ...'about above across after against along among and around as at because before behind below beside between but by'.split(
    ' ',
  ),
  ...'during for from how if in inside into is it its nor not of off on onto or our out over per than that then this'.split(
    ' ',
  ),
  ...'through to under until up upon via vs was we what when where which while who why with within without your'.split(
    ' ',
  ),
])

/**
 * Returns the first broken rule, or undefined when the slug is valid. Every rule comes with a suggestion when one
 * can be made from the slug's own words (and then the title's, for a slug too short): it is offered only when it
 * keeps every rule itself, since a suggestion that is then refused helps nobody.
 */
export function checkSlug(slug: string, title?: string): SlugProblem | undefined {
  const problem = firstProblem(slug)
  if (!problem) return undefined
  const valid = (s: string) => s && s !== slug && !firstProblem(s)
  // A slug that is a path ("../../etc/passwd") has no words worth keeping: the title comes first.
  const own = suggestSlug(slug, title)
  const fromTitle = title ? [suggestSlug(title)] : []
  const suggestion = (/[./\\]/.test(slug) ? [...fromTitle, own] : [own, ...fromTitle]).find(valid)
  return suggestion ? {...problem, suggestion} : problem
}

function firstProblem(slug: string): Omit<SlugProblem, 'suggestion'> | undefined {
  if (!KEBAB.test(slug)) {
    return {
      rule: 'kebab-case',
      message: `slug "${printable(slug)}" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)`,
    }
  }
  const words = slug.split('-')
  const filler = words.filter(w => FILLER_WORDS.has(w))
  if (filler.length > 0) {
    return {
      rule: 'semantic-core',
      message: `slug "${slug}" breaks rule 4 (semantic core only: drop ${filler.map(w => `"${w}"`).join(', ')})`,
    }
  }
  if (words.length < 2 || words.length > 5) {
    return {rule: 'word-count', message: `slug "${slug}" breaks rule 2 (2–5 words; it has ${words.length})`}
  }
  if (slug.length < SLUG_MIN || slug.length > SLUG_MAX) {
    return {
      rule: 'length',
      message: `slug "${slug}" breaks rule 3 (${SLUG_MIN}–${SLUG_MAX} characters; it has ${slug.length})`,
    }
  }
  return undefined
}

/**
 * Best-effort valid slug from free text (a title or a broken slug), with the words of `more` (a card's title) to
 * lengthen one too short; it may still be too short. Filler words go first; then whole words are taken from the
 * end until it has at most five words and 40 characters; it never ends on a stop word ("in", "after").
 */
export function suggestSlug(text: string, more = ''): string {
  const picked = trimEnd(fit(words(text)))
  for (const w of words(more)) {
    if (picked.join('-').length >= SLUG_MIN && !STOP_WORDS.has(picked.at(-1)!)) break
    // A word already said, whole or inside another ("deep" after "deepmerge"), adds nothing.
    if (picked.some(p => p.includes(w) || w.includes(p))) continue
    if (picked.length >= 5 || [...picked, w].join('-').length > SLUG_MAX) continue
    picked.push(w)
  }
  return trimEnd(picked).join('-')
}

/** The lowercase ASCII words of a text (a camelCase word split in two), filler left out. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(w => w.length > 0 && !FILLER_WORDS.has(w))
}

/** The first words that fit in five words and 40 characters; a first word longer than that gives nothing. */
function fit(all: string[]): string[] {
  const picked: string[] = []
  for (const w of all) {
    if (picked.length >= 5 || [...picked, w].join('-').length > SLUG_MAX) break
    picked.push(w)
  }
  return picked
}

/** The words without the stop words at their end. */
function trimEnd(picked: string[]): string[] {
  const out = [...picked]
  while (out.length > 1 && STOP_WORDS.has(out.at(-1)!)) out.pop()
  return out
}

function printable(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}

/**
 * A free slug for a card whose slug another card holds (rule 5): the slug with one more word of the title, or with
 * its last word given way to one, that keeps every rule and that `taken` does not hold. Undefined when the title
 * has no such word.
 */
export function distinctSlug(slug: string, title: string, taken: (slug: string) => boolean): string | undefined {
  const own = slug.split('-')
  const extra = words(title).filter(w => !STOP_WORDS.has(w) && !own.some(o => o.includes(w) || w.includes(o)))
  for (const w of extra)
    for (const candidate of [
      [...own, w],
      [...own.slice(0, -1), w],
    ].map(ws => ws.join('-')))
      if (!firstProblem(candidate) && !taken(candidate)) return candidate
  return undefined
}
