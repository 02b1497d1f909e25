import {charCount} from './core.js'
import {HOOK_TEXT} from './messages/hooks.js'
import {speak, type StoreLanguage} from './messages/language.js'

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
  /** What the line shows after the title: the first use_when phrase, else the summary, kept short (catalogPhrase). */
  when: string
  /** `when` is a use_when phrase: the line says "Use when:" before it, in the store's language. */
  useWhen?: boolean
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

/** When to use a card, as the index keeps it for its catalog line: its first use_when, else its summary, kept short. */
export function catalogPhrase(useWhen: readonly string[], summary: string): Pick<CatalogLine, 'when' | 'useWhen'> {
  const first = useWhen.find(w => w.trim())
  return first ? {when: clip(first, WHEN_CHARS), useWhen: true} : {when: clip(summary, WHEN_CHARS)}
}

/** When to use a card, as its catalog line says it: `Use when: <first use_when>`, else its summary. */
export function catalogWhen(useWhen: readonly string[], summary: string, language?: StoreLanguage): string {
  return whenText(catalogPhrase(useWhen, summary), language)
}

const whenText = (e: Pick<CatalogLine, 'when' | 'useWhen'>, language?: StoreLanguage): string =>
  e.useWhen ? speak(HOOK_TEXT, language).catalogUseWhen(e.when) : e.when

/** The catalog's head in English; each language's is HOOK_TEXT's catalogHead. */
export const CATALOG_HEAD = HOOK_TEXT.en.catalogHead

export const catalogLine = (e: CatalogLine, language?: StoreLanguage): string =>
  speak(HOOK_TEXT, language).catalogLine(e.id, e.title.trim(), whenText(e, language))

const ORDER = {must: 0, should: 1, may: 2} as const

/**
 * Every card on its own line, most binding first, when the whole catalog fits the budget; else the
 * categories with their counts, cut at a category boundary; '' when not even the heading fits.
 */
export function renderCatalog(entries: readonly CatalogLine[], budget: number, language?: StoreLanguage): string {
  if (budget <= 0 || entries.length === 0) return ''
  const head = speak(HOOK_TEXT, language).catalogHead
  const sorted = [...entries].sort((a, b) => ORDER[a.policy] - ORDER[b.policy])
  const lines = [head]
  let used = charCount(head)
  for (const e of sorted) {
    const line = catalogLine(e, language)
    used += 1 + charCount(line)
    if (used > budget) return renderCategories(entries, budget, language)
    lines.push(line)
  }
  return lines.join('\n')
}

function renderCategories(entries: readonly CatalogLine[], budget: number, language?: StoreLanguage): string {
  const t = speak(HOOK_TEXT, language)
  const counts = new Map<string, number>()
  for (const e of entries) counts.set(e.category, (counts.get(e.category) ?? 0) + 1)
  const cats = [...counts]
    .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0))
    .map(([c, n]) => `${c} (${n})`)
  const head = t.catalogByCategory(entries.length)
  // Sizes add up per category, so the longest prefix that fits is found without joining each try.
  const room = budget - charCount(head) - 1
  const more = (n: number) => (n > 0 ? charCount(t.catalogMore(n)) : 0)
  const prefix = [0]
  for (const c of cats) prefix.push(prefix.at(-1)! + charCount(c))
  for (let shown = cats.length; shown >= 0; shown--) {
    const rest = cats.length - shown
    const items = shown + (rest > 0 ? 1 : 0)
    if (prefix[shown] + more(rest) + 2 * (items - 1) > room) continue
    return `${head}\n${[...cats.slice(0, shown), ...(rest > 0 ? [t.catalogMore(rest)] : [])].join(', ')}`
  }
  return ''
}
