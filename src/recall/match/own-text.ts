import {OWN_TEXT} from '../../domain/messages/hooks.js'
import {STORE_LANGUAGES} from '../../domain/messages/language.js'

/**
 * What cairn itself put in front of the agent, found in a prompt and taken out before matching: a client that echoes
 * hook context into the next prompt must not make cairn recall cards from its own words (DESIGN: never match cairn's
 * own text). Each block is a head line cairn writes, then its entries: lines starting with "- " or indented, at the
 * head's own indentation, as the hooks render them. A block ends at the first other line. The heads are those of every
 * language cairn speaks (domain/messages/hooks.ts OWN_TEXT), whatever the store's: a prompt may hold an echo of any.
 */
const OWN = STORE_LANGUAGES.map(language => OWN_TEXT[language])
const HEADS = OWN.flatMap(t => t.heads)
/**
 * Blocks whose lines are free text (a board brief, a rule quoted whole), each a part of its own: they run to the
 * blank line the hooks put between parts (agents/fit.ts), or to the end: session-start's board brief and its
 * over-budget notice.
 */
const PARAGRAPHS = OWN.flatMap(t => t.paragraphs)
/** The last lines of a denied write, and of a write denied for its path cards, without their last stop. */
const DENIAL_TAILS = OWN.map(t => t.denialTail.slice(0, -1))
const PATH_CARDS_TAILS = OWN.map(t => t.pathCardsTail.slice(0, -1))
const CORE_HEADS = new Set(OWN.map(t => t.coreHead))
/** Lines of a block that are neither entries nor indented: the stop reason's last line, the catalog's categories. */
const TAILS = OWN.flatMap(t => t.tails)

/** The English last lines of a denied write and of a write denied for its path cards (HOOK_TEXT has each language's). */
export const DENIAL_TAIL = OWN_TEXT.en.denialTail
export const PATH_CARDS_TAIL = OWN_TEXT.en.pathCardsTail

/**
 * A client's wrapper around the context it echoes into the prompt (Gemini CLI's `<hook_context>`, its brackets
 * written as they are or as entities): none of it is the user's words. One cut off before its end is taken out to
 * the end only where the client puts it, at the start.
 */
const OPEN = /(?:<|&lt;)hook_context(?:>|&gt;)/g
const CLOSE = /(?:<|&lt;)\/hook_context(?:>|&gt;)/g
const CUT_OFF = /^\s*(?:<|&lt;)hook_context(?:>|&gt;)/

/**
 * The prompt without its wrapped blocks, each replaced by a line break. One pass, each search starting where the last
 * ended: a prompt of many opening tags and no closing one costs its length, never its length squared.
 */
function withoutWrapped(prompt: string): string {
  const out: string[] = []
  let at = 0
  for (;;) {
    OPEN.lastIndex = at
    const open = OPEN.exec(prompt)
    if (!open) break
    CLOSE.lastIndex = open.index + open[0].length
    const close = CLOSE.exec(prompt)
    // No closing tag after this one: none after any later one either.
    if (!close) break
    out.push(prompt.slice(at, open.index), '\n')
    at = close.index + close[0].length
  }
  out.push(prompt.slice(at))
  const rest = out.join('')
  return CUT_OFF.test(rest) ? '' : rest
}

/** The prompt without the blocks cairn injected, each replaced by a line break (words on either side stay apart). */
export function withoutOwnText(prompt: string): string {
  if (!prompt.includes('cairn') && !prompt.includes('hook_context')) return prompt
  const lines = withoutWrapped(prompt).split(/\r?\n/)
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const indent = /^[ \t]*/.exec(lines[i])![0]
    const line = lines[i].slice(indent.length)
    if (HEADS.some(head => head(line))) {
      while (i + 1 < lines.length && inBlock(lines[i + 1], indent)) i++
    } else if (OWN.some(t => t.denial.test(line))) {
      // A rule may hold blank lines: the denial runs to its last line, or, cut off, to the next blank line.
      // Codex shows it without its last period, and adds ". Command: …".
      const tail = lines.findIndex((l, j) => j > i && DENIAL_TAILS.some(t => l.trim().startsWith(t)))
      if (tail > i) i = tail
      else while (i + 1 < lines.length && lines[i + 1].trim()) i++
    } else if (PARAGRAPHS.some(head => head(line))) {
      while (i + 1 < lines.length && lines[i + 1].trim()) i++
    } else if (PATH_CARDS_TAILS.some(t => line.startsWith(t))) {
      // Codex shows it without its last period, and adds ". Command: …".
      continue
    } else if (CORE_HEADS.has(line)) {
      // The core cards: a blank line, then one "### Title (id)" section per card (domain/core.ts coreText).
      i = afterCore(lines, i + 1)
    } else {
      out.push(lines[i])
      continue
    }
    out.push('')
  }
  return out.join('\n')
}

/** The last line of the core cards' block that starts after its head: blank lines, and each card's section. */
function afterCore(lines: readonly string[], from: number): number {
  let last = from - 1
  for (let i = from; i < lines.length; i++) {
    if (!lines[i].trim()) continue
    if (!lines[i].startsWith('### ')) break
    let j = i
    while (j + 1 < lines.length && lines[j + 1].trim()) j++
    i = last = j
  }
  return last
}

function inBlock(line: string, indent: string): boolean {
  if (!line.startsWith(indent)) return false
  const rest = line.slice(indent.length)
  return rest.startsWith('- ') || /^[ \t]+\S/.test(rest) || TAILS.some(t => t.test(rest))
}
