import {INVALID_UTF8, toJsRegExp} from '../../domain/search-pattern.js'
import {readRegularFile} from '../files/safe-read.js'

/**
 * The search in Node, for where rg is missing (card-search.ts runs it, in a worker thread when it can: see
 * search-worker.ts): each file read as cairn reads a card, each line matched as rg matches it.
 */

export interface NodeSearchJob {
  /** Absolute paths, each with its label (repo-relative) and size cap. */
  files: {file: string; label: string; cap: number}[]
  pattern: string
  fixed: boolean
  ignoreCase: boolean
}

/** A matched line: the index of its file in the job, its number, its text (U+FFFD for invalid bytes), the spans. */
export interface NodeSearchLine {
  file: number
  line: number
  text: string
  /** UTF-16 offsets into text. */
  spans: Span[]
}

export interface Span {
  from: number
  to: number
}

export function searchFiles(job: NodeSearchJob): NodeSearchLine[] {
  const regex = toJsRegExp(job.pattern, {fixed: job.fixed, ignoreCase: job.ignoreCase})
  const found: NodeSearchLine[] = []
  job.files.forEach((f, file) => {
    const text = readSearched(f)
    if (text === undefined) return
    const lines = text.split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    lines.forEach((raw, i) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      const spans = rustSpans(Array.from(line.matchAll(regex), m => ({from: m.index, to: m.index + m[0].length})))
      if (spans.length) found.push({file, line: i + 1, text: shown(line), spans})
    })
  })
  return found
}

/**
 * No empty match right where the previous match ended, as Rust's regex iterates. rg reports empty matches at every
 * byte, inside a character too; placed in the text, those fall where the character's end is, and go the same way.
 */
export function rustSpans(spans: Span[]): Span[] {
  let end = -1
  return spans.filter(({from, to}) => {
    if (from === to && from === end) return false
    end = to
    return true
  })
}

/** A file's text (UTF-8, invalid bytes marked, no BOM); undefined for a link, a file over its cap, or one gone. */
export function readSearched(f: {file: string; label: string; cap: number}): string | undefined {
  try {
    return decodeMarked(readRegularFile(f.file, f.label, f.cap))
  } catch {
    return undefined
  }
}

const strict = new TextDecoder('utf-8', {fatal: true})

/**
 * UTF-8 as the WHATWG decoder reads it (Buffer's toString, rg's lines as cairn shows them), but each invalid sequence
 * read as INVALID_UTF8 rather than U+FFFD, so the pattern can leave it out as Rust's regex does; no BOM.
 */
export function decodeMarked(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes)
  } catch {
    // Invalid somewhere: decoded by hand below.
  }
  const points: number[] = []
  let point = 0
  let needed = 0
  let seen = 0
  let lower = 0x80
  let upper = 0xbf
  const invalid = INVALID_UTF8.charCodeAt(0)
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (needed === 0) {
      if (b <= 0x7f) points.push(b)
      else if (b >= 0xc2 && b <= 0xdf) [needed, point] = [1, b & 0x1f]
      else if (b >= 0xe0 && b <= 0xef) {
        ;[needed, point, lower, upper] = [2, b & 0x0f, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf]
      } else if (b >= 0xf0 && b <= 0xf4) {
        ;[needed, point, lower, upper] = [3, b & 0x07, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf]
      } else points.push(invalid)
      continue
    }
    if (b < lower || b > upper) {
      // The sequence ends before this byte, which starts afresh.
      ;[needed, seen, lower, upper] = [0, 0, 0x80, 0xbf]
      points.push(invalid)
      i--
      continue
    }
    ;[lower, upper, point, seen] = [0x80, 0xbf, (point << 6) | (b & 0x3f), seen + 1]
    if (seen === needed) {
      points.push(point)
      ;[needed, seen] = [0, 0]
    }
  }
  if (needed) points.push(invalid)
  let text = ''
  for (let i = 0; i < points.length; i += 8192) text += String.fromCodePoint(...points.slice(i, i + 8192))
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

export const shown = (text: string): string =>
  text.includes(INVALID_UTF8) ? text.replaceAll(INVALID_UTF8, '\ufffd') : text
