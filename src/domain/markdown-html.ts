/**
 * Raw HTML as CommonMark reads it (spec 0.31: HTML blocks, 4.6, and raw HTML, 6.6): where an HTML block
 * starts and what ends it, and where an inline HTML construct that starts at a `<` ends. The block tags
 * are those of spec 0.31 and of GitHub's older one (0.29, cmark-gfm) together. GitHub's spec reads a few
 * comments and declarations as text that this reads as HTML; the caller takes HTML to end what it reads,
 * so reading more of it as HTML errs on the safe side.
 */

const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|' +
  'menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|source|summary|table|tbody|td|tfoot|th|' +
  'thead|title|tr|track|ul'

const TAG_NAME = '[A-Za-z][A-Za-z0-9-]*'
const ATTRIBUTE = `(?:\\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\\s*=\\s*(?:[^\\s"'=<>\`]+|'[^']*'|"[^"]*"))?)`
const TAG = `<${TAG_NAME}${ATTRIBUTE}*\\s*/?>|</${TAG_NAME}\\s*>`
const TAG_AT = new RegExp(TAG, 'y')

/** The starts of HTML blocks 1 to 6 and what ends each: a line holding the end marker, or (null) a blank line. */
const BLOCK_STARTS: {start: RegExp; end: RegExp | null; comment?: true}[] = [
  {start: /^<(?:pre|script|style|textarea)(?:\s|>|$)/i, end: /<\/(?:pre|script|style|textarea)>/i},
  {start: /^<!--/, end: /-->/, comment: true},
  {start: /^<\?/, end: /\?>/},
  {start: /^<![A-Za-z]/, end: />/},
  {start: /^<!\[CDATA\[/, end: /\]\]>/},
  {start: new RegExp(`^</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, 'i'), end: null},
]
/** Block 7: a line that is one whole tag; it cannot interrupt a paragraph. */
const WHOLE_TAG = new RegExp(`^(?:${TAG})\\s*$`)

/** The HTML block a line (indentation removed) starts, if any; `comment` for a comment's. */
export function htmlBlockStart(text: string, afterParagraph: boolean): {end: RegExp | null; comment: boolean} | null {
  const found = BLOCK_STARTS.find(b => b.start.test(text))
  if (found) return {end: found.end, comment: found.comment ?? false}
  return !afterParagraph && WHOLE_TAG.test(text) ? {end: null, comment: false} : null
}

export type Finder = (marker: string, from: number) => number

/**
 * indexOf over one text that remembers its last answer for each marker: a scan that moves forward asks
 * again from each `<`, and must not search the same stretch again each time (a comment of many unclosed
 * `<!--` would take quadratic time).
 */
export function markerFinder(text: string): Finder {
  const last = new Map<string, {from: number; at: number}>()
  return (marker, from) => {
    const memo = last.get(marker)
    if (memo && from >= memo.from && (memo.at === -1 || from <= memo.at)) return memo.at
    const at = text.indexOf(marker, from)
    last.set(marker, {from, at})
    return at
  }
}

const past = (at: number, marker: string): number => (at === -1 ? -1 : at + marker.length)

/** Where the raw HTML (a tag, comment, processing instruction, declaration or CDATA) at text[i] ends; -1 if none. */
export function inlineHtmlEnd(text: string, i: number, find: Finder): number {
  const at = (s: string) => text.startsWith(s, i)
  if (at('<!-->')) return i + 5
  if (at('<!--->')) return i + 6
  if (at('<!--')) return past(find('-->', i + 4), '-->')
  if (at('<?')) return past(find('?>', i + 2), '?>')
  if (at('<![CDATA[')) return past(find(']]>', i + 9), ']]>')
  if (/^<![A-Za-z]/.test(text.slice(i, i + 3))) return past(find('>', i + 2), '>')
  TAG_AT.lastIndex = i
  const tag = TAG_AT.exec(text)
  return tag ? i + tag[0].length : -1
}
