import type {EvalResult} from '../app/eval-recall.js'
import type {PromptRecallResult} from '../app/prompt-recall.js'
import type {SignalTest} from '../app/signals.js'
import type {Considered, PromptView, Signal} from '../recall/index.js'
import {table} from './render.js'
import {padEnd} from './width.js'

/** Human renderers for recall, signals and eval. */

export function renderRecall(r: PromptRecallResult, explain: boolean): string {
  const lines: string[] = []
  if (r.text) lines.push(r.text)
  else lines.push('No card applies (nothing recalled when unsure).')
  if (explain) lines.push('', ...renderExplain(r))
  return lines.join('\n')
}

export function renderExplain(r: PromptRecallResult): string[] {
  const p = r.prompt
  const lines = [`Explain: ${r.considered} card(s) considered of ${r.total}.`]
  if (p.expanded.size) lines.push(`Expanded by the lexicon: ${expansions(p).join('; ')}`)
  lines.push(`Signals fired: ${[...p.signals.values()].map(s => `${s.id} ("${s.match}")`).join(', ') || 'none'}`)
  if (p.spans.length)
    lines.push(`Mentions (no evidence): ${p.spans.map(s => `${s.kind} "${p.text.slice(s.start, s.end)}"`).join('; ')}`)
  for (const c of r.match.considered) lines.push(...explainCard(c))
  return lines
}

function explainCard(c: Considered): string[] {
  const e = c.evidence
  const out = [``, `${c.doc.id} [${c.doc.policy}] — ${c.verdict}`]
  for (const g of c.gates) out.push(`  gate ${padEnd(g.gate, 12)} ${g.pass ? 'pass' : 'FAIL'}  ${g.detail}`)
  out.push(
    `  admission ${e.score} = evidence ${e.positive} - near miss ${e.penalty} (threshold 0.5); rank (BM25F) ${c.rank}`,
  )
  for (const m of e.matches) {
    const how = m.exact ? 'exact  ' : m.mentioned ? 'mention' : m.via ? 'lexicon' : 'partial'
    out.push(
      `    ${how} ${padEnd(m.field, 9)} "${m.text}" coverage ${m.coverage} → ${m.score}${m.via ? ` via ${m.via.join(', ')}` : ''}`,
    )
  }
  if (e.discount) out.push(`    intent ${e.discount.intents.join(', ')}: score × ${e.discount.factor}`)
  if (e.nearMiss)
    out.push(`    near miss ignore_when "${e.nearMiss.text}" coverage ${e.nearMiss.coverage} → -${e.nearMiss.score}`)
  if (e.queryCoverage) out.push('    every query word is in the card')
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
