import type {EnrichApplied, EnrichList} from '../app/enrich.js'
import type {EnrichBrief} from '../domain/enrich.js'

const count = (xs: readonly string[]) => String(xs.length)

function renderBrief(b: EnrichBrief): string[] {
  const has = b.has
  const lines = [
    `${b.id} (${b.status}, ${b.type}, ${b.language}, ${b.store}) ${b.path}`,
    `  title: ${b.title}`,
    `  summary: ${b.summary}`,
  ]
  if (b.rule) lines.push(`  rule: ${b.rule.replace(/\s*\n\s*/g, ' ')}`)
  lines.push(
    `  has: triggers ${count(has.triggers)}, aliases ${count(has.aliases.en)} en / ${count(has.aliases.zh)} zh, ` +
      `use_when ${count(has.use_when)}, ignore_when ${count(has.ignore_when)}, derived triggers ${count(has.derived_triggers)}`,
  )
  lines.push(`  missing: ${b.missing.length ? b.missing.join(', ') : 'nothing'}`)
  return lines
}

export function renderEnrichList(r: EnrichList): string {
  if (!r.total) return 'Every active and pending card has triggers, aliases and use_when in both languages.'
  const shown = r.cards.length < r.total ? ` (the first ${r.cards.length}; --limit shows more)` : ''
  const head = `${r.total} card(s) to enrich${shown}:`
  return [
    head,
    '',
    ...r.cards.flatMap(b => [...renderBrief(b), '']),
    'Rules for good phrases:',
    ...r.rules.map(rule => `  - ${rule}`),
    '',
    `Give the phrases back: ${r.apply}`,
  ].join('\n')
}

export function renderEnrichApplied(r: EnrichApplied): string {
  const commits = Object.entries(r.commits)
    .map(([store, sha]) => (sha ? `${store} commit ${sha.slice(0, 12)}` : `${store}: not committed`))
    .join(', ')
  const lines = r.cards.length
    ? [
        `Added recall phrases to ${r.cards.length} card(s) (${commits}):`,
        ...r.cards.map(c => `  ${c.id}: ${c.changed.join(', ')}`),
      ]
    : ['Nothing changed: every phrase was already on its card.']
  if (r.cards.length && r.unchanged.length) lines.push(`Already there, unchanged: ${r.unchanged.join(', ')}`)
  return lines.join('\n')
}
