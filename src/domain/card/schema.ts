import {z} from '../vendor/zod.js'
import {controlChar, controlCharProblem, repoPathFault, repoPathProblem} from './text-checks.js'
import {CARD_TYPES, LANGUAGES, LOADS, STATUSES, VIAS} from './types.js'

/** The card format: @1, or @2 for a card that uses recall.derived_triggers, which @1 readers refuse. */
export const CARD_SCHEMA_ID = 'cairn/card@1'
export const CARD_SCHEMA_V2 = 'cairn/card@2'
/** A card that carries evidence (symbols, paths named in its text, when it was last confirmed); @1 and @2 readers refuse it. */
export const CARD_SCHEMA_V3 = 'cairn/card@3'
/** A card that says who proposed it, from which client and session (provenance); older readers refuse it. */
export const CARD_SCHEMA_V4 = 'cairn/card@4'
/** A card waiting for review written as `status: pending` (older formats call it draft); older readers refuse it. */
export const CARD_SCHEMA_V5 = 'cairn/card@5'
/** A project card that records where it was proposed to an org store (provenance.promoted); older readers refuse it. */
export const CARD_SCHEMA_V6 = 'cairn/card@6'
export const CARD_SCHEMAS = [
  CARD_SCHEMA_ID,
  CARD_SCHEMA_V2,
  CARD_SCHEMA_V3,
  CARD_SCHEMA_V4,
  CARD_SCHEMA_V5,
  CARD_SCHEMA_V6,
] as const
export type CardSchemaId = (typeof CARD_SCHEMAS)[number]
/** At most this many derived triggers, each at most MAX_DERIVED_CHARS long. */
export const MAX_DERIVED = 8
export const MAX_DERIVED_CHARS = 80

/** At most this many evidence paths and symbols, each symbol at most MAX_SYMBOL_CHARS long. */
export const MAX_EVIDENCE = 20
export const MAX_SYMBOL_CHARS = 120

/** Whether a card's evidence holds anything; a card without evidence is written without the field. */
export const hasEvidence = (e: Evidence | undefined): boolean =>
  !!e && (e.paths.length > 0 || e.symbols.length > 0 || e.verified_at !== null || e.verified_commit !== null)

/** The provenance fields @4 added: who proposed the card, from which client, session and front end. */
export const ORIGIN_FIELDS = ['proposed_by', 'client', 'via', 'session'] as const
type OriginFields = Partial<Record<(typeof ORIGIN_FIELDS)[number], string | null>>

/** Whether the card says where it came from; a card that does not is written without those fields. */
export const hasOrigin = (p: OriginFields | undefined): boolean =>
  !!p && ORIGIN_FIELDS.some(k => (p[k] ?? null) !== null)

/** Whether the card records a proposal to an org store; a card that does not is written without the field. */
export const hasPromoted = (p: {promoted?: Promoted | null} | undefined): boolean => !!p?.promoted

/**
 * The oldest format that holds the card, so a previous cairn still reads every card that does not need @2 (derived
 * triggers), @3 (evidence), @4 (who proposed it, from where), @5 (status pending: a card waiting for review, which
 * an older cairn would write as draft) or @6 (provenance.promoted: the org store it was proposed to). An approved card goes back to the oldest format that holds it.
 */
export const cardSchemaFor = (fm: {
  status: string
  recall: {derived_triggers?: string[]}
  evidence?: Evidence
  provenance?: OriginFields & {promoted?: Promoted | null}
}): CardSchemaId =>
  hasPromoted(fm.provenance)
    ? CARD_SCHEMA_V6
    : fm.status === 'pending'
      ? CARD_SCHEMA_V5
      : hasOrigin(fm.provenance)
        ? CARD_SCHEMA_V4
        : hasEvidence(fm.evidence)
          ? CARD_SCHEMA_V3
          : fm.recall.derived_triggers?.length
            ? CARD_SCHEMA_V2
            : CARD_SCHEMA_ID

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
export const timestamp = z.string().regex(ISO, 'must be an ISO 8601 date or timestamp, e.g. 2026-11-29T10:00:00Z')

export {controlChar, controlCharProblem, repoPathProblem} from './text-checks.js'

const CONTROL_FIX = 'remove it; only tab and line breaks are allowed'
const PATH_FIX = 'give a path relative to the repository root, with forward slashes, e.g. src/app.ts'
export const text = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .superRefine((s, ctx) => {
    const problem = controlCharProblem(s)
    if (problem)
      ctx.addIssue({
        code: 'custom',
        message: problem,
        params: {fix: CONTROL_FIX, say: {key: 'controlChar', ...controlChar(s)}},
      })
  })
/** A path or glob relative to the repository root, in POSIX form. */
export const repoPath = text.superRefine((p, ctx) => {
  const problem = repoPathProblem(p)
  if (problem) ctx.addIssue({code: 'custom', message: problem, params: {fix: PATH_FIX, say: {key: repoPathFault(p)!}}})
})
const list = z.array(text).default([])
const paths = z.array(repoPath).default([])

export const criteriaSchema = z.strictObject({use_when: list, ignore_when: list})
export const engineHintsSchema = z.strictObject({positive: list, required_all: list, negative: list})
export const recallSchema = z.strictObject({
  policy: z.enum(['must', 'should', 'may']).default('may'),
  risk: z.enum(['high', 'medium', 'low']).default('medium'),
  confidence: z.enum(['high', 'medium', 'low']).default('medium'),
  triggers: list,
  /** Key phrases cairn derived from title, summary and rule for a card nobody gave triggers (cairn/card@2). */
  derived_triggers: z
    .array(text.max(MAX_DERIVED_CHARS, `must be at most ${MAX_DERIVED_CHARS} characters`))
    .max(MAX_DERIVED, `must hold at most ${MAX_DERIVED} phrases`)
    .default([]),
  topics: list,
  aliases: z.strictObject({en: list, zh: list}).default({en: [], zh: []}),
})
export const scopeSchema = z.strictObject({
  level: z.enum(['project', 'project-family', 'global']).default('project'),
  /**
   * The project this card belongs to; a list names every project it applies to (an org card shared by some of the
   * organisation's repositories). The scope gate passes when any of them is this project's key.
   */
  project_key: z
    .union([text, z.array(text).min(1, 'must name at least one project key, or be null')], {
      error: 'must be a project key such as github.com/acme/api, or a list of them',
    })
    .nullable()
    .default(null),
  module_path: repoPath.nullable().default(null),
  paths,
})
/** A full git commit id: SHA-1 (40 hex digits) or SHA-256 (64). */
export const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
/**
 * What the card is about in the code besides its scope paths and recent paths (cairn/card@3): files and folders its
 * text names, symbols (a function, class, config key or command) its text names, and when it was last confirmed true.
 */
export const evidenceSchema = z.strictObject({
  paths: z.array(repoPath).max(MAX_EVIDENCE, `must hold at most ${MAX_EVIDENCE} paths`).default([]),
  symbols: z
    .array(
      text.max(MAX_SYMBOL_CHARS, `must be at most ${MAX_SYMBOL_CHARS} characters`).refine(s => !/[\r\n]/.test(s), {
        message: 'must be one line',
        params: {fix: 'give one symbol per entry', say: {key: 'oneLine'}},
      }),
    )
    .max(MAX_EVIDENCE, `must hold at most ${MAX_EVIDENCE} symbols`)
    .default([]),
  verified_at: timestamp.nullable().default(null),
  verified_commit: z
    .string()
    .regex(COMMIT_SHA, 'must be a full commit id (40 or 64 lowercase hex digits), as cairn verify writes')
    .nullable()
    .default(null),
})
export type Evidence = z.output<typeof evidenceSchema>
export const NO_EVIDENCE: Evidence = {paths: [], symbols: [], verified_at: null, verified_commit: null}

/** Where `cairn org promote` proposed the card (cairn/card@6): the org layer, the branch pushed to it, its commit. */
export const promotedSchema = z.strictObject({
  layer: text.max(100, 'must be at most 100 characters'),
  branch: text.max(250, 'must be at most 250 characters'),
  commit: z
    .string()
    .regex(COMMIT_SHA, 'must be a full commit id (40 or 64 lowercase hex digits), as cairn org promote writes'),
})
export type Promoted = z.output<typeof promotedSchema>

export const provenanceSchema = z.strictObject({
  source_sessions: list,
  proposed_reason: text.nullable().default(null),
  session_context: text.nullable().default(null),
  recent_paths: paths,
  user_messages_summary: text.nullable().default(null),
  idempotency_key: text.nullable().default(null),
  /** Who proposed the card (the actor of the propose or import), from which client and session, through what. */
  proposed_by: text.nullable().default(null),
  client: text.max(100, 'must be at most 100 characters').nullable().default(null),
  via: z.enum(VIAS).nullable().default(null),
  session: text.max(200, 'must be at most 200 characters').nullable().default(null),
  /** The org store this project card was proposed to (cairn org promote), or null. */
  promoted: promotedSchema.nullable().default(null),
})

export const frontmatterSchema = z.strictObject({
  schema: z.enum(CARD_SCHEMAS),
  id: z.string(),
  type: z.enum(CARD_TYPES),
  status: z.enum(STATUSES),
  title: text.max(200, 'must be at most 200 characters'),
  category: text.default('general'),
  summary: text.max(1000, 'must be at most 1000 characters: one sentence that fits a hook context'),
  load: z.enum(LOADS).default('recall'),
  criteria: criteriaSchema.default({use_when: [], ignore_when: []}),
  engine_hints: engineHintsSchema.default({positive: [], required_all: [], negative: []}),
  recall: recallSchema.default(() => recallSchema.parse({})),
  scope: scopeSchema.default(() => scopeSchema.parse({})),
  evidence: evidenceSchema.default(() => evidenceSchema.parse({})),
  language: z.enum(LANGUAGES).default('en'),
  keywords: list,
  links: list,
  protected: z.boolean().default(false),
  supersedes: list,
  superseded_by: text.nullable().default(null),
  deferred_until: timestamp.nullable().default(null),
  provenance: provenanceSchema.default(() => provenanceSchema.parse({})),
  created: timestamp.nullable().default(null),
  /** null means "use the last commit time" (maintain's staleness check does). */
  updated: timestamp.nullable().default(null),
  approved: z.strictObject({by: text, at: timestamp}).nullable().default(null),
})

export type Frontmatter = z.output<typeof frontmatterSchema>
export type FrontmatterInput = z.input<typeof frontmatterSchema>

/** A parsed card: normalised frontmatter plus the Markdown body kept verbatim. */
export interface Card extends Frontmatter {
  body: string
}

/** Canonical key order for rendering; also the order fields are documented in. */
export const FIELD_ORDER = Object.keys(frontmatterSchema.shape) as (keyof Frontmatter)[]
