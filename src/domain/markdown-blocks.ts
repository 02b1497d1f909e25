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
type Leaf = Paragraph | {kind: 'fence'; fence: RegExp} | {kind: 'code'} | HtmlLeaf
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

/** Where readBlocks is: the containers open, the leaf being read, and the line where the text ends. */
interface BlockState {
  paragraphs: Paragraph[]
  open: Container[]
  leaf: Leaf | null
  end: number
  /** The line the open HTML block began on. */
  htmlStart: number
  tooDeep: boolean
}

/** Where a line is read up to: the column, the containers it is in, and whether it opened any. */
interface LineCursor {
  pos: number
  matched: number
  started: boolean
}

/**
 * Every paragraph, in order, and the line where the text ends (what follows is not read: see above);
 * null when containers nest past MAX_DEPTH.
 */
function readBlocks(lines: string[]): {paragraphs: Paragraph[]; end: number} | null {
  const s: BlockState = {paragraphs: [], open: [], leaf: null, end: lines.length, htmlStart: 0, tooDeep: false}
  for (let n = 0; n < lines.length && n < s.end && !s.tooDeep; n++) readLine(s, lines[n], n)
  if (s.leaf?.kind === 'html') s.end = Math.min(s.end, s.htmlStart)
  return s.tooDeep ? null : {paragraphs: s.paragraphs, end: s.end}
}

/** Closes the containers from `depth` on, and the leaf with them. */
function closeFrom(s: BlockState, depth: number): void {
  if (depth < s.open.length) s.leaf = null
  s.open.length = depth
}

/** An HTML block ends: it ends the text too, unless it is a whole comment. */
function endHtml(s: BlockState, html: HtmlLeaf, start: number): void {
  if (html.text === null || !WHOLE_COMMENT.test(html.text)) s.end = Math.min(s.end, start)
}

/** One line, read as CommonMark reads it; it may end the text (s.end) or find the nesting too deep (s.tooDeep). */
function readLine(s: BlockState, line: string, n: number): void {
  const at = matchOpenContainers(s.open, line)
  const continued = at.matched === s.open.length
  if (s.leaf && continued && leafSwallows(s, s.leaf, line.slice(at.pos))) return
  // An HTML block its containers cut short is left open in what the reader's browser builds.
  if (s.leaf?.kind === 'html' && !continued) s.end = Math.min(s.end, s.htmlStart)
  openContainers(s, line, at, continued)
  if (s.tooDeep) return
  readLeaf(s, line.slice(at.pos), n, at, continued)
}

/** 1. The open containers this line continues. */
function matchOpenContainers(open: Container[], line: string): LineCursor {
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
  return {pos, matched, started: false}
}

/** 2. A code or HTML block swallows the line while its containers go on: true when it did. */
function leafSwallows(s: BlockState, leaf: Leaf, rest: string): boolean {
  if (leaf.kind === 'fence') {
    if (indentAt(rest, 0) <= 3 && leaf.fence.test(rest.slice(indentAt(rest, 0)))) s.leaf = null
    return true
  }
  if (leaf.kind === 'html') {
    if (leaf.text !== null) leaf.text += `\n${rest}`
    if (leaf.end ? leaf.end.test(rest) : isBlank(rest)) {
      endHtml(s, leaf, s.htmlStart)
      s.leaf = null
    }
    return true
  }
  if (leaf.kind === 'code') {
    if (isBlank(rest) || indentAt(rest, 0) >= 4) return true
    s.leaf = null
  }
  return false
}

/** 3. New containers: block quotes and list items, nested as deep as the line goes. */
function openContainers(s: BlockState, line: string, at: LineCursor, continued: boolean): void {
  for (;;) {
    const indent = indentAt(line, at.pos)
    if (indent >= 4) break
    if (s.open.length >= MAX_DEPTH) {
      s.tooDeep = true
      break
    }
    const start = at.pos + indent
    const rest = line.slice(start)
    if (rest.startsWith('>')) {
      closeFrom(s, at.matched)
      s.open.push({kind: 'quote'})
      at.matched = s.open.length
      at.pos = start + 1 + (line[start + 1] === ' ' ? 1 : 0)
      at.started = true
      continue
    }
    // An underline turns the paragraph above into a heading; a rule is a leaf too. Neither is a list item.
    if (THEMATIC_BREAK.test(rest) || (continued && s.leaf?.kind === 'paragraph' && SETEXT_UNDERLINE.test(rest))) break
    const item = LIST_ITEM.exec(rest)
    if (!item) break
    const after = rest.slice(item[0].length)
    // A list interrupts a paragraph only with an item that has text and, if numbered, starts at 1.
    const interrupting = !at.started && continued && s.leaf?.kind === 'paragraph'
    if (interrupting && (isBlank(after) || (item[1] !== undefined && Number(item[1]) !== 1))) break
    const spaces = indentAt(after, 0)
    const gap = isBlank(after) || spaces > 4 ? 1 : spaces
    closeFrom(s, at.matched)
    s.open.push({kind: 'item', indent: indent + item[0].length + gap, empty: isBlank(after)})
    at.matched = s.open.length
    at.pos = start + item[0].length + gap
    at.started = true
  }
}

/** 4. The leaf: `rest` is the line without its containers' markers. Ending the text sets s.end to this line or before. */
function readLeaf(s: BlockState, rest: string, n: number, at: LineCursor, continued: boolean): void {
  if (isBlank(rest)) {
    closeFrom(s, at.matched)
    if (s.leaf?.kind === 'paragraph') s.leaf = null
    return
  }
  for (const c of s.open) if (c.kind === 'item') c.empty = false
  const paragraph: Paragraph | null = !at.started && s.leaf?.kind === 'paragraph' ? s.leaf : null
  const indent = indentAt(rest, 0)
  const text = rest.slice(indent)
  if (FOOTNOTE.test(text) || MATH.test(text)) {
    s.end = n
    return
  }
  if (paragraph && indent < 4 && text.includes('|') && TABLE_DELIMITER.test(text)) {
    // The line above is a table's header row.
    s.end = n - 1
    return
  }
  if (paragraph && continued && indent < 4 && SETEXT_UNDERLINE.test(text)) {
    s.leaf = null
    return
  }
  if (paragraph && (indent >= 4 || !interrupts(text))) {
    // A continuation line, or a lazy one: it belongs to the open paragraph, inside containers this line left out.
    paragraph.lines.push({n, text})
    return
  }
  closeFrom(s, at.matched)
  const leaf: Leaf | null = indent >= 4 ? {kind: 'code'} : startLeaf(text, paragraph !== null, s.open.length > 0)
  s.leaf = leaf
  if (leaf?.kind === 'html') {
    s.htmlStart = n
    if (leaf.end?.test(text)) {
      endHtml(s, leaf, n)
      s.leaf = null
    }
    return
  }
  if (leaf?.kind !== 'paragraph') return
  leaf.quoted = s.open.some(c => c.kind === 'quote')
  s.paragraphs.push(leaf)
  leaf.lines.push({n, text})
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

/**
 * An ATX heading line's level and text (`## Testing ##` gives 2, "Testing"), or undefined for any other line or one
 * with no text. The closing hashes go only after a space, as CommonMark says, so `## C#` stays "C#". Matched in
 * linear time: a line of a megabyte of spaces costs no more than its length.
 */
export function atxHeading(line: string): {level: number; text: string} | undefined {
  // Any space after the marks, a full-width or no-break one too: Chinese files write "##　测试规范".
  const m = /^(#{1,6})[^\S\r\n]+(\S.*)$/u.exec(line.trimEnd())
  if (!m) return undefined
  let text = m[2]
  let end = text.length
  while (end > 0 && text[end - 1] === '#') end--
  if (end === 0) return undefined
  if (end < text.length && /\s/.test(text[end - 1])) text = text.slice(0, end).trimEnd()
  return {level: m[1].length, text}
}
