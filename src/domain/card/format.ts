import YAML from '../vendor/yaml.js'
import {type CairnError, validationError} from '../errors.js'
import {splitFrontmatter} from '../frontmatter.js'
import {fastFrontmatter} from './fast-check.js'
import {fastPatch} from './fast-patch.js'
import {parseCanonicalYaml} from './fast-yaml.js'
import {zodIssues} from '../issues.js'
import {parseYaml, parseYamlDocument} from '../yaml.js'
import {isSafeId, LEGACY_PENDING, MAX_CARD_BYTES} from './types.js'
import {
  type Card,
  CARD_SCHEMA_ID,
  CARD_SCHEMAS,
  CARD_SCHEMA_V2,
  CARD_SCHEMA_V3,
  cardSchemaFor,
  type CardSchemaId,
  hasEvidence,
  hasOrigin,
  hasPromoted,
  ORIGIN_FIELDS,
  CARD_SCHEMA_V4,
  CARD_SCHEMA_V5,
  CARD_SCHEMA_V6,
  controlChar,
  controlCharProblem,
  evidenceSchema,
  FIELD_ORDER,
  type Frontmatter,
  frontmatterSchema,
  type Promoted,
  recallSchema,
} from './schema.js'

/** The one owner of the card file format: Markdown with YAML frontmatter (cairn/card@1, or @2 with derived triggers). */

export function parseCard(text: string, file: string): Card {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_CARD_BYTES) {
    throw validationError([
      {
        file,
        field: '(content)',
        message: `card is ${bytes} bytes, over the ${MAX_CARD_BYTES}-byte limit`,
        fix: 'shorten the card; keep long material in linked docs',
        say: {key: 'cardTooLarge', bytes, max: MAX_CARD_BYTES},
      },
    ])
  }
  const parts = splitFrontmatter(text, file)
  if (!parts) throw missingFrontmatter(file)
  // The layout cairn writes is read by the fast path; anything else (and every error) by the YAML library.
  const data = parseCanonicalYaml(parts.yaml) ?? parseYaml(parts.yaml, file, parts.yamlStartLine - 1)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw validationError([
      {
        file,
        field: '(frontmatter)',
        message: 'frontmatter must be a YAML mapping',
        fix: 'write the fields as "key: value" lines',
        say: {key: 'notMapping'},
      },
    ])
  }
  const fm = validateFrontmatter(data, file)
  const control = controlChar(parts.body)
  if (control)
    throw validationError([
      {
        file,
        field: 'body',
        message: controlCharProblem(parts.body)!,
        fix: 'remove it; only tab and line breaks are allowed',
        say: {key: 'controlChar', ...control},
      },
    ])
  return {...fm, body: parts.body}
}

function missingFrontmatter(file: string): CairnError {
  return validationError([
    {
      file,
      field: '(frontmatter)',
      message: 'missing YAML frontmatter',
      fix: 'start the file with a "---" line, the card fields, and a closing "---" line',
      say: {key: 'noFrontmatter'},
    },
  ])
}

export function validateFrontmatter(data: unknown, file?: string): Frontmatter {
  // `status: draft` is read as pending (its older name, any format), so nothing past this point sees draft.
  const legacy = isMapping(data) && data.status === LEGACY_PENDING
  const input = legacy ? {...data, status: 'pending'} : data
  // Plainly valid fields are checked without zod (the same answer, much cheaper); anything else is zod's to judge and report.
  const fm = fastFrontmatter(input) ?? zodFrontmatter(input, file)
  const needs = formatNeeded(fm, legacy)
  // A newer format is fine for a card that would fit an older one; an older one for a card that needs more is not.
  if (needs && CARD_SCHEMAS.indexOf(fm.schema) < CARD_SCHEMAS.indexOf(needs.schema)) {
    throw validationError(
      [
        {
          file,
          field: 'schema',
          message: `is ${fm.schema}, but ${needs.field} needs ${needs.schema}`,
          fix: `set schema: ${needs.schema}`,
          say: {key: 'schemaNeeds', schema: fm.schema, field: needs.field, needs: needs.schema},
        },
      ],
      file ? `Invalid card ${file}` : 'Invalid card',
    )
  }
  if (!isSafeId(fm.id)) {
    throw validationError([
      {
        file,
        field: 'id',
        message: `"${fm.id}" is not a safe kebab-case id`,
        fix: 'use lowercase words joined by single hyphens',
        say: {key: 'unsafeId', id: fm.id},
      },
    ])
  }
  return fm
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The newest format a field of the card needs, and that field; a card written `status: draft` needs none for it. */
function formatNeeded(fm: Frontmatter, legacy: boolean): {field: string; schema: CardSchemaId} | null {
  return hasPromoted(fm.provenance)
    ? {field: 'provenance.promoted', schema: CARD_SCHEMA_V6 as CardSchemaId}
    : fm.status === 'pending' && !legacy
      ? {field: 'status: pending', schema: CARD_SCHEMA_V5 as CardSchemaId}
      : hasOrigin(fm.provenance)
        ? {
            field: `provenance.${ORIGIN_FIELDS.find(k => fm.provenance[k] !== null)}`,
            schema: CARD_SCHEMA_V4 as CardSchemaId,
          }
        : hasEvidence(fm.evidence)
          ? {field: 'evidence', schema: CARD_SCHEMA_V3 as CardSchemaId}
          : fm.recall.derived_triggers.length
            ? {field: 'recall.derived_triggers', schema: CARD_SCHEMA_V2 as CardSchemaId}
            : null
}

function zodFrontmatter(data: unknown, file?: string): Frontmatter {
  const result = frontmatterSchema.safeParse(data, {reportInput: true})
  if (!result.success)
    throw validationError(
      zodIssues(result.error, file, '', frontmatterSchema),
      file ? `Invalid card ${file}` : 'Invalid card',
    )
  return result.data
}

export function renderFrontmatter(fm: Frontmatter): string {
  const ordered: Record<string, unknown> = {}
  for (const key of FIELD_ORDER) ordered[key] = fm[key]
  ordered.schema = cardSchemaFor(fm)
  // An empty list is left out, so a card without derived triggers stays readable by @1 readers.
  if (!fm.recall.derived_triggers.length) {
    const {derived_triggers: _, ...recall} = fm.recall
    ordered.recall = recall
  }
  // So is empty evidence, for @1 and @2 readers, and an unknown origin, for @3 readers.
  if (!hasEvidence(fm.evidence)) delete ordered.evidence
  const provenance: Record<string, unknown> = {...fm.provenance}
  for (const k of ORIGIN_FIELDS) if (provenance[k] === null) delete provenance[k]
  if (provenance.promoted === null) delete provenance.promoted
  ordered.provenance = provenance
  const doc = new YAML.Document(ordered)
  YAML.visit(doc, {
    Seq(_, node) {
      const scalars = node.items.every(i => YAML.isScalar(i))
      const width = node.items.reduce((n: number, i) => n + String((i as YAML.Scalar).value).length + 2, 0)
      if (scalars && width < 72) node.flow = true
    },
  })
  return doc.toString({lineWidth: 0, flowCollectionPadding: false})
}

export function renderCard(card: Card): string {
  const {body, ...fm} = card
  return `---\n${renderFrontmatter(fm)}---\n${body}`
}

/** One change to a card's frontmatter: the value to set at a key path. */
export interface Patch {
  path: string[]
  value: unknown
}

/** The older spelling of a patch, still taken: `[['status'], 'active']`. */
export type PatchTuple = [path: string[], value: unknown]

/**
 * Changes frontmatter fields in place, keeping every other byte of the file (formatting,
 * comments, body) as it was. A CRLF file stays CRLF throughout, so a card checked out with
 * core.autocrlf=true is not left with mixed line endings. Callers write through the
 * transaction, which validates the card. A patch of status, recall, evidence or provenance keeps
 * the schema line in step (see cardSchemaFor), and an emptied list is removed. A card that says
 * `status: draft` (the older name of pending) is written with `status: pending`.
 */
export function patchCard(text: string, file: string, given: readonly (Patch | PatchTuple)[]): string {
  const parts = splitFrontmatter(text, file)
  if (!parts) throw missingFrontmatter(file)
  const patches = given.map(p => (Array.isArray(p) ? {path: p[0], value: p[1]} : p))
  // The layout cairn writes is patched line by line (the same bytes as below, at a fraction of the cost).
  const fast = fastPatch(parts.yaml, patches)
  const yaml = fast === undefined ? patchDocument(parts.yaml, file, patches) : `${fast}\n`
  const head = `---\n${yaml}---\n`
  return `${parts.eol === '\r\n' ? head.replace(/\n/g, '\r\n') : head}${text.slice(parts.bodyStart)}`
}

/** patchCard without its fast path: every patch made on the YAML library's document. Exported for the tests that compare them. */
export function patchCardByDocument(text: string, file: string, given: readonly Patch[]): string {
  const parts = splitFrontmatter(text, file)
  if (!parts) throw missingFrontmatter(file)
  const head = `---\n${patchDocument(parts.yaml, file, given)}---\n`
  return `${parts.eol === '\r\n' ? head.replace(/\n/g, '\r\n') : head}${text.slice(parts.bodyStart)}`
}

/** The frontmatter YAML with the patches made on the library's document, printed (ending with a line break). */
function patchDocument(yaml: string, file: string, patches: readonly Patch[]): string {
  const doc = parseYamlDocument(yaml, file, 1)
  for (const {path, value} of patches) {
    const current = doc.getIn(path, true)
    // Clearing derived triggers a card does not have is no change (and must not leave "recall: {}").
    const clearsNothing = current === undefined && Array.isArray(value) && !value.length
    if (clearsNothing && path.join('.') === 'recall.derived_triggers') continue
    if (YAML.isScalar(current) && (value === null || typeof value !== 'object')) {
      current.value = value // in place, so a comment on the line stays
      continue
    }
    const node = doc.createNode(value)
    if (YAML.isSeq(node) && node.items.every(i => YAML.isScalar(i))) node.flow = true
    const hadRecall = doc.hasIn(['recall'])
    const hadEvidence = doc.hasIn(['evidence'])
    const isNew = !doc.hasIn(path)
    doc.setIn(path, node)
    // A key added under recall or evidence (or either map itself) goes where a rendered card has it.
    if (path[0] === 'evidence' && !hadEvidence) placeNewKey(doc.contents, 'evidence', FIELD_ORDER)
    else if (path[0] === 'evidence' && isNew && path.length === 2) {
      placeNewKey(doc.getIn(['evidence'], true), path[1], Object.keys(evidenceSchema.shape))
    } else if (path[0] === 'recall' && !hadRecall) placeNewKey(doc.contents, 'recall', FIELD_ORDER)
    else if (path[0] === 'recall' && isNew && path.length === 2) {
      placeNewKey(doc.getIn(['recall'], true), path[1], Object.keys(recallSchema.shape))
    }
  }
  // A card still written with the older name of pending is rewritten with the current one.
  const status = doc.get('status', true)
  const legacy = YAML.isScalar(status) && status.value === LEGACY_PENDING
  if (legacy) status.value = 'pending'
  const synced = legacy || patches.some(p => SYNCED.includes(p.path[0]))
  if (synced && !patches.some(p => p.path[0] === 'schema')) syncSchema(doc)
  return doc.toString({lineWidth: 0, flowCollectionPadding: false})
}

/** The card text with a new body after the frontmatter, which is kept byte for byte; a CRLF file stays CRLF. */
export function replaceBody(text: string, file: string, body: string): string {
  const parts = splitFrontmatter(text, file)
  if (!parts) throw missingFrontmatter(file)
  return `${text.slice(0, parts.bodyStart)}${parts.eol === '\r\n' ? body.replace(/\r?\n/g, '\r\n') : body}`
}

/** Moves a key a patch added to where a rendered card has it, rather than the end of its map. */
function placeNewKey(map: unknown, key: string, order: readonly string[]): void {
  if (!YAML.isMap(map)) return
  const name = (p: YAML.Pair): string => String(YAML.isScalar(p.key) ? p.key.value : p.key)
  const at = map.items.findIndex(p => name(p) === key)
  if (at < 0) return
  const [pair] = map.items.splice(at, 1)
  const next = map.items.findIndex(p => order.indexOf(name(p)) > order.indexOf(key))
  map.items.splice(next < 0 ? map.items.length : next, 0, pair)
}

/** The fields the schema line follows (see cardSchemaFor). */
const SYNCED = ['status', 'recall', 'evidence', 'provenance']

function syncSchema(doc: YAML.Document): void {
  const derived = doc.getIn(['recall', 'derived_triggers'], true)
  if (YAML.isSeq(derived) && derived.items.length === 0) doc.deleteIn(['recall', 'derived_triggers'])
  const evidence = doc.get('evidence', true)
  const json = YAML.isMap(evidence) ? (evidence.toJSON() as Record<string, unknown>) : {}
  const held = Object.values(json).some(v => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined))
  if (evidence !== undefined && !held) doc.delete('evidence')
  const provenance = doc.get('provenance', true)
  const origin = YAML.isMap(provenance) && hasOrigin(provenance.toJSON() as Record<string, string | null>)
  const schema = doc.get('schema', true)
  const promoted = YAML.isMap(provenance) && hasPromoted(provenance.toJSON() as {promoted?: Promoted | null})
  const want = promoted
    ? CARD_SCHEMA_V6
    : doc.get('status') === 'pending'
      ? CARD_SCHEMA_V5
      : origin
        ? CARD_SCHEMA_V4
        : held
          ? CARD_SCHEMA_V3
          : YAML.isSeq(derived) && derived.items.length
            ? CARD_SCHEMA_V2
            : CARD_SCHEMA_ID
  if (YAML.isScalar(schema) && (CARD_SCHEMAS as readonly unknown[]).includes(schema.value)) schema.value = want
}
