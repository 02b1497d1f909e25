import {clipText, type CardEntry, WHY_CHARS} from '../../domain/receipts.js'
import type {CardDoc} from './doc.js'
import type {Considered} from './match.js'
import type {Registry} from './signals.js'

/**
 * The light index injected into an agent's context: per card its title, id, summary, scope,
 * criteria, why it matched and the command that prints the full rule — never the rule itself.
 * The frame is fixed English; card text stays in the card's language.
 */
export const HEADER = "cairn: cards that may apply to this task. Read a card's full rule only if it applies:"

const FIELD_NAMES: Record<string, string> = {
  triggers: 'trigger',
  derived: 'derived trigger',
  aliases: 'alias',
  use_when: 'use when',
  title: 'title',
  topics: 'topic',
  keywords: 'keyword',
}

export function scopeText(c: Considered): string {
  const s = c.doc.scope
  const parts: string[] = [s.level === 'global' ? 'global' : `${s.level}${s.project_key ? ` ${s.project_key}` : ''}`]
  if (s.module_path) parts.push(`module ${s.module_path}`)
  if (s.paths.length) parts.push(`paths ${s.paths.join(', ')}`)
  return parts.join('; ')
}

/** Why a card matched, in words: matched phrases and the task shapes seen (never signal ids). */
export function whyText(c: Considered, registry: Registry, limit = 4): string {
  const ms = [...c.evidence.matches]
    .filter(m => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
  const parts = ms.map(m => `${m.exact ? '' : 'partly '}"${m.text}" (${FIELD_NAMES[m.field] ?? m.field})`)
  if (c.evidence.queryCoverage === 1 && parts.length === 0) parts.push('every query word is in the card')
  for (const id of [...c.doc.hints.positive, ...c.doc.hints.required_all]) {
    const s = registry.signals.get(id)
    if (
      s &&
      c.gates.some(g => (g.gate === 'positive' || g.gate === 'required_all') && g.pass && g.detail.includes(id))
    ) {
      parts.push(`task shape: ${s.description.replace(/\.$/, '').toLowerCase()}`)
      break
    }
  }
  return parts.join('; ')
}

/** Why a card matched, for its receipt: its best phrase and field (`trigger "flaky login test"`), in a few words. */
export function receiptWhy(c: Considered, registry: Registry): string {
  const best = [...c.evidence.matches].filter(m => m.score > 0).sort((a, b) => b.score - a.score)[0]
  const why = best
    ? `${best.exact ? '' : 'partly '}${FIELD_NAMES[best.field] ?? best.field} "${best.text}"`
    : whyText(c, registry, 1) || 'matched'
  return clipText(why, WHY_CHARS)
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, Math.max(0, n - 1)).trimEnd()}…`)
const list = (xs: string[], n: number): string => (xs.length <= n ? xs.join('; ') : `${xs.slice(0, n).join('; ')}; …`)

/** Renderings of one entry, from full to minimal; a "may be stale" note stays in each. */
function variants(c: Considered & {card: CardDoc}, registry: Registry, note?: string): string[] {
  const d = c.card
  const policy = `- ${d.title} (${d.id}) [${d.policy}${d.risk === 'high' ? ', high risk' : ''}]`
  const head = note ? `${policy}\n  ${note}` : policy
  const rule = `  Full rule: cairn show ${d.id} --section rule`
  const criteria = (n: number) => {
    const parts = []
    if (d.use_when.length) parts.push(`Use when: ${list(d.use_when, n)}`)
    if (d.ignore_when.length) parts.push(`Ignore when: ${list(d.ignore_when, n)}`)
    return parts.length ? [`  ${parts.join(' | ')}`] : []
  }
  const why = (n: number) => {
    const w = whyText(c, registry, n)
    return w ? [`  Why: ${w}`] : []
  }
  return [
    [head, `  ${d.summary}`, `  Scope: ${scopeText(c)}`, ...criteria(6), ...why(4), rule],
    [head, `  ${clip(d.summary, 200)}`, `  Scope: ${scopeText(c)}`, ...criteria(2), ...why(2), rule],
    [head, `  ${clip(d.summary, 120)}`, ...why(1), rule],
    [head, rule],
  ].map(lines => lines.join('\n'))
}

/** The light index within budget chars: entries shrink from the last one up, then the lowest non-must ones go. */
export function renderLightIndex(
  selected: readonly (Considered & {card: CardDoc})[],
  registry: Registry,
  budget: number,
  /** A short note per card that may be stale ("May be stale: src/x.ts was deleted"). */
  note?: (card: CardDoc) => string | undefined,
): string {
  return lightIndex(selected, registry, budget, note).text
}

/** renderLightIndex's text, and each card's entry in it with why it matched (the hook's receipt). */
export function lightIndex(
  selected: readonly (Considered & {card: CardDoc})[],
  registry: Registry,
  budget: number,
  note?: (card: CardDoc) => string | undefined,
): {text: string; entries: CardEntry[]} {
  const none = {text: '', entries: []}
  if (selected.length === 0) return none
  const entries = selected.map(c => ({c, v: variants(c, registry, note?.(c.card)), level: 0}))
  const size = () => HEADER.length + entries.reduce((n, e) => n + 1 + e.v[e.level].length, 0)
  while (size() > budget) {
    const shrink = [...entries].reverse().find(e => e.level < e.v.length - 1)
    if (shrink) {
      shrink.level++
      continue
    }
    const nonMust = entries.map(e => e.c.doc.policy !== 'must').lastIndexOf(true)
    const dropAt = nonMust >= 0 ? nonMust : entries.length - 1
    entries.splice(dropAt, 1)
    if (entries.length === 0) return none
  }
  return {
    text: [HEADER, ...entries.map(e => e.v[e.level])].join('\n'),
    entries: entries.map(({c, v, level}) => ({
      id: c.doc.id,
      store: c.doc.store,
      why: receiptWhy(c, registry),
      text: v[level],
    })),
  }
}
