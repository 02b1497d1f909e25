import {
  applyEdits,
  findNodeAtLocation,
  type FormattingOptions,
  type JSONPath,
  modify,
  type Node,
  parse,
  parseTree,
  type ParseError,
  printParseErrorCode,
} from 'jsonc-parser'
import {validationError} from '../errors.js'

/**
 * A settings file edited in place: each change is a minimal text edit, so the user's formatting,
 * key order and (where the client allows them) comments survive. Never a parse-and-reprint.
 */
export class JsonText {
  private body: string
  private readonly bom: string
  private readonly format: FormattingOptions
  value: unknown

  constructor(
    text: string,
    private readonly file: string,
    private readonly comments: boolean,
  ) {
    this.bom = text.startsWith('\uFEFF') ? '\uFEFF' : ''
    this.body = text.slice(this.bom.length)
    this.format = detectFormat(this.body)
    this.value = this.parse()
    if (!isObject(this.value)) {
      const fix = `make ${file} a JSON object ({...}), or move it aside`
      throw validationError([{file, field: '(root)', message: 'is not a JSON object', fix}])
    }
  }

  get text(): string {
    return this.bom + this.body
  }

  /** Replaces the value at path: an edit of that value's text alone. */
  set(path: JSONPath, value: unknown): void {
    this.apply(applyEdits(this.body, modify(this.body, path, value, {})))
  }

  /** Removes the property or array item at path with its separator: the reverse of add. */
  remove(path: JSONPath): void {
    const value = findNodeAtLocation(parseTree(this.body) as Node, path)
    if (!value) return
    const item = value.parent?.type === 'property' ? value.parent : value
    const container = item.parent as Node
    const siblings = container.children ?? []
    const i = siblings.indexOf(item)
    const end = (n: Node) => n.offset + n.length
    // After an earlier sibling: from its end (taking the comma before us); first of several: up to
    // the next one; alone: everything inside the brackets.
    const [from, to] =
      i > 0
        ? [end(siblings[i - 1]), end(item)]
        : siblings.length > 1
          ? [item.offset, siblings[1].offset]
          : [container.offset + 1, end(container) - 1]
    this.apply(this.body.slice(0, from) + this.body.slice(to))
  }

  /**
   * Adds a property to the object at path, last (or first), or an item at the end of the array at
   * path. The new text is indented one step inside the line that opens its container; no existing
   * byte moves, so a compact `{"theme": "x"}` of the user's stays compact.
   */
  add(path: JSONPath, value: unknown, key?: string, first = false): void {
    const node = path.length === 0 ? parseTree(this.body) : findNodeAtLocation(parseTree(this.body) as Node, path)
    if (!node || (node.type !== 'object' && node.type !== 'array')) throw new Error(`no container at ${path.join('.')}`)
    const eol = this.format.eol as string
    const unit = this.format.insertSpaces ? ' '.repeat(this.format.tabSize ?? 2) : '\t'
    const base = /^[ \t]*/.exec(this.body.slice(this.body.lastIndexOf('\n', node.offset) + 1))?.[0] ?? ''
    const inner = base + unit
    const json = JSON.stringify(value, null, unit)
      .split('\n')
      .join(eol + inner)
    const item = key === undefined ? json : `${JSON.stringify(key)}: ${json}`
    const children = node.children ?? []
    const open = node.offset + 1
    let at: number
    let text: string
    if (children.length === 0) {
      // An empty `{}` or `[]` opens up; anything inside it (a comment) stays after the new item.
      const close = node.offset + node.length - 1
      const between = this.body.slice(open, close)
      const rest = between.trim() ? between : eol + base
      this.apply(this.body.slice(0, open) + eol + inner + item + rest + this.body.slice(close))
      return
    }
    if (first) [at, text] = [open, `${eol}${inner}${item},`]
    else {
      const last = children[children.length - 1]
      ;[at, text] = [last.offset + last.length, `,${eol}${inner}${item}`]
    }
    this.apply(this.body.slice(0, at) + text + this.body.slice(at))
  }

  private apply(body: string): void {
    this.body = body
    this.value = this.parse()
  }

  private parse(): unknown {
    const errors: ParseError[] = []
    const options = {disallowComments: !this.comments, allowTrailingComma: this.comments, allowEmptyContent: false}
    const value = parse(this.body, errors, options)
    if (errors.length > 0) {
      const e = errors[0]
      const {line, column} = position(this.body, e.offset)
      const what = printParseErrorCode(e.error)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
      throw validationError([
        {
          file: this.file,
          field: `line ${line}, column ${column}`,
          message: `not valid JSON (${what})${this.comments ? '' : '; this client reads plain JSON, without comments'}`,
          fix:
            `correct ${this.file} by hand (the client cannot read it either), ` +
            'then run the command again; nothing was written',
        },
      ])
    }
    return value
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The file's own indentation (the first indented line) and line ending; two spaces and LF for a new file. */
export function detectFormat(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const indent = /^([ \t]+)\S/m.exec(text)?.[1]
  if (!indent) return {insertSpaces: true, tabSize: 2, eol}
  if (indent.startsWith('\t')) return {insertSpaces: false, tabSize: 1, eol}
  return {insertSpaces: true, tabSize: indent.length, eol}
}

function position(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset).split('\n')
  return {line: before.length, column: before[before.length - 1].length + 1}
}
