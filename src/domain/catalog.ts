import {charCount} from './core.js'

/**
 * The session-start catalog of recall-tier cards (issue 10): small libraries are the common case,
 * and there the agent judges relevance better than a lexical matcher, so it sees every card, one
 * line each. Past `recall.catalog_budget` characters (code points, as the hook's fit counts them in
 * a chars-capped client) it sees the categories with their counts instead.
 */
export interface CatalogLine {
  id: string
  title: string
  category: string
  policy: 'must' | 'should' | 'may'
  /** What the line shows after the title: `Use when: <first use_when>`, else the summary (catalogWhen). */
  when: string
}

/** Characters of the use_when phrase or summary a line keeps. */
export const WHEN_CHARS = 120

const clip = (text: string, max: number): string => {
  const chars = [...text.trim()]
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : chars.join('')
}

/** When to use a card, as its catalog line says it: its first use_when, else its summary, kept short. */
export function catalogWhen(useWhen: readonly string[], summary: string): string {
  const first = useWhen.find(w => w.trim())
  return first ? `Use when: ${clip(first, WHEN_CHARS)}` : clip(summary, WHEN_CHARS)
}

export const CATALOG_HEAD =
  'cairn catalog (recall cards; `cairn show ID` reads one, `cairn show ID --section rule` just its rule):'

export const catalogLine = (e: CatalogLine): string => {
  const title = e.title.trim()
  return `- ${e.id}: ${title}${/[.!?。！？]$/u.test(title) ? '' : '.'} ${e.when}`
}

const ORDER = {must: 0, should: 1, may: 2} as const

/**
 * Every card on its own line, most binding first, when the whole catalog fits the budget; else the
 * categories with their counts, cut at a category boundary; '' when not even the heading fits.
 */
export function renderCatalog(entries: readonly CatalogLine[], budget: number): string {
  if (budget <= 0 || entries.length === 0) return ''
  const sorted = [...entries].sort((a, b) => ORDER[a.policy] - ORDER[b.policy])
  const lines = [CATALOG_HEAD]
  let used = charCount(CATALOG_HEAD)
  for (const e of sorted) {
    const line = catalogLine(e)
    used += 1 + charCount(line)
    if (used > budget) return renderCategories(entries, budget)
    lines.push(line)
  }
  return lines.join('\n')
}

function renderCategories(entries: readonly CatalogLine[], budget: number): string {
  const counts = new Map<string, number>()
  for (const e of entries) counts.set(e.category, (counts.get(e.category) ?? 0) + 1)
  const cats = [...counts]
    .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0))
    .map(([c, n]) => `${c} (${n})`)
  const n = entries.length
  const head =
    `cairn catalog: ${n} recall card${n === 1 ? '' : 's'}, too many to list, by category ` +
    '(`cairn list --category NAME` lists one; `cairn show ID` reads a card):'
  // Sizes add up per category, so the longest prefix that fits is found without joining each try.
  const room = budget - charCount(head) - 1
  const more = (n: number) => (n > 0 ? charCount(`…and ${n} more`) : 0)
  const prefix = [0]
  for (const c of cats) prefix.push(prefix.at(-1)! + charCount(c))
  for (let shown = cats.length; shown >= 0; shown--) {
    const rest = cats.length - shown
    const items = shown + (rest > 0 ? 1 : 0)
    if (prefix[shown] + more(rest) + 2 * (items - 1) > room) continue
    return `${head}\n${[...cats.slice(0, shown), ...(rest > 0 ? [`…and ${rest} more`] : [])].join(', ')}`
  }
  return ''
}
