import matter from 'gray-matter'
import YAML from 'yaml'
import {CairnError, type Issue, validationError} from '../errors.js'
import {zodIssues} from '../issues.js'
import {type Card, controlCharProblem, FIELD_ORDER, type Frontmatter, frontmatterSchema, MAX_CARD_BYTES} from './schema.js'

/** The one owner of the card file format: Markdown with YAML frontmatter (cairn/card@1). */

/** Ids become file names: only plain kebab-case, never a path. */
export const isSafeId = (id: string): boolean => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id) && id.length <= 80

export function parseYaml(source: string, file: string, lineOffset = 0): unknown {
  try {
    return YAML.parse(source, {uniqueKeys: true})
  } catch (error) {
    throw yamlError(error, file, lineOffset)
  }
}

function yamlError(error: unknown, file: string, lineOffset: number): CairnError {
  const e = error as {message?: string; linePos?: {line: number; col: number}[]}
  const pos = e.linePos?.[0]
  const where = pos ? `line ${pos.line + lineOffset}, column ${pos.col}` : 'unknown position'
  const first = String(e.message ?? error).split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
  const issue: Issue = {file, field: '(yaml)', message: `invalid YAML at ${where}: ${first}`, fix: 'correct the YAML syntax (quote values containing ":" or "#")'}
  return validationError([issue], `${file}: invalid YAML`)
}

export function parseCard(text: string, file: string): Card {
  if (Buffer.byteLength(text, 'utf8') > MAX_CARD_BYTES) {
    throw validationError([{file, field: '(content)', message: `card is ${Buffer.byteLength(text, 'utf8')} bytes, over the ${MAX_CARD_BYTES}-byte limit`, fix: 'shorten the card; keep long material in linked docs'}])
  }
  if (!/^---\r?\n/.test(text)) {
    throw validationError([{file, field: '(frontmatter)', message: 'missing YAML frontmatter', fix: 'start the file with a "---" line, the card fields, and a closing "---" line'}])
  }
  let parsed: matter.GrayMatterFile<string>
  try {
    parsed = matter(text, {engines: {yaml: (s: string) => YAML.parse(s, {uniqueKeys: true}) as object}})
  } catch (error) {
    // gray-matter hands the YAML over starting with the newline after the opening "---", so its line numbers are already file lines.
    throw yamlError(error, file, 0)
  }
  const data = parsed.data
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw validationError([{file, field: '(frontmatter)', message: 'frontmatter must be a YAML mapping', fix: 'write the fields as "key: value" lines'}])
  }
  const fm = validateFrontmatter(data, file)
  const control = controlCharProblem(parsed.content)
  if (control) throw validationError([{file, field: 'body', message: control, fix: 'remove it; only tab and line breaks are allowed'}])
  return {...fm, body: parsed.content}
}

export function validateFrontmatter(data: unknown, file?: string): Frontmatter {
  const result = frontmatterSchema.safeParse(data)
  if (!result.success) throw validationError(zodIssues(result.error, file), file ? `${file}: invalid card` : 'Invalid card')
  const fm = result.data
  if (!isSafeId(fm.id)) {
    throw validationError([{file, field: 'id', message: `"${fm.id}" is not a safe kebab-case id`, fix: 'use lowercase words joined by single hyphens'}])
  }
  return fm
}

export function renderFrontmatter(fm: Frontmatter): string {
  const ordered: Record<string, unknown> = {}
  for (const key of FIELD_ORDER) ordered[key] = fm[key]
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

/**
 * Changes frontmatter fields in place, keeping every other byte of the file (formatting,
 * comments, body) as it was. Callers write through the transaction, which validates the card.
 */
export function patchCard(text: string, file: string, patches: [path: string[], value: unknown][]): string {
  const m = /^---\r?\n([\s\S]*?\r?\n)---\r?\n/.exec(text)
  if (!m) throw validationError([{file, field: '(frontmatter)', message: 'missing YAML frontmatter', fix: 'start the file with a "---" line'}])
  const doc = YAML.parseDocument(m[1], {uniqueKeys: true})
  if (doc.errors.length) throw yamlError(doc.errors[0], file, 1)
  for (const [path, value] of patches) {
    const node = doc.createNode(value)
    if (YAML.isSeq(node) && node.items.every(i => YAML.isScalar(i))) node.flow = true
    doc.setIn(path, node)
  }
  return `---\n${doc.toString({lineWidth: 0, flowCollectionPadding: false})}---\n${text.slice(m[0].length)}`
}
