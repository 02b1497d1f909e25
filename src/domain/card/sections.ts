import {atxHeading} from '../markdown-blocks.js'
import type {Language} from './types.js'

export const SECTIONS = ['problem', 'criteria', 'rule', 'evidence'] as const
export type Section = (typeof SECTIONS)[number]

/** Heading text per language; the parser accepts both sets whatever the card's language. */
export const HEADINGS: Record<Language, Record<Section, string>> = {
  en: {problem: 'Problem', criteria: 'Criteria', rule: 'Rule', evidence: 'Evidence'},
  zh: {problem: '这张卡解决什么问题', criteria: '使用标准', rule: '完整规则', evidence: '证据'},
}

const LOOKUP = new Map<string, Section>()
for (const lang of Object.values(HEADINGS))
  for (const [s, h] of Object.entries(lang)) LOOKUP.set(h.toLowerCase(), s as Section)

interface Span {
  section: Section
  start: number // index of the heading line
  bodyStart: number // index of the first line after the heading
  end: number // exclusive line index
}

function spans(lines: string[]): Span[] {
  const found: Span[] = []
  let fence: string | null = null
  lines.forEach((line, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line)
    if (f) {
      if (fence === null) fence = f[1]
      else if (f[1].startsWith(fence) && line.trim() === f[1]) fence = null
      return
    }
    if (fence !== null) return
    const heading = atxHeading(line)
    const section = heading?.level === 2 ? LOOKUP.get(heading.text.toLowerCase()) : undefined
    if (section) found.push({section, start: i, bodyStart: i + 1, end: lines.length})
  })
  for (let i = 0; i < found.length - 1; i++) found[i].end = found[i + 1].start
  return found
}

/** The text under a section heading, trimmed; undefined when the body has no such section. */
export function getSection(body: string, section: Section): string | undefined {
  const lines = body.split('\n')
  const span = spans(lines).find(s => s.section === section)
  if (!span) return undefined
  return lines.slice(span.bodyStart, span.end).join('\n').trim()
}

/** The full reusable rule: the first fenced block under Rule, else the section text. */
export function getRule(body: string): string | undefined {
  const text = getSection(body, 'rule')
  if (text === undefined) return undefined
  const m = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1\s*$/m.exec(text)
  return m ? m[2] : text
}

/** Replaces (or appends) one section's content, leaving the rest of the body byte-identical. */
export function setSection(body: string, section: Section, content: string, language: Language): string {
  const lines = body.split('\n')
  const span = spans(lines).find(s => s.section === section)
  const block = ['', ...content.replace(/\s+$/, '').split('\n'), '']
  if (span) {
    return [...lines.slice(0, span.bodyStart), ...block, ...lines.slice(span.end)].join('\n')
  }
  const trimmed = body.replace(/\s+$/, '')
  return `${trimmed}\n\n## ${HEADINGS[language][section]}\n${block.join('\n')}`
}

export function fence(text: string, info = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map(m => m[0].length))
  const f = '`'.repeat(longest + 1)
  return `${f}${info}\n${text}\n${f}`
}

export interface BodyInput {
  problem: string
  use_when: string[]
  ignore_when: string[]
  policy: string
  risk: string
  rule: string
  evidence: string
}

const LABELS = {
  en: {use: 'Use when:', ignore: 'Ignore when:', policy: 'Recall policy', risk: 'Risk', stop: '.', colon: ': '},
  zh: {use: '使用：', ignore: '不要使用：', policy: '召回策略', risk: '风险级别', stop: '。', colon: '：'},
}

/** The Criteria section's text as cairn writes it: when to use the card, when not, and how it is recalled. */
export function renderCriteria(
  input: Pick<BodyInput, 'use_when' | 'ignore_when' | 'policy' | 'risk'>,
  language: Language,
): string {
  const l = LABELS[language]
  const criteria: string[] = []
  if (input.use_when.length) criteria.push(l.use, ...input.use_when.map(x => `- ${x}`), '')
  if (input.ignore_when.length) criteria.push(l.ignore, ...input.ignore_when.map(x => `- ${x}`), '')
  criteria.push(`${l.policy}${l.colon}${input.policy}${l.stop}`, `${l.risk}${l.colon}${input.risk}${l.stop}`)
  return criteria.join('\n')
}

/** Renders a new card body in the card's language. */
export function renderBody(input: BodyInput, language: Language): string {
  const h = HEADINGS[language]
  const criteria = renderCriteria(input, language).split('\n')
  const parts = [
    `## ${h.problem}`,
    '',
    input.problem,
    '',
    `## ${h.criteria}`,
    '',
    ...criteria,
    '',
    `## ${h.rule}`,
    '',
    fence(input.rule),
    '',
    `## ${h.evidence}`,
    '',
    input.evidence || '-',
    '',
  ]
  return `\n${parts.join('\n')}`
}
