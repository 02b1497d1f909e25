import {z} from './vendor/zod.js'
import {idempotencyKey} from './card/idempotency.js'
import {
  criteriaSchema,
  engineHintsSchema,
  recallSchema,
  repoPath,
  scopeSchema,
  text,
  type Card,
  cardSchemaFor,
  type Frontmatter,
  NO_EVIDENCE,
} from './card/schema.js'
import {renderBody, setSection} from './card/sections.js'
import {checkSlug} from './card/slug.js'
import {CARD_TYPES, LANGUAGES, LOADS, normalizeType, RETIRED, type Language, type Via} from './card/types.js'
import {type Issue, validationError} from './errors.js'
import {zodIssues} from './issues.js'
import {deriveTriggers} from './derive.js'
import {deriveRelevancePaths} from './relevance.js'

/** What an agent or a person may give `cairn propose` for one card. */
const strings = z.array(text).optional()
const repoPaths = z.array(repoPath).optional()
export const proposalSchema = z.strictObject({
  slug: z.string().optional(),
  id: z.string().optional(),
  type: z.string(),
  title: text,
  summary: text,
  rule: text.optional(),
  problem: text.optional(),
  category: text.optional(),
  load: z.enum(LOADS).optional(),
  criteria: criteriaSchema.partial().optional(),
  engine_hints: engineHintsSchema.partial().optional(),
  // Derived triggers are cairn's own guess, never input: a proposer who knows the phrases gives triggers.
  recall: recallSchema.omit({derived_triggers: true}).partial().optional(),
  scope: scopeSchema.partial().optional(),
  language: z.enum(LANGUAGES).optional(),
  keywords: strings,
  links: strings,
  /** The card that replaces this one, when a proposal records a decision already superseded (an imported ADR). */
  superseded_by: text.optional(),
  /** A decision already retired where it came from (a deprecated ADR): the pending card says so, and approving keeps it. */
  status: z.enum(RETIRED).optional(),
  layer: z.enum(['team', 'personal']).optional(),
  relevance_scope: z.enum(['narrow', 'broad']).optional(),
  relevance_paths: repoPaths,
  edit_paths: repoPaths,
  source_sessions: strings,
  recent_paths: repoPaths,
  user_messages_summary: text.optional(),
  proposed_reason: text.optional(),
  session_context: text.optional(),
})
export type Proposal = z.output<typeof proposalSchema>
export type Layer = 'team' | 'personal'

export interface ProposalEnv {
  now: string
  projectKey: string | null
  repoRoot?: string
  defaultLanguage: Language
  maxRecentPaths: number
  /** Who proposes, from which client and session, through what: the card's provenance records it. */
  origin?: {proposed_by: string; client: string | null; session: string | null; via: Via; connection?: string}
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/

/** The recall phrases `cairn propose` takes as repeatable flags, before they are put in place. */
export interface PhraseFlags {
  triggers?: string[]
  use_when?: string[]
  ignore_when?: string[]
  aliases?: string[]
  topics?: string[]
}

/**
 * A card from flags: the phrases go where a card file holds them (criteria, recall), and each
 * alias under the language it is written in, so one --alias flag serves both languages.
 */
export function fieldsFromFlags(fields: Record<string, unknown>, phrases: PhraseFlags): Record<string, unknown> {
  const out = {...fields}
  const some = (xs?: string[]): xs is string[] => !!xs && xs.length > 0
  if (some(phrases.use_when) || some(phrases.ignore_when)) {
    out.criteria = {
      ...(some(phrases.use_when) ? {use_when: phrases.use_when} : {}),
      ...(some(phrases.ignore_when) ? {ignore_when: phrases.ignore_when} : {}),
    }
  }
  const recall: Record<string, unknown> = {}
  if (some(phrases.triggers)) recall.triggers = phrases.triggers
  if (some(phrases.topics)) recall.topics = phrases.topics
  if (some(phrases.aliases)) {
    recall.aliases = {en: phrases.aliases.filter(a => !CJK.test(a)), zh: phrases.aliases.filter(a => CJK.test(a))}
  }
  if (Object.keys(recall).length) out.recall = recall
  return out
}

/** Validates raw input (one object or an array) into proposals; every problem is reported at once. */
export function parseProposals(raw: unknown, file: string): Proposal[] {
  const items = Array.isArray(raw) ? raw : [raw]
  if (items.length === 0)
    throw validationError([
      {
        file,
        field: '(root)',
        message: 'no cards given',
        fix: 'give one card object or a non-empty array',
        say: {key: 'noCards'},
      },
    ])
  const issues: Issue[] = []
  const out: Proposal[] = []
  items.forEach((item, i) => {
    const prefix = Array.isArray(raw) ? `[${i}].` : ''
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      issues.push({
        file,
        field: prefix.replace(/\.$/, '') || '(root)',
        message: 'must be an object',
        fix: 'give each card as a JSON/YAML object',
        say: {key: 'notObject'},
      })
      return
    }
    const fields = item as Record<string, unknown>
    const result = proposalSchema.safeParse(item, {reportInput: true})
    if (!result.success)
      issues.push(
        ...zodIssues(result.error, file, prefix, proposalSchema).filter(i => !/\.?(slug|id|type)$/.test(i.field)),
      )
    issues.push(...slugIssues(fields, file, prefix))
    if (fields.type === undefined || fields.type === null)
      issues.push({
        file,
        field: `${prefix}type`,
        message: 'is required',
        fix: `add "type": one of ${CARD_TYPES.join(', ')}`,
        say: {key: 'typeRequired', types: [...CARD_TYPES]},
      })
    else if (!normalizeType(fields.type))
      issues.push({
        file,
        field: `${prefix}type`,
        message: `"${String(fields.type)}" is not a card type`,
        fix: `use one of ${CARD_TYPES.join(', ')} (plural forms are accepted)`,
        say: {key: 'typeUnknown', type: String(fields.type), types: [...CARD_TYPES]},
      })
    if (result.success) out.push(result.data)
  })
  if (issues.length) throw validationError(issues, `Invalid proposal in ${file}`)
  return out
}

/** The slug (or id) a proposal names: present, only one of the two, and keeping the slug rules. */
function slugIssues(fields: Record<string, unknown>, file: string, prefix: string): Issue[] {
  const slug = typeof fields.slug === 'string' ? fields.slug : typeof fields.id === 'string' ? fields.id : undefined
  if (!slug)
    return [
      {
        file,
        field: `${prefix}slug`,
        message: 'is required',
        fix: 'add "slug": a kebab-case name of 2–5 words, 20–40 characters',
        say: {key: 'slugRequired'},
      },
    ]
  if (typeof fields.slug === 'string' && typeof fields.id === 'string' && fields.slug !== fields.id)
    return [
      {
        file,
        field: `${prefix}id`,
        message: `differs from slug "${fields.slug}"`,
        fix: 'give only one of slug and id',
        say: {key: 'slugDiffers', slug: fields.slug},
      },
    ]
  const problem = checkSlug(slug, typeof fields.title === 'string' ? fields.title : undefined)
  if (!problem) return []
  return [
    {
      file,
      field: `${prefix}slug`,
      message: problem.message,
      fix: problem.suggestion
        ? `try "${problem.suggestion}"`
        : 'choose 2–5 lowercase words joined by hyphens, 20–40 characters',
      say: {key: 'slug', rule: problem.rule, slug, suggestion: problem.suggestion, fix: 'try'},
    },
  ]
}

export const layerOf = (p: Proposal): Layer => p.layer ?? 'team'

/**
 * The session a card is proposed from: the one the client named, else the first the proposal gives (the archive
 * skill's own; an import's are its source keys, not sessions), else the front end's (an MCP connection).
 */
function originSession(origin: ProposalEnv['origin'], sessions: string[]): string | null {
  if (!origin) return null
  return origin.session ?? (origin.via === 'import' ? undefined : sessions[0]) ?? origin.connection ?? null
}

/** The pending card a proposal becomes (before any merge with an existing pending card). */
export function buildCard(p: Proposal, env: ProposalEnv): Card {
  const id = (p.slug ?? p.id) as string
  const type = normalizeType(p.type)!
  const personal = layerOf(p) === 'personal'
  const language: Language = p.language ?? (CJK.test(`${p.title}${p.summary}`) ? 'zh' : env.defaultLanguage)
  const sessions = p.source_sessions ?? []
  const criteria = criteriaSchema.parse(p.criteria ?? {})
  const recall = recallSchema.parse(p.recall ?? {})
  // A card nobody gave triggers could never be found by a prompt's words: cairn guesses some, marked as its own.
  if (!recall.triggers.length && typeof p.title === 'string' && typeof p.summary === 'string') {
    recall.derived_triggers = deriveTriggers({
      title: p.title,
      summary: p.summary,
      rule: typeof p.rule === 'string' ? p.rule : undefined,
      language,
    })
  }
  const scope = scopeSchema.parse(p.scope ?? {})
  if (personal) Object.assign(scope, {level: 'global', project_key: null, module_path: null, paths: []})
  else {
    if (scope.level !== 'global' && scope.project_key === null) scope.project_key = env.projectKey
    if (!p.scope?.paths) scope.paths = relevancePaths(p, env)
  }
  const provenance: Frontmatter['provenance'] = {
    source_sessions: sessions,
    proposed_reason: p.proposed_reason ?? null,
    session_context: p.session_context ?? null,
    recent_paths: cap(p.recent_paths ?? p.edit_paths ?? [], env.maxRecentPaths),
    user_messages_summary: p.user_messages_summary ?? null,
    idempotency_key: idempotencyKey(sessions, type, id),
    proposed_by: env.origin?.proposed_by ?? null,
    client: env.origin?.client ?? null,
    via: env.origin?.via ?? null,
    session: originSession(env.origin, sessions),
    promoted: null,
  }
  const status = p.status ?? 'pending'
  const fm: Frontmatter = {
    schema: cardSchemaFor({status, recall, provenance}),
    id,
    type,
    status,
    title: p.title,
    category: p.category ?? 'general',
    summary: p.summary,
    load: p.load ?? 'recall',
    criteria,
    engine_hints: engineHintsSchema.parse(p.engine_hints ?? {}),
    recall,
    scope,
    evidence: {...NO_EVIDENCE},
    language,
    keywords: p.keywords ?? [],
    links: p.links ?? [],
    protected: false,
    supersedes: [],
    superseded_by: p.superseded_by ?? null,
    deferred_until: null,
    provenance,
    created: env.now,
    updated: env.now,
    approved: null,
  }
  // The body's headings and labels are cairn's words: the store's language, whatever the card's text is written in.
  const body = renderBody(
    {
      problem: p.problem ?? p.summary,
      use_when: criteria.use_when,
      ignore_when: criteria.ignore_when,
      policy: recall.policy,
      risk: recall.risk,
      rule: p.rule ?? p.summary,
      evidence: renderEvidence(provenance, env.defaultLanguage),
    },
    env.defaultLanguage,
  )
  return {...fm, body}
}

function relevancePaths(p: Proposal, env: ProposalEnv): string[] {
  if (p.relevance_scope === 'broad') return []
  if (p.relevance_paths) return p.relevance_paths
  if (p.relevance_scope === 'narrow')
    return deriveRelevancePaths(p.edit_paths ?? p.recent_paths ?? [], {scope: 'narrow', root: env.repoRoot})
  return []
}

const cap = (xs: string[], n: number): string[] => xs.slice(Math.max(0, xs.length - n))
const union = (a: string[], b: string[]): string[] => [...new Set([...a, ...b])]

function joinText(a: string | null, b: string | null): string | null {
  if (!a) return b
  if (!b || a.includes(b)) return a
  return `${a}\n\n${b}`
}

/**
 * Merges a repeated proposal's evidence into the existing pending card: sessions, recent paths,
 * context and message summaries accumulate; nothing the reviewer may have edited is replaced.
 */
export function mergeEvidence(existing: Card, incoming: Card, env: ProposalEnv): {card: Card; changed: boolean} {
  const provenance = mergeProvenance(existing.provenance, incoming.provenance, env)
  const changed = JSON.stringify(provenance) !== JSON.stringify(existing.provenance)
  if (!changed) return {card: existing, changed}
  // The Evidence section is cairn's words: the store's language.
  const evidence = renderEvidence(provenance, env.defaultLanguage)
  const body = setSection(existing.body, 'evidence', evidence, env.defaultLanguage)
  return {card: {...existing, provenance, updated: env.now, body}, changed}
}

/** The pending card's provenance with a repeated proposal's sessions, paths, context and summaries added. */
export function mergeProvenance(
  a: Frontmatter['provenance'],
  b: Frontmatter['provenance'],
  env: ProposalEnv,
): Frontmatter['provenance'] {
  return {
    ...a,
    source_sessions: union(a.source_sessions, b.source_sessions),
    recent_paths: cap(union(a.recent_paths, b.recent_paths), env.maxRecentPaths),
    session_context: joinText(a.session_context, b.session_context),
    user_messages_summary: joinText(a.user_messages_summary, b.user_messages_summary),
    proposed_reason: a.proposed_reason ?? b.proposed_reason,
  }
}

const EVIDENCE_LABELS = {
  en: {
    reason: 'Proposed reason',
    sessions: 'Source sessions',
    paths: 'Recent paths',
    messages: 'User messages',
    context: 'Session context',
  },
  zh: {reason: '提出原因', sessions: '来源会话', paths: '最近路径', messages: '用户消息摘要', context: '会话背景'},
}

export function renderEvidence(p: Frontmatter['provenance'], language: Language): string {
  const l = EVIDENCE_LABELS[language]
  const lines: string[] = []
  if (p.proposed_reason) lines.push(`- ${l.reason}: ${p.proposed_reason}`)
  if (p.source_sessions.length) lines.push(`- ${l.sessions}: ${p.source_sessions.join(', ')}`)
  if (p.recent_paths.length) lines.push(`- ${l.paths}: ${p.recent_paths.map(x => `\`${x}\``).join(', ')}`)
  if (p.user_messages_summary) lines.push(`- ${l.messages}: ${p.user_messages_summary.replace(/\s*\n\s*/g, ' ')}`)
  if (p.session_context)
    lines.push('', `${l.context}:`, '', ...p.session_context.split('\n').map(x => `> ${x}`.trimEnd()))
  return lines.length ? lines.join('\n') : '-'
}
