import {IMPORT_TEXT} from './messages/import.js'
import {cardLanguage, speak, type StoreLanguage} from './messages/language.js'
import {idempotencyKey} from './card/idempotency.js'
import {type Card, cardSchemaFor, type Frontmatter} from './card/schema.js'
import {getRule, renderBody} from './card/sections.js'
import {type CardType, normalizeType, type Language} from './card/types.js'
import {validateFrontmatter} from './card/format.js'
import {deriveTriggers} from './derive.js'
import {type Issue, validationError} from './errors.js'

/**
 * OME experience cards (seed 002) to cairn cards. OME has no card type, so `type` defaults to
 * guideline unless the record names one. OME ids are kept as they are: they are what OME
 * suites, links and people already use, and many are shorter than cairn's 20-character slug
 * minimum; `cairn lint` reports that only as a warning once the card is active.
 * Fields cairn has no place for (intent_modes, origin, ...) are dropped and reported.
 */
export interface OmeEnv {
  now: string
  status: 'pending' | 'active'
  actor: string
  file: string
  /** The import's source key (`import:<path>#<id>`), the first source session and so the idempotency key. */
  key?: string
  /** Where the card came from, as its proposed reason. */
  reason?: string
  /** The store's knowledge_language: what the card's headings and evidence line are written in (default en). */
  language?: StoreLanguage
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/
const KNOWN = new Set([
  'schema',
  'id',
  'type',
  'status',
  'title',
  'category',
  'summary',
  'criteria',
  'recall',
  'scope',
  'engine_hints',
  'rule',
  'language',
  'keywords',
  'links',
  'problem',
  'created',
  'updated',
  'body',
])
const KNOWN_CRITERIA = new Set(['use_when', 'ignore_when'])
const KNOWN_RECALL = new Set(['policy', 'risk', 'confidence', 'triggers', 'topics', 'aliases'])

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map(x => x.trim()) : []
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

function language(raw: Record<string, unknown>): Language {
  const l = str(raw.language)?.toLowerCase()
  if (l === 'en') return 'en'
  if (l?.startsWith('zh')) return 'zh'
  return CJK.test(`${raw.title ?? ''}${raw.summary ?? ''}`) ? 'zh' : 'en'
}

/** OME alias groups are keyed by locale (en, zh-CN, mixed, ...); cairn keeps en and zh. */
function aliases(v: unknown): {en: string[]; zh: string[]} {
  const out = {en: [] as string[], zh: [] as string[]}
  for (const [key, list] of Object.entries(obj(v))) {
    for (const a of strs(list)) {
      const k = key.toLowerCase()
      const zh = k.startsWith('zh') || (k !== 'en' && CJK.test(a))
      out[zh ? 'zh' : 'en'].push(a)
    }
  }
  return out
}

export function omeToCard(raw: unknown, env: OmeEnv, index: number, body?: string): {card: Card; dropped: string[]} {
  const r = obj(raw)
  const where = `[${index}]`
  const dropped = droppedFields(r)
  const {id, title, summary, type} = requiredFields(r, env, where)
  const lang = language(r)
  const rule = str(r.rule) ?? summary
  const triggers = strs(obj(r.recall).triggers)
  // Only a card with no triggers of its own gets derived ones (cairn/card@2).
  const ownRule = str(r.rule) ?? (body && getRule(body))
  const derived = triggers.length ? [] : deriveTriggers({title, summary, rule: ownRule, language: lang})
  const fm = omeFrontmatter(r, env, {id, type, title, summary, language: lang, triggers, derived})
  const valid: Frontmatter = validateFrontmatter(fm, `${env.file}${where}`)
  const c = valid.criteria
  const text =
    body ??
    renderBody(
      {
        problem: str(r.problem) ?? summary,
        use_when: c.use_when,
        ignore_when: c.ignore_when,
        policy: valid.recall.policy,
        risk: valid.recall.risk,
        rule,
        evidence: speak(IMPORT_TEXT, env.language).omeEvidence(env.file),
      },
      cardLanguage(env.language ?? 'en'),
    )
  return {card: {...valid, body: text}, dropped}
}

/** The fields of the record (and of its criteria and recall) that cairn has no place for. */
function droppedFields(r: Record<string, unknown>): string[] {
  return [
    ...Object.keys(r).filter(k => !KNOWN.has(k)),
    ...Object.keys(obj(r.criteria))
      .filter(k => !KNOWN_CRITERIA.has(k))
      .map(k => `criteria.${k}`),
    ...Object.keys(obj(r.recall))
      .filter(k => !KNOWN_RECALL.has(k))
      .map(k => `recall.${k}`),
  ]
}

/** The fields a record cannot go without, or a validation error naming every one it lacks. */
function requiredFields(
  r: Record<string, unknown>,
  env: OmeEnv,
  where: string,
): {id: string; title: string; summary: string; type: CardType} {
  const issues: Issue[] = []
  const id = str(r.id)
  const title = str(r.title)
  const summary = str(r.summary)
  if (!id)
    issues.push({file: env.file, field: `${where}.id`, message: 'is required', fix: 'give every OME card its id'})
  if (!title)
    issues.push({file: env.file, field: `${where}.title`, message: 'is required', fix: 'give every OME card a title'})
  if (!summary)
    issues.push({
      file: env.file,
      field: `${where}.summary`,
      message: 'is required',
      fix: 'give every OME card a summary',
    })
  const type = r.type === undefined ? 'guideline' : normalizeType(r.type)
  if (!type)
    issues.push({
      file: env.file,
      field: `${where}.type`,
      message: `"${String(r.type)}" is not a card type`,
      fix: 'use model, decision, guideline, pitfall or process',
    })
  if (issues.length) throw validationError(issues, `Invalid OME card in ${env.file}`)
  return {id: id!, title: title!, summary: summary!, type: type!}
}

/** What omeToCard has worked out of a record before it builds the front matter. */
interface OmeCore {
  id: string
  type: CardType
  title: string
  summary: string
  language: Language
  triggers: string[]
  derived: string[]
}

/** The card's front matter, still to be validated: the record's fields where cairn has them, defaults where not. */
function omeFrontmatter(r: Record<string, unknown>, env: OmeEnv, core: OmeCore): unknown {
  const {id, type, title, summary, triggers, derived} = core
  const crit = obj(r.criteria)
  const rec = obj(r.recall)
  const scope = obj(r.scope)
  const hints = obj(r.engine_hints)
  return {
    schema: cardSchemaFor({status: env.status, recall: {derived_triggers: derived}}),
    id,
    type,
    status: env.status,
    title,
    category: str(r.category) ?? 'general',
    summary,
    load: 'recall',
    criteria: {use_when: strs(crit.use_when), ignore_when: strs(crit.ignore_when)},
    engine_hints: {
      positive: strs(hints.positive),
      required_all: strs(hints.required_all),
      negative: strs(hints.negative),
    },
    recall: {
      ...(str(rec.policy) ? {policy: rec.policy} : {}),
      ...(str(rec.risk) ? {risk: rec.risk} : {}),
      ...(str(rec.confidence) ? {confidence: rec.confidence} : {}),
      triggers,
      derived_triggers: derived,
      topics: strs(rec.topics),
      aliases: aliases(rec.aliases),
    },
    scope: {
      level: str(scope.level) ?? 'global',
      project_key: str(scope.project_key) ?? null,
      module_path: str(scope.module_path) ?? null,
      paths: strs(scope.paths),
    },
    language: core.language,
    keywords: strs(r.keywords),
    links: strs(r.links),
    provenance: {
      source_sessions: env.key ? [env.key] : [],
      proposed_reason: env.reason ?? speak(IMPORT_TEXT, env.language).omeReason(env.file),
      idempotency_key: idempotencyKey(env.key ? [env.key] : [], type, id),
    },
    created: env.now,
    updated: env.now,
    approved: env.status === 'active' ? {by: env.actor, at: env.now} : null,
  }
}
