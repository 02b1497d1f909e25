import type {Card} from '../card/schema.js'
import {type CoreSelection, coreText} from '../core.js'
import {CairnError, validationError} from '../errors.js'

/** The instruction files agents without hooks read (Codex and others, Claude Code, Gemini CLI, GitHub Copilot). */
export const AGENTS_MD_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'] as const
export type AgentsMdFile = (typeof AGENTS_MD_FILES)[number]

export const BLOCK_BEGIN = '<!-- cairn:begin -->'
export const BLOCK_END = '<!-- cairn:end -->'
const IS_BEGIN = /^[ \t]*<!--\s*cairn:begin\b/
const IS_END = /^[ \t]*<!--\s*cairn:end\b/

export type BlockAction = 'created' | 'appended' | 'updated'

export function assertAgentsMdFile(file: string): asserts file is AgentsMdFile {
  if ((AGENTS_MD_FILES as readonly string[]).includes(file)) return
  throw new CairnError(
    'usage',
    `--file ${file} is not a file cairn exports to. Fix: pass one of ${AGENTS_MD_FILES.join(', ')}`,
    {file, allowed: AGENTS_MD_FILES},
  )
}

type CoreCard = Pick<Card, 'id' | 'title' | 'summary' | 'body'>

/**
 * The managed block: the core cards' text exactly as session start injects it, between the markers, with a note
 * that cairn owns it. A card line that looks like a marker is defused, so the block always parses back as one block.
 */
export function renderCoreBlock(file: AgentsMdFile, core: CoreSelection<CoreCard>, budget: number): string {
  const defuse = (text: string) =>
    text
      .split('\n')
      .map(line => (IS_BEGIN.test(line) || IS_END.test(line) ? line.replace('<!--', '&lt;!--') : line))
      .join('\n')
  const lines = [
    BLOCK_BEGIN,
    "<!-- Managed by cairn: the project's core cards. Edits inside this block are overwritten; " +
      `regenerate with \`cairn export agents-md --file ${file}\`. -->`,
    '## Project memory (cairn core cards)',
    '',
  ]
  if (core.shown.length === 0 && core.omitted.length === 0) lines.push('No active core cards (`load: core`) yet.', '')
  for (const card of core.shown) lines.push(defuse(coreText(card)))
  if (core.omitted.length) {
    lines.push(
      `${core.omitted.length} more core card(s) left out: over the core budget of ${budget} characters. ` +
        '`cairn maintain` plans which to demote.',
      '',
    )
  }
  lines.push(BLOCK_END)
  return lines.join('\n')
}

/** Where the managed block sits: from the start of the begin line to the end of the end line (before its newline). */
export interface BlockSpan {
  start: number
  end: number
}

/** Finds the one managed block, or null; begin without end, end without begin, or two blocks are refused. */
export function findBlock(text: string, file: string): BlockSpan | null {
  const begins: {line: number; at: number}[] = []
  const ends: {line: number; at: number}[] = []
  let at = 0
  text.split('\n').forEach((line, i) => {
    if (IS_BEGIN.test(line)) begins.push({line: i + 1, at})
    else if (IS_END.test(line)) ends.push({line: i + 1, at: at + line.replace(/\r$/, '').length})
    at += line.length + 1
  })
  if (!begins.length && !ends.length) return null
  const fix =
    `keep exactly one ${BLOCK_BEGIN} line followed by one ${BLOCK_END} line ` +
    '(or delete both and everything between), then run the export again'
  const refuse = (message: string) =>
    validationError(
      [{file, field: '(cairn block)', message, fix}],
      `${file}: the cairn block's markers are broken; nothing was written`,
    )
  if (begins.length > 1) throw refuse(`lines ${begins.map(b => b.line).join(', ')} each begin a cairn block`)
  if (ends.length > 1) throw refuse(`lines ${ends.map(e => e.line).join(', ')} each end a cairn block`)
  if (!ends.length) throw refuse(`line ${begins[0].line} begins a cairn block that never ends`)
  if (!begins.length) throw refuse(`line ${ends[0].line} ends a cairn block that never began`)
  if (ends[0].at < begins[0].at) {
    throw refuse(`line ${ends[0].line} ends the cairn block before line ${begins[0].line} begins it`)
  }
  return {start: begins[0].at, end: ends[0].at}
}

/**
 * The file with the block placed: the old block replaced in place (every byte outside it kept), or the block appended
 * after one blank line, or a new file. The block takes the file's line ending, so a CRLF file stays CRLF.
 */
export function placeBlock(text: string | null, block: string, file: string): {text: string; action: BlockAction} {
  const eol = text?.includes('\r\n') ? '\r\n' : '\n'
  const own = block.split('\n').join(eol)
  if (text === null) return {text: `${own}${eol}`, action: 'created'}
  const span = findBlock(text, file)
  if (span) return {text: text.slice(0, span.start) + own + text.slice(span.end), action: 'updated'}
  const newlines = (/(?:\r?\n)*$/.exec(text)?.[0].match(/\n/g) ?? []).length
  const gap = text === '' || newlines >= 2 ? '' : newlines === 1 ? eol : eol + eol
  return {text: `${text}${gap}${own}${eol}`, action: 'appended'}
}
