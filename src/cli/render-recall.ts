import type {EvalResult} from '../app/eval-recall.js'
import type {PromptRecallResult} from '../app/prompt-recall.js'
import type {SignalTest} from '../app/signals.js'
import type {Considered, PromptView, Signal} from '../recall/index.js'
import {speak} from '../domain/messages/language.js'
import {RECALL_TEXT} from '../domain/messages/recall.js'
import {table} from './render.js'
import {padEnd} from './width.js'

/** Human renderers for recall, signals and eval. */

type RecallText = (typeof RECALL_TEXT)['en']

export function renderRecall(r: PromptRecallResult, explain: boolean): string {
  const t = speak(RECALL_TEXT, r.language)
  const lines: string[] = []
  if (r.text) lines.push(r.text)
  else lines.push(t.none)
  if (explain) lines.push('', ...renderExplain(r))
  return lines.join('\n')
}

export function renderExplain(r: PromptRecallResult): string[] {
  const t = speak(RECALL_TEXT, r.language)
  const p = r.prompt
  const lines = [t.considered(r.considered, r.total)]
  if (p.expanded.size) lines.push(t.expanded(expansions(p).join('; ')))
  lines.push(t.signals([...p.signals.values()].map(s => `${s.id} ("${s.match}")`).join(', ')))
  if (p.spans.length) lines.push(t.mentions(p.spans.map(s => `${s.kind} "${p.text.slice(s.start, s.end)}"`).join('; ')))
  for (const c of r.match.considered) lines.push(...explainCard(c, t))
  return lines
}

function explainCard(c: Considered, t: RecallText): string[] {
  const e = c.evidence
  const out = [``, `${c.doc.id} [${c.doc.policy}]${c.doc.layer ? ` ${c.doc.layer}` : ''} — ${c.verdict}`]
  for (const g of c.gates) out.push(`  gate ${padEnd(g.gate, 12)} ${t.gate(g.pass)}  ${g.detail}`)
  out.push(t.admission(e.score, e.positive, e.penalty, c.rank))
  for (const m of e.matches) {
    const how = t.how[m.exact ? 'exact' : m.mentioned ? 'mention' : m.via ? 'lexicon' : 'partial']
    out.push(
      `    ${how} ${padEnd(m.field, 9)} ${t.coverage(m.text, m.coverage, m.score)}${m.via ? t.via(m.via.join(', ')) : ''}`,
    )
  }
  if (e.discount) out.push(t.intent(e.discount.intents.join(', '), e.discount.factor))
  if (e.nearMiss) out.push(t.nearMiss(e.nearMiss.text, e.nearMiss.coverage, e.nearMiss.score))
  if (e.queryCoverage) out.push(t.everyWord)
  return out
}

/** Each prompt key the lexicon expanded, with the forms it added: "合并 → merg, combin". */
function expansions(p: PromptView): string[] {
  const byKey = new Map<string, string[]>()
  for (const [form, key] of p.expandedForms) byKey.set(key, [...(byKey.get(key) ?? []), form])
  return [...byKey].map(([k, forms]) => `${k} → ${forms.join(', ')}`)
}

export function renderSignals(signals: Signal[]): string {
  return table(
    signals.map(s => [
      s.id,
      s.polarity,
      s.gating ? 'yes' : 'no',
      s.targets.join(',') || '-',
      s.pack ? `${s.source}:${s.pack}` : s.source,
      s.description,
    ]),
    ['ID', 'POLARITY', 'GATES', 'TARGETS', 'SOURCE', 'DESCRIPTION'],
  )
}

export function renderSignalTest(r: SignalTest): string {
  const lines = r.fired.length
    ? r.fired.map(f => `${f.polarity === 'positive' ? '+' : '-'} ${f.id}: "${f.match}" (${f.description})`)
    : ['No signal fires.']
  for (const m of r.mentions) lines.push(`mention (${m.kind}, "${m.marker}"): ${m.text}`)
  return lines.join('\n')
}

export function renderEval(r: EvalResult): string {
  const lines = r.cases.map(c => {
    const extra = [
      c.missing.length ? `missing ${c.missing.join(', ')}` : '',
      c.unexpected_hits.length ? `unexpected ${c.unexpected_hits.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ')
    return `${c.passed ? 'PASS' : 'FAIL'}  ${c.id}: recalled [${c.recalled.join(', ')}]${extra ? ` (${extra})` : ''}`
  })
  lines.push(`${r.suite}: ${r.passed}/${r.total} passed, ${r.failed} failed`)
  return lines.join('\n')
}
