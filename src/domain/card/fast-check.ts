import {
  CARD_SCHEMAS,
  COMMIT_SHA,
  controlCharProblem,
  type Frontmatter,
  MAX_DERIVED,
  MAX_DERIVED_CHARS,
  MAX_EVIDENCE,
  MAX_SYMBOL_CHARS,
  repoPathProblem,
} from './schema.js'
import {CARD_TYPES, LANGUAGES, LOADS, STATUSES, VIAS} from './types.js'

/**
 * A fast check of parsed frontmatter against frontmatterSchema (schema.ts): it gives exactly what
 * the zod schema gives (trimmed texts, defaults, keys in the schema's order) when every field is
 * plainly valid, and undefined otherwise, so zod then reads the card and reports its errors as it
 * always does. Validating a card this way costs a fraction of zod's run, which a cold index build
 * pays once per card. test/fast-check.test.ts holds the two to the same answers on random input.
 */

/** Thrown inside, caught at the top: this value is zod's to judge. */
const NOT_MINE = Symbol('not plainly valid')

type Plain = Record<string, unknown>

const TOP = new Set([
  'schema',
  'id',
  'type',
  'status',
  'title',
  'category',
  'summary',
  'load',
  'criteria',
  'engine_hints',
  'recall',
  'scope',
  'evidence',
  'language',
  'keywords',
  'links',
  'protected',
  'supersedes',
  'superseded_by',
  'deferred_until',
  'provenance',
  'created',
  'updated',
  'approved',
])
const CRITERIA = new Set(['use_when', 'ignore_when'])
const HINTS = new Set(['positive', 'required_all', 'negative'])
const RECALL = new Set(['policy', 'risk', 'confidence', 'triggers', 'derived_triggers', 'topics', 'aliases'])
const ALIASES = new Set(['en', 'zh'])
const SCOPE = new Set(['level', 'project_key', 'module_path', 'paths'])
const PROVENANCE = new Set([
  'source_sessions',
  'proposed_reason',
  'session_context',
  'recent_paths',
  'user_messages_summary',
  'idempotency_key',
  'proposed_by',
  'client',
  'via',
  'session',
  'promoted',
])
const PROMOTED = new Set(['layer', 'branch', 'commit'])
const EVIDENCE = new Set(['paths', 'symbols', 'verified_at', 'verified_commit'])
const APPROVED = new Set(['by', 'at'])
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
const LEVELS = ['project', 'project-family', 'global'] as const
const GRADES = ['high', 'medium', 'low'] as const
const POLICIES = ['must', 'should', 'may'] as const

export function fastFrontmatter(data: unknown): Frontmatter | undefined {
  try {
    return frontmatter(data)
  } catch (error) {
    if (error === NOT_MINE) return undefined
    throw error
  }
}

function frontmatter(data: unknown): Frontmatter {
  const d = object(data, TOP)
  if (typeof d.id !== 'string') fail()
  const rec = d.recall === undefined ? undefined : object(d.recall, RECALL)
  const sc = d.scope === undefined ? undefined : object(d.scope, SCOPE)
  const pr = d.provenance === undefined ? undefined : object(d.provenance, PROVENANCE)
  const ev = d.evidence === undefined ? undefined : object(d.evidence, EVIDENCE)
  return {
    schema: oneOf(d.schema, CARD_SCHEMAS),
    id: d.id,
    type: oneOf(d.type, CARD_TYPES),
    status: oneOf(d.status, STATUSES),
    title: text(d.title, 200),
    category: d.category === undefined ? 'general' : text(d.category),
    summary: text(d.summary, 1000),
    load: d.load === undefined ? 'recall' : oneOf(d.load, LOADS),
    criteria: lists(d.criteria, CRITERIA, ['use_when', 'ignore_when']) as Frontmatter['criteria'],
    engine_hints: lists(d.engine_hints, HINTS, ['positive', 'required_all', 'negative']) as Frontmatter['engine_hints'],
    recall: {
      policy: rec?.policy === undefined ? 'may' : oneOf(rec.policy, POLICIES),
      risk: rec?.risk === undefined ? 'medium' : oneOf(rec.risk, GRADES),
      confidence: rec?.confidence === undefined ? 'medium' : oneOf(rec.confidence, GRADES),
      triggers: list(rec?.triggers),
      derived_triggers: derived(rec?.derived_triggers),
      topics: list(rec?.topics),
      aliases: lists(rec?.aliases, ALIASES, ['en', 'zh']) as Frontmatter['recall']['aliases'],
    },
    scope: {
      level: sc?.level === undefined ? 'project' : oneOf(sc.level, LEVELS),
      project_key: maybe(sc?.project_key, v => (Array.isArray(v) ? nonEmpty(list(v)) : text(v))),
      module_path: maybe(sc?.module_path, repoPath),
      paths: list(sc?.paths, repoPath),
    },
    evidence: {
      paths: capped(list(ev?.paths, repoPath)),
      symbols: capped(list(ev?.symbols, x => symbol(text(x, MAX_SYMBOL_CHARS)))),
      verified_at: maybe(ev?.verified_at, timestamp),
      verified_commit: maybe(ev?.verified_commit, x => (typeof x === 'string' && COMMIT_SHA.test(x) ? x : fail())),
    },
    language: d.language === undefined ? 'en' : oneOf(d.language, LANGUAGES),
    keywords: list(d.keywords),
    links: list(d.links),
    protected: d.protected === undefined ? false : bool(d.protected),
    supersedes: list(d.supersedes),
    superseded_by: maybe(d.superseded_by, text),
    deferred_until: maybe(d.deferred_until, timestamp),
    provenance: {
      source_sessions: list(pr?.source_sessions),
      proposed_reason: maybe(pr?.proposed_reason, text),
      session_context: maybe(pr?.session_context, text),
      recent_paths: list(pr?.recent_paths, repoPath),
      user_messages_summary: maybe(pr?.user_messages_summary, text),
      idempotency_key: maybe(pr?.idempotency_key, text),
      proposed_by: maybe(pr?.proposed_by, text),
      client: maybe(pr?.client, v => text(v, 100)),
      via: maybe(pr?.via, v => oneOf(v, VIAS)),
      session: maybe(pr?.session, v => text(v, 200)),
      promoted: maybe(pr?.promoted, v => {
        const o = object(v, PROMOTED)
        const commit = typeof o.commit === 'string' && COMMIT_SHA.test(o.commit) ? o.commit : fail()
        return {layer: text(o.layer, 100), branch: text(o.branch, 250), commit}
      }),
    },
    created: maybe(d.created, timestamp),
    updated: maybe(d.updated, timestamp),
    approved: maybe(d.approved, a => {
      const o = object(a, APPROVED)
      return {by: text(o.by), at: timestamp(o.at)}
    }),
  }
}

/** A plain mapping whose keys the schema knows (a strict object). */
function object(v: unknown, keys: ReadonlySet<string>): Plain {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) fail()
  for (const k of Object.keys(v)) if (!keys.has(k)) fail()
  return v as Plain
}

function oneOf<T extends string>(v: unknown, values: readonly T[]): T {
  if (!values.includes(v as T)) fail()
  return v as T
}

function bool(v: unknown): boolean {
  if (typeof v !== 'boolean') fail()
  return v
}

/** schema.ts's text: trimmed, not empty, no control character; at most `max` UTF-16 units after trimming. */
function text(v: unknown, max = Infinity): string {
  if (typeof v !== 'string') fail()
  const s = v.trim()
  if (s.length === 0 || s.length > max || controlCharProblem(s)) fail()
  return s
}

function repoPath(v: unknown): string {
  const s = text(v)
  if (repoPathProblem(s)) fail()
  return s
}

function timestamp(v: unknown): string {
  if (typeof v !== 'string' || !ISO.test(v)) fail()
  return v
}

const maybe = <T>(v: unknown, read: (v: unknown) => T): T | null => (v === undefined || v === null ? null : read(v))

/** A list that holds something. */
const nonEmpty = (v: string[]): string[] => (v.length ? v : fail())

/** A list of texts, [] when absent. */
function list(v: unknown, read: (v: unknown) => string = text): string[] {
  if (v === undefined) return []
  if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) fail()
  const out: string[] = []
  for (let i = 0; i < v.length; i++) {
    if (!(i in v)) fail()
    out.push(read(v[i]))
  }
  return out
}

function capped(v: string[]): string[] {
  if (v.length > MAX_EVIDENCE) fail()
  return v
}

const symbol = (s: string): string => (/[\r\n]/.test(s) ? fail() : s)

function derived(v: unknown): string[] {
  const out = list(v, x => text(x, MAX_DERIVED_CHARS))
  if (out.length > MAX_DERIVED) fail()
  return out
}

/** A strict mapping of lists of texts, each [] when absent (and all of them when the mapping is). */
function lists(v: unknown, keys: ReadonlySet<string>, order: readonly string[]): Record<string, string[]> {
  const o = v === undefined ? {} : object(v, keys)
  const out: Record<string, string[]> = {}
  for (const k of order) out[k] = list(o[k])
  return out
}

function fail(): never {
  throw NOT_MINE
}
