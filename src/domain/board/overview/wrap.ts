import {fitLabel, textWidth} from './text.js'

/** Break opportunities: spaces, and between CJK characters (which carry no spaces). */
const TOKENS =
  /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]+|\s+/g

/**
 * Wraps text into at most `maxLines` lines no wider than `width`; the last line ends with an ellipsis when text is
 * left over. A word wider than a whole line ends the text there, with an ellipsis.
 */
export function wrapText(text: string, width: number, size: number, maxLines: number): string[] {
  const lines: string[] = []
  let line = ''
  const tokens = text.match(TOKENS) ?? []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (/^\s+$/.test(token)) {
      if (line) line += ' '
      continue
    }
    if (textWidth(line + token, size) <= width) {
      line += token
      continue
    }
    if (line.trim()) {
      lines.push(line.trimEnd())
      line = ''
      if (lines.length === maxLines) return ellipsise(lines, tokens.slice(i).join(''), width, size)
    }
    if (textWidth(token, size) <= width) line = token
    else {
      // A word longer than a whole line is not cut in two: it ends the text, shortened.
      lines.push(fitLabel(tokens.slice(i).join(''), width, size))
      return lines
    }
  }
  if (line.trim()) lines.push(line.trimEnd())
  return lines
}

/** As many of the parts as fit whole, joined by " · " (a cut-off "weig…" says nothing). */
export function fitParts(parts: string[], width: number, size: number): string {
  let line = ''
  for (const part of parts) {
    const next = line ? `${line} · ${part}` : part
    if (textWidth(next, size) > width) break
    line = next
  }
  return line
}

function ellipsise(lines: string[], rest: string, width: number, size: number): string[] {
  if (!rest.trim()) return lines
  const last = lines.length - 1
  lines[last] = fitLabel(`${lines[last]} ${rest.trim()}`, width, size)
  return lines
}
