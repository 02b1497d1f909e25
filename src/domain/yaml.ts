import YAML from './vendor/yaml.js'
import {MAX_DEPTH} from './depth.js'
import {type CairnError, type Issue, validationError} from './errors.js'

/** The library's warnings are not printed: what cairn refuses it reports itself, in its own words. */
const OPTIONS = {uniqueKeys: true, logLevel: 'error'} as const

/**
 * The one YAML reader for cards, config, signals and structured input. Duplicate keys are an
 * error, and every failure becomes a validation error naming the file and the line.
 * lineOffset is the number of file lines before the source (a frontmatter starts on line 2).
 */
export function parseYaml(source: string, file: string, lineOffset = 0): unknown {
  const doc = parseYamlDocument(source, file, lineOffset)
  try {
    return doc.toJS()
  } catch (error) {
    throw yamlError(error, file, lineOffset)
  }
}

/** The document form, for edits that must keep comments and formatting. */
export function parseYamlDocument(source: string, file: string, lineOffset = 0): YAML.Document {
  const lines = new YAML.LineCounter()
  const doc = compose(source, lines, file, lineOffset)
  if (doc.errors.length) throw yamlError(doc.errors[0], file, lineOffset, lines, doc)
  return doc
}

/**
 * What YAML.parseDocument does, with the depth checked as the parse tree is built: the library has no depth
 * option, and its tree parser keeps its own stack (no recursion), so it is the one place that sees the depth
 * before anything recursive does. Too deep stops the parse at the first level past the limit.
 */
function compose(source: string, lines: YAML.LineCounter, file: string, lineOffset: number): YAML.Document {
  let doc: YAML.Document.Parsed | undefined
  for (const next of new YAML.Composer(OPTIONS).compose(tokens(source, lines, file, lineOffset), true, source.length)) {
    if (doc) {
      const message = 'Source contains multiple documents; please use YAML.parseAllDocuments()'
      doc.errors.push(new YAML.YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', message))
      break
    }
    doc = next
  }
  return doc!
}

function* tokens(source: string, lines: YAML.LineCounter, file: string, lineOffset: number): Generator<YAML.CST.Token> {
  const parser = new YAML.Parser(lines.addNewLine)
  lines.addNewLine(0)
  for (const lexeme of new YAML.Lexer().lex(source)) {
    yield* parser.next(lexeme)
    // The stack holds the collections open around this point, and a document and a scalar at most besides.
    if (parser.stack.length > MAX_DEPTH && parser.stack.filter(YAML.CST.isCollection).length > MAX_DEPTH) {
      throw tooDeep(parser, lines, file, lineOffset)
    }
  }
  yield* parser.end()
}

function tooDeep(parser: YAML.Parser, lines: YAML.LineCounter, file: string, lineOffset: number): CairnError {
  const issue: Issue = {
    file,
    field: topField(parser.stack),
    message: `nests more than ${MAX_DEPTH} levels deep at line ${lines.linePos(parser.offset).line + lineOffset}`,
    fix: 'flatten it: a value is text or a short list or map, and no cairn file needs more than a few levels',
  }
  return validationError([issue], `Invalid YAML in ${file}`)
}

/**
 * The top-level key, or index in a top-level list, the too-deep value sits under, as a field name. The item
 * being built is the last one, unless that one is complete (a flow list adds its item when it ends).
 */
function topField(stack: YAML.CST.Token[]): string {
  const root = stack.find(YAML.CST.isCollection)
  if (!root) return '(yaml)'
  const last = root.items.at(-1)
  if (root.type === 'block-seq' || (root.type === 'flow-collection' && root.start.source === '[')) {
    return `[${last && !last.key && !last.value ? root.items.length - 1 : root.items.length}]`
  }
  const key =
    last?.key && !last.value && YAML.CST.isScalar(last.key) ? YAML.CST.resolveAsScalar(last.key)?.value : undefined
  return key || '(yaml)'
}

function yamlError(
  error: unknown,
  file: string,
  lineOffset: number,
  lines?: YAML.LineCounter,
  doc?: YAML.Document,
): CairnError {
  const e = error as {message?: string; code?: string; pos?: [number, number]}
  const pos = lines && e.pos && e.pos[0] >= 0 ? lines.linePos(e.pos[0]) : undefined
  const unclosed = e.code === 'MISSING_CHAR' && /quote/.test(String(e.message)) && e.pos && doc && lines
  const quote = unclosed ? openQuote(doc, e.pos![0]) : undefined
  if (quote && lines) {
    const at = lines.linePos(quote.offset)
    const line = at.line + lineOffset
    const issue: Issue = {
      file,
      field: '(yaml)',
      message: `invalid YAML: the quote opened on line ${line}, column ${at.col} is not closed`,
      fix: `end the value on line ${line} with a closing ${quote.mark}, or remove the opening one`,
    }
    return validationError([issue], `Invalid YAML in ${file}`)
  }
  const where = pos ? `line ${pos.line + lineOffset}, column ${pos.col}` : 'an unknown position'
  const what = String(e.message ?? error)
    .split('\n')[0]
    .replace(/ at line \d+, column \d+:?$/, '')
    .replace(/\.$/, '')
  const issue: Issue = {
    file,
    field: '(yaml)',
    message: `invalid YAML at ${where}: ${what.replace(/^[A-Z](?=[a-z])/, c => c.toLowerCase())}`,
    fix: 'correct the YAML syntax there; quote a value that holds ": " or " #"',
  }
  return validationError([issue], `Invalid YAML in ${file}`)
}

/**
 * The quoted value an unclosed-quote error is about: the library reports where it gave up, often the end of the
 * text, but a person needs the line the quote opened on.
 */
function openQuote(doc: YAML.Document, at: number): {offset: number; mark: string} | undefined {
  let found: {offset: number; mark: string} | undefined
  YAML.visit(doc, {
    Scalar(_key, node) {
      const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'
      if (!quoted || !node.range || node.range[0] > at || node.range[2] < at) return
      found = {offset: node.range[0], mark: node.type === 'QUOTE_DOUBLE' ? '"' : "'"}
      return YAML.visit.BREAK
    },
  })
  return found
}
