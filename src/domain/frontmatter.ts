import {validationError} from './errors.js'

/**
 * The one frontmatter splitter, for card files, card patches and Markdown input. A file checked
 * out with core.autocrlf=true (the Git for Windows default) has CRLF line endings; its parts come
 * back with LF, so nothing downstream sees a stray "\r".
 */
export interface FrontmatterParts {
  /** The YAML between the fence lines, with LF line endings and no final line break. */
  yaml: string
  /** Everything after the closing fence line, with LF line endings when the file uses CRLF. */
  body: string
  /** Where the body starts in the text, for edits that keep its bytes. */
  bodyStart: number
  /** File line (1-based) of the YAML's first line, for error positions. */
  yamlStartLine: number
  /** The file's line ending, as its opening fence line has it. */
  eol: '\n' | '\r\n'
}

const OPEN = /^---[ \t]*(\r?\n)/
const CLOSE = /^---[ \t]*\r?$/m

/**
 * Splits "---" YAML "---" body. Null when the text does not open with a fence line; a fence that
 * is never closed is a validation error naming the file.
 */
export function splitFrontmatter(text: string, file: string): FrontmatterParts | null {
  const open = OPEN.exec(text)
  if (!open) return null
  const start = open[0].length
  const close = CLOSE.exec(text.slice(start))
  if (!close) {
    throw validationError([
      {
        file,
        field: '(frontmatter)',
        message: 'frontmatter has no closing "---" line',
        fix: 'close the frontmatter with a line containing only ---',
      },
    ])
  }
  const eol = open[1] === '\r\n' ? '\r\n' : '\n'
  const yamlEnd = start + close.index
  let bodyStart = yamlEnd + close[0].length
  if (text[bodyStart] === '\n') bodyStart++
  const yaml = toLf(text.slice(start, yamlEnd)).replace(/\n$/, '')
  const body = eol === '\r\n' ? toLf(text.slice(bodyStart)) : text.slice(bodyStart)
  return {yaml, body, bodyStart, yamlStartLine: 2, eol}
}

const toLf = (s: string): string => s.replace(/\r\n/g, '\n')
