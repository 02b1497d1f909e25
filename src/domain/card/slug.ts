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
 * Returns the first broken rule, or undefined when the slug is valid. The suggestion is offered
 * only when it keeps every rule itself: a suggestion that is then refused helps nobody.
 */
export function checkSlug(slug: string): SlugProblem | undefined {
  const problem = firstProblem(slug)
  if (!problem) return undefined
  const suggestion = suggestSlug(slug)
  return suggestion && suggestion !== slug && !firstProblem(suggestion) ? {...problem, suggestion} : problem
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

/** Best-effort valid slug from free text (a title or a broken slug); may still be too short. */
export function suggestSlug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(w => w.length > 0 && !FILLER_WORDS.has(w))
  const picked: string[] = []
  for (const w of words) {
    const next = [...picked, w].join('-')
    if (picked.length >= 5 || next.length > SLUG_MAX) break
    picked.push(w)
  }
  return picked.join('-')
}

function printable(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s
}
