import {getRule, getSection, setSection} from './card/sections.js'
import type {Card} from './card/schema.js'
import {mergeProvenance, type ProposalEnv, renderEvidence} from './propose.js'

/**
 * What a proposal says about a card, as against the pending card of the same proposal: the text a person or an agent
 * wrote (title, summary, problem, rule, criteria, recall phrases, scope, ...), never the evidence, which merges.
 */

/** One text field a repeated proposal gives differently: its card field path, the pending card's value and the new one. */
export interface TextChange {
  field: string
  old: TextValue
  new: TextValue
}
export type TextValue = string | string[] | null

const TEXT_FIELDS: [field: string, read: (c: Card) => TextValue][] = [
  ['title', c => c.title],
  ['summary', c => c.summary],
  ['problem', c => getSection(c.body, 'problem') ?? null],
  ['rule', c => getRule(c.body) ?? null],
  ['category', c => c.category],
  ['load', c => c.load],
  ['language', c => c.language],
  ['status', c => c.status],
  ['criteria.use_when', c => c.criteria.use_when],
  ['criteria.ignore_when', c => c.criteria.ignore_when],
  ['engine_hints.positive', c => c.engine_hints.positive],
  ['engine_hints.required_all', c => c.engine_hints.required_all],
  ['engine_hints.negative', c => c.engine_hints.negative],
  ['recall.policy', c => c.recall.policy],
  ['recall.risk', c => c.recall.risk],
  ['recall.confidence', c => c.recall.confidence],
  ['recall.triggers', c => c.recall.triggers],
  ['recall.topics', c => c.recall.topics],
  ['recall.aliases.en', c => c.recall.aliases.en],
  ['recall.aliases.zh', c => c.recall.aliases.zh],
  ['scope.level', c => c.scope.level],
  ['scope.project_key', c => c.scope.project_key],
  ['scope.module_path', c => c.scope.module_path],
  ['scope.paths', c => c.scope.paths],
  ['keywords', c => c.keywords],
  ['links', c => c.links],
  ['superseded_by', c => c.superseded_by],
]

/** Every text field of `incoming` that differs from the pending card's, in card order. */
export function textChanges(pending: Card, incoming: Card): TextChange[] {
  const out: TextChange[] = []
  for (const [field, read] of TEXT_FIELDS) {
    const old = read(pending)
    const now = read(incoming)
    if (JSON.stringify(old) !== JSON.stringify(now)) out.push({field, old, new: now})
  }
  return out
}

/**
 * The pending card with the proposal's text in place of its own (`propose --replace`): the card becomes what the
 * proposal would create, its body included, while what is not text stays (created, protected, supersedes, a defer)
 * and the evidence merges as on any repeated proposal.
 */
export function replaceText(pending: Card, incoming: Card, env: ProposalEnv): Card {
  const provenance = mergeProvenance(pending.provenance, incoming.provenance, env)
  const language = incoming.language
  return {
    ...pending,
    title: incoming.title,
    summary: incoming.summary,
    category: incoming.category,
    load: incoming.load,
    language,
    status: incoming.status,
    criteria: incoming.criteria,
    engine_hints: incoming.engine_hints,
    recall: incoming.recall,
    scope: incoming.scope,
    evidence: incoming.evidence,
    keywords: incoming.keywords,
    links: incoming.links,
    superseded_by: incoming.superseded_by,
    provenance,
    updated: env.now,
    body: setSection(incoming.body, 'evidence', renderEvidence(provenance, env.defaultLanguage), env.defaultLanguage),
  }
}
