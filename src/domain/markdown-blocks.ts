import {htmlBlockStart} from './markdown-html.js'
import {lineStartsInText} from './markdown-inline.js'

/**
 * Which lines of a markdown text a reader sees as its own text: the lines of a paragraph (not of a code
 * block or an HTML block) outside block quotes, that do not begin inside inline code, HTML or a link's
 * hidden parts (markdown-inline.ts). A list item's text counts; a quote's is someone else's words.
 * Blocks are found as CommonMark finds them (spec 0.31, appendix A, and commonmark.js): open containers
 * are matched line by line, then new ones are opened, then the line goes to a leaf: a paragraph, which
 * lazy continuation lines extend and a setext underline ends; a fenced or indented code block; one of the
 * seven kinds of HTML block. Where a reading is in doubt it errs towards "not text": a `/cairn` command
 * that is not seen as text is not run.
 *
 * What this reading does not follow ends the text: no line from there on counts. Raw HTML is one (an element
 * or comment left open hides every paragraph after it, whatever the blocks say), but for a whole HTML comment
 * on lines of its own outside containers; so are GFM's footnote definitions (one interrupts a paragraph and
 * takes the lines after it out of sight), tables, `$$` math, and link reference definitions (which change how
 * the lines after them are read).
 */

/** A paragraph's line: its number, and its text without the containers' markers and the indentation. */
interface ParagraphLine {
  n: number
  text: string
}
type Container = {kind: 'quote'} | {kind: 'item'; indent: number; empty: boolean}
type Leaf =
  | Paragraph
  | {kind: 'fence'; fence: RegExp}
  | {kind: 'code'}
  | HtmlLeaf
type Paragraph = {kind: 'paragraph'; lines: ParagraphLine[]; quoted: boolean}
/** An HTML block, with its text while it may still be a whole comment on lines of its own. */
interface HtmlLeaf {
  kind: 'html'
  end: RegExp | null
  text: string | null
}

const LINE_BREAK = /\r\n|\r|\n/
const FENCE = /^(`{3,}|~{3,})([\s\S]*)$/
const THEMATIC_BREAK = /^(?:(?:\*[ ]*){3,}|(?:-[ ]*){3,}|(?:_[ ]*){3,})$/
const ATX_HEADING = /^#{1,6}(?: |$)/
const SETEXT_UNDERLINE = /^(?:=+|-+) *$/
const LIST_ITEM = /^(?:[-+*]|(\d{1,9})[.)])(?= |$)/
const FOOTNOTE = /^\[\^[^\]]*\]:/
const TABLE_DELIMITER = /^\|?(?: *:?-+:? *\|)+(?: *:?-+:? *)?$|^ *:?-+:? *\|/
const MATH = /\$\$/
/** The comment of an HTML block that hides nothing after it: one comment, nothing after its end. */
const WHOLE_COMMENT = /^<!--(?:(?!--)[\s\S])*-->\s*$/
const isBlank = (text: string): boolean => /^ *$/.test(text)
/**
 * Containers nested deeper than this: the text is not read at all (no line counts). Each line is matched
 * against every open container, so unbounded nesting would cost time quadratic in a line's length.
 */
const MAX_DEPTH = 32

/** Tabs to spaces, to the next multiple of 4 columns: the columns CommonMark's indentation rules count. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line
  let out = ''
  for (const ch of line) out += ch === '\t' ? ' '.repeat(4 - (out.length % 4)) : ch
  return out
}

const indentAt = (line: string, pos: number): number => {
  let n = pos
  while (line[n] === ' ') n++
  return n - pos
}

/** The lines of `markdown` that begin in the text of a paragraph outside block quotes, in order, as written. */
export function textLines(markdown: string): string[] {
  const raw = markdown.split(LINE_BREAK)
  const read = readBlocks(raw.map(expandTabs))
  if (!read) return []
  let end = read.end
  const out: number[] = []
  for (const p of read.paragraphs) {
    if (p.lines[0].n >= end) break
    const {inText, endsAt} = lineStartsInText(p.lines.map(l => l.text))
    p.lines.forEach((l, i) => !p.quoted && inText[i] && out.push(l.n))
    if (endsAt !== -1) end = Math.min(end, endsAt < p.lines.length ? p.lines[endsAt].n : p.lines.at(-1)!.n + 1)
  }
  return out.filter(n => n < end).map(n => raw[n])
}

/**
 * Every paragraph, in order, and the line where the text ends (what follows is not read: see above);
 * null when containers nest past MAX_DEPTH.
 */
function readBlocks(lines: string[]): {paragraphs: Paragraph[]; end: number} | null {
  const paragraphs: Paragraph[] = []
  const open: Container[] = []
  let leaf = null as Leaf | null
  let end = lines.length
  const close = (depth: number) => {
    if (depth < open.length) leaf = null
    open.length = depth
  }
  /** An HTML block ends: it ends the text too, unless it is a whole comment. */
  const endHtml = (html: HtmlLeaf, start: number) => {
    if (html.text === null || !WHOLE_COMMENT.test(html.text)) end = Math.min(end, start)
  }
  let htmlStart = 0
  let tooDeep = false
  for (let n = 0; n < lines.length && n < end && !tooDeep; n++) {
    const line = lines[n]
    // 1. The open containers this line continues.
    let pos = 0
    let matched = 0
    for (const c of open) {
      const indent = indentAt(line, pos)
      if (c.kind === 'quote') {
        if (indent > 3 || line[pos + indent] !== '>') break
        pos += indent + 1 + (line[pos + indent + 1] === ' ' ? 1 : 0)
      } else if (isBlank(line.slice(pos))) {
        // An item that began with a blank line and has nothing yet ends at a second one.
        if (c.empty) break
      } else if (indent >= c.indent) {
        pos += c.indent
      } else break
      matched++
    }
    const continued = matched === open.length
    // 2. A code or HTML block swallows the line while its containers go on.
    if (leaf && continued) {
      const rest = line.slice(pos)
      if (leaf.kind === 'fence') {
        if (indentAt(rest, 0) <= 3 && leaf.fence.test(rest.slice(indentAt(rest, 0)))) leaf = null
        continue
      }
      if (leaf.kind === 'html') {
        if (leaf.text !== null) leaf.text += `\n${rest}`
        if (leaf.end ? leaf.end.test(rest) : isBlank(rest)) {
          endHtml(leaf, htmlStart)
          leaf = null
        }
        continue
      }
      if (leaf.kind === 'code') {
        if (isBlank(rest) || indentAt(rest, 0) >= 4) continue
        leaf = null
      }
    }
    // An HTML block its containers cut short is left open in what the reader's browser builds.
    if (leaf?.kind === 'html' && !continued) end = Math.min(end, htmlStart)
    // 3. New containers: block quotes and list items, nested as deep as the line goes.
    let started = false
    for (;;) {
      const indent = indentAt(line, pos)
      if (indent >= 4) break
      if (open.length >= MAX_DEPTH) {
        tooDeep = true
        break
      }
      const at = pos + indent
      const rest = line.slice(at)
      if (rest.startsWith('>')) {
        close(matched)
        open.push({kind: 'quote'})
        matched = open.length
        pos = at + 1 + (line[at + 1] === ' ' ? 1 : 0)
        started = true
        continue
      }
      // An underline turns the paragraph above into a heading; a rule is a leaf too. Neither is a list item.
      if (THEMATIC_BREAK.test(rest) || (continued && leaf?.kind === 'paragraph' && SETEXT_UNDERLINE.test(rest))) break
      const item = LIST_ITEM.exec(rest)
      if (!item) break
      const after = rest.slice(item[0].length)
      // A list interrupts a paragraph only with an item that has text and, if numbered, starts at 1.
      const interrupting = !started && continued && leaf?.kind === 'paragraph'
      if (interrupting && (isBlank(after) || (item[1] !== undefined && Number(item[1]) !== 1))) break
      const spaces = indentAt(after, 0)
      const gap = isBlank(after) || spaces > 4 ? 1 : spaces
      close(matched)
      open.push({kind: 'item', indent: indent + item[0].length + gap, empty: isBlank(after)})
      matched = open.length
      pos = at + item[0].length + gap
      started = true
    }
    if (tooDeep) break
    // 4. The leaf.
    const rest = line.slice(pos)
    if (isBlank(rest)) {
      close(matched)
      if (leaf?.kind === 'paragraph') leaf = null
      continue
    }
    for (const c of open) if (c.kind === 'item') c.empty = false
    const paragraph: Paragraph | null = !started && leaf?.kind === 'paragraph' ? leaf : null
    const indent = indentAt(rest, 0)
    const text = rest.slice(indent)
    if (FOOTNOTE.test(text) || MATH.test(text)) {
      end = n
      break
    }
    if (paragraph && indent < 4 && text.includes('|') && TABLE_DELIMITER.test(text)) {
      // The line above is a table's header row.
      end = n - 1
      break
    }
    if (paragraph && continued && indent < 4 && SETEXT_UNDERLINE.test(text)) {
      leaf = null
      continue
    }
    if (paragraph && (indent >= 4 || !interrupts(text))) {
      // A continuation line, or a lazy one: it belongs to the open paragraph, inside containers this line left out.
      paragraph.lines.push({n, text})
      continue
    }
    close(matched)
    leaf = indent >= 4 ? {kind: 'code'} : startLeaf(text, paragraph !== null, open.length > 0)
    if (leaf?.kind === 'html') {
      htmlStart = n
      if (leaf.end?.test(text)) {
        endHtml(leaf, n)
        leaf = null
      }
      continue
    }
    if (leaf?.kind !== 'paragraph') continue
    leaf.quoted = open.some(c => c.kind === 'quote')
    paragraphs.push(leaf)
    leaf.lines.push({n, text})
  }
  if (leaf?.kind === 'html') end = Math.min(end, htmlStart)
  return tooDeep ? null : {paragraphs, end}
}

/**
 * The block a line (its indentation removed, under 4 columns) starts: null for a one-line block. An HTML
 * comment keeps its text while it may be a whole one, which only outside containers it can be.
 */
function startLeaf(text: string, afterParagraph: boolean, contained: boolean): Leaf | null {
  const fence = FENCE.exec(text)
  if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
    return {kind: 'fence', fence: new RegExp(`^${fence[1][0]}{${fence[1].length},} *$`)}
  }
  const html = htmlBlockStart(text, afterParagraph)
  if (html) return {kind: 'html', end: html.end, text: html.comment && !contained ? text : null}
  if (ATX_HEADING.test(text) || THEMATIC_BREAK.test(text)) return null
  return {kind: 'paragraph', lines: [], quoted: false}
}

/** Whether a line ends an open paragraph by starting another block (containers are already taken off). */
const interrupts = (text: string): boolean => startLeaf(text, true, false)?.kind !== 'paragraph'
