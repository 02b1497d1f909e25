import {clipText, type CardEntry, WHY_CHARS} from '../../domain/receipts.js'
import {HOOK_TEXT, type HookText} from '../../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../../domain/messages/language.js'
import type {CardDoc} from './doc.js'
import type {Considered} from './match.js'
import type {Registry} from './signals.js'

/**
 * The light index injected into an agent's context: per card its title, id, summary, scope,
 * criteria, why it matched and the command that prints the full rule — never the rule itself.
 * The frame is in the store's language (domain/messages/hooks.ts); card text stays in the card's language.
 */
export const HEADER = HOOK_TEXT.en.lightHead

export function scopeText(c: Considered, t: HookText = HOOK_TEXT.en): string {
  const s = c.doc.scope
  const keys = s.project_key === null ? '' : [s.project_key].flat().join(', ')
  const parts: string[] = [s.level === 'global' ? 'global' : `${s.level}${keys ? ` ${keys}` : ''}`]
  if (s.module_path) parts.push(t.scopeModule(s.module_path))
  if (s.paths.length) parts.push(t.scopePaths(s.paths.join(', ')))
  return parts.join(t.listSep)
}

/** Why a card matched, in words: matched phrases and the task shapes seen (never signal ids). */
export function whyText(c: Considered, registry: Registry, limit = 4, t: HookText = HOOK_TEXT.en): string {
  const ms = [...c.evidence.matches]
    .filter(m => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
  const parts = ms.map(m => t.matched(m.text, t.fields[m.field] ?? m.field, m.exact))
  if (c.evidence.queryCoverage === 1 && parts.length === 0) parts.push(t.everyWord)
  for (const id of [...c.doc.hints.positive, ...c.doc.hints.required_all]) {
    const s = registry.signals.get(id)
    if (
      s &&
      c.gates.some(g => (g.gate === 'positive' || g.gate === 'required_all') && g.pass && g.detail.includes(id))
    ) {
      parts.push(t.taskShape(s.description))
      break
    }
  }
  return parts.join(t.listSep)
}

/**
 * Why a card matched, for its receipt: its best phrase and field (`trigger "flaky login test"`), in a few words. A
 * receipt is a record `cairn receipts` counts by, in English whatever the store's language.
 */
export function receiptWhy(c: Considered, registry: Registry): string {
  const best = [...c.evidence.matches].filter(m => m.score > 0).sort((a, b) => b.score - a.score)[0]
  const field = best && (HOOK_TEXT.en.fields[best.field] ?? best.field)
  const why = best ? `${best.exact ? '' : 'partly '}${field} "${best.text}"` : whyText(c, registry, 1) || 'matched'
  return clipText(why, WHY_CHARS)
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, Math.max(0, n - 1)).trimEnd()}…`)
const list = (xs: string[], n: number, sep: string): string =>
  xs.length <= n ? xs.join(sep) : `${xs.slice(0, n).join(sep)}${sep}…`

/** Renderings of one entry, from full to minimal; a "may be stale" note stays in each. */
function variants(c: Considered & {card: CardDoc}, registry: Registry, t: HookText, note?: string): string[] {
  const d = c.card
  const policy = t.lightEntry(d.title, d.id, d.policy, d.risk === 'high')
  const head = note ? `${policy}\n  ${note}` : policy
  const rule = t.fullRule(d.id)
  const criteria = (n: number) => {
    const parts = []
    if (d.use_when.length) parts.push(t.useWhen(list(d.use_when, n, t.listSep)))
    if (d.ignore_when.length) parts.push(t.ignoreWhen(list(d.ignore_when, n, t.listSep)))
    return parts.length ? [`  ${parts.join(t.criteriaSep)}`] : []
  }
  const why = (n: number) => {
    const w = whyText(c, registry, n, t)
    return w ? [t.why(w)] : []
  }
  const scope = t.scope(scopeText(c, t))
  return [
    [head, `  ${d.summary}`, scope, ...criteria(6), ...why(4), rule],
    [head, `  ${clip(d.summary, 200)}`, scope, ...criteria(2), ...why(2), rule],
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
  language?: StoreLanguage,
): string {
  return lightIndex(selected, registry, budget, note, language).text
}

/** renderLightIndex's text, and each card's entry in it with why it matched (the hook's receipt). */
export function lightIndex(
  selected: readonly (Considered & {card: CardDoc})[],
  registry: Registry,
  budget: number,
  note?: (card: CardDoc) => string | undefined,
  language?: StoreLanguage,
): {text: string; entries: CardEntry[]} {
  const none = {text: '', entries: []}
  if (selected.length === 0) return none
  const t = speak(HOOK_TEXT, language)
  const entries = selected.map(c => ({c, v: variants(c, registry, t, note?.(c.card)), level: 0}))
  const size = () => t.lightHead.length + entries.reduce((n, e) => n + 1 + e.v[e.level].length, 0)
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
    text: [t.lightHead, ...entries.map(e => e.v[e.level])].join('\n'),
    entries: entries.map(({c, v, level}) => ({
      id: c.doc.id,
      store: c.doc.store,
      why: receiptWhy(c, registry),
      text: v[level],
    })),
  }
}
