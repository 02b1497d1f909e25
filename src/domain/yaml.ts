import YAML from 'yaml'
import {type CairnError, type Issue, validationError} from './errors.js'

/**
 * The one YAML reader for cards, config, signals and structured input. Duplicate keys are an
 * error, and every failure becomes a validation error naming the file and the line.
 * lineOffset is the number of file lines before the source (a frontmatter starts on line 2).
 */
export function parseYaml(source: string, file: string, lineOffset = 0): unknown {
  try {
    return YAML.parse(source, {uniqueKeys: true})
  } catch (error) {
    throw yamlError(error, file, lineOffset)
  }
}

/** The document form, for edits that must keep comments and formatting. */
export function parseYamlDocument(source: string, file: string, lineOffset = 0): YAML.Document {
  const doc = YAML.parseDocument(source, {uniqueKeys: true})
  if (doc.errors.length) throw yamlError(doc.errors[0], file, lineOffset)
  return doc
}

function yamlError(error: unknown, file: string, lineOffset: number): CairnError {
  const e = error as {message?: string; linePos?: {line: number; col: number}[]}
  const pos = e.linePos?.[0]
  const where = pos ? `line ${pos.line + lineOffset}, column ${pos.col}` : 'unknown position'
  const first = String(e.message ?? error).split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
  const issue: Issue = {
    file,
    field: '(yaml)',
    message: `invalid YAML at ${where}: ${first}`,
    fix: 'correct the YAML syntax (quote values containing ":" or "#")',
  }
  return validationError([issue], `${file}: invalid YAML`)
}
