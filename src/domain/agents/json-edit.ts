import {applyEdits, type FormattingOptions, type JSONPath, modify, parse, type ParseError, printParseErrorCode} from 'jsonc-parser'
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
      throw validationError([{file, field: '(root)', message: 'is not a JSON object', fix: `make ${file} a JSON object ({...}), or move it aside`}])
    }
  }

  get text(): string {
    return this.bom + this.body
  }

  /** Sets (or, with undefined, removes) the value at path; `insert` puts a new array item at that index. */
  set(path: JSONPath, value: unknown, insert = false): void {
    const options = {formattingOptions: this.format, isArrayInsertion: insert, getInsertionIndex: firstForVersion(path)}
    this.body = applyEdits(this.body, modify(this.body, path, value, options))
    this.value = this.parse()
  }

  private parse(): unknown {
    const errors: ParseError[] = []
    const value = parse(this.body, errors, {disallowComments: !this.comments, allowTrailingComma: this.comments, allowEmptyContent: false})
    if (errors.length > 0) {
      const e = errors[0]
      const {line, column} = position(this.body, e.offset)
      const what = printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
      throw validationError([
        {
          file: this.file,
          field: `line ${line}, column ${column}`,
          message: `not valid JSON (${what})${this.comments ? '' : '; this client reads plain JSON, without comments'}`,
          fix: `correct ${this.file} by hand (the client cannot read it either), then run the command again; nothing was written`,
        },
      ])
    }
    return value
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Cursor's `version` goes first, as its docs write it; every other new key goes last. */
function firstForVersion(path: JSONPath): ((keys: string[]) => number) | undefined {
  return path.length === 1 && path[0] === 'version' ? () => 0 : undefined
}

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
