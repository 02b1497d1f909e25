import {inferType} from './infer-type.js'
import {headingAnchor} from './pipeline.js'
import path from 'node:path'
import {
  type ImportItem,
  type Section,
  type ImportKind,
  pathFields,
  type SourceFile,
  sections,
  withoutCairnBlock,
  slugWords,
  fillWords,
} from './source.js'
import {firstStatement} from './statement.js'

/**
 * What a file says about itself ("This file provides guidance to Claude Code …", 本文件为 …): no rule of the project.
 * A section that says only that is not a card.
 */
const ABOUT_THE_FILE =
  /^(this|the) (file|document|guide)\b.{0,80}\b(provides?|gives?|contains?|describes?|is for|guidance|instructions)\b|^(本|此|该)(文件|文档)/i

const RULE_WORDS =
  /\b(always|never|must|should|do not|don't|avoid|prefer|use|run|keep|make sure|ensure|need to|only|update|follow|write|add)\b|必须|不要|禁止|应该|应当|总是|优先|要|使用|需要|请|统一|务必|不得|不能|不可|只能|一律/i
/** A bullet, a table row or a code fence. */
const STRUCTURED = /^\s*([-*+]\s+\S|\d+[.)]\s+\S|\|.*\||```|~~~)/m

/** Text of its own that is not only about the file itself. */
const ownText = (body: string): boolean => {
  const text = body.trim()
  // Nothing but rules (---) or blank lines: a heading with nothing under it.
  if (!text || !firstStatement(text)) return false
  const paragraphs = text.split(/\n\s*\n/)
  return !(paragraphs.length === 1 && ABOUT_THE_FILE.test(firstStatement(text)))
}

/**
 * Whether a section is a card. A titled section is when it has text of its own (a bullet group, a table, a code block
 * or prose). The text before the first heading, and under the file's own title (its first heading, an H1), is the
 * file's preamble: a card only when it gives rules (a list, a table, code, or instruction words), not when it only
 * introduces the project.
 */
const isRule = (body: string, preamble: boolean): boolean =>
  ownText(body) && (!preamble || STRUCTURED.test(body) || RULE_WORDS.test(body))

/** Why a section with text became no card, for the import's report; undefined when it has no text to lose. */
const leftOutWhy = (body: string, preamble: boolean): string | undefined => {
  if (!firstStatement(body)) return undefined
  if (!ownText(body)) return 'it only says what the file is'
  return preamble ? 'an introduction that gives no rule (no list, table, code or instruction)' : undefined
}

/**
 * A section's title: its heading, and when another section of the file has the same heading (命名规范 under Java and
 * under Python), its parent heading before it ("Java 后端 / 命名规范"), so review and recall tell them apart.
 */
function distinctTitle(all: Section[], position: number): string {
  const s = all[position]
  if (all.filter(x => x.heading === s.heading).length < 2) return s.heading
  const parent = all
    .slice(0, position)
    .reverse()
    .find(x => x.heading && x.level < s.level)
  return parent ? `${parent.heading} / ${s.heading}` : s.heading
}

/** A title for a preamble, which has no heading: its first statement, cut at a word near 80 characters. */
const preambleTitle = (body: string): string => {
  const first = firstStatement(body).replace(/[.。:：]$/, '')
  if ([...first].length <= 80) return first
  const cut = [...first].slice(0, 80).join('')
  return `${cut.replace(/\s+\S*$/, '')}…`
}

/**
 * One card per section of an instructions file with text of its own, typed by its wording, cairn's own block left out. The anchor is
 * built from the heading (headingAnchor), so it survives edits of the text and moves of the section.
 */
export function sectionItems(file: SourceFile, extra: Record<string, unknown> = {}): ImportItem[] {
  const seen = new Map<string, number>()
  const seenBefore = new Map<string, number>()
  const items: ImportItem[] = []
  const all = sections(withoutCairnBlock(file.text))
  const titled = all.findIndex(x => x.heading)
  all.forEach((s, position) => {
    const preamble = !s.heading || (position === titled && s.level === 1)
    if (!isRule(s.body, preamble)) {
      const why = leftOutWhy(s.body, preamble)
      const what = s.heading || preambleTitle(s.body)
      if (why)
        items.push({anchor: `left:${position}`, line: s.line, slugWords: [], fields: {title: what}, leftOut: why})
      return
    }
    const title = s.heading ? distinctTitle(all, position) : preambleTitle(s.body)
    // A heading the file repeats is named by its parent's words too, after its own, as its title is ("Java 后端 /
    // 命名规范" gives mingming, guifan, java).
    const parent = s.heading && title !== s.heading ? title.slice(0, title.lastIndexOf(' / ')) : ''
    const named = [...slugWords(s.heading), ...slugWords(parent)]
    const anchor = s.heading ? headingAnchor(s.heading, position, seen) : 'preamble'
    const former = s.heading ? headingAnchor(s.heading, position, seenBefore, true) : anchor
    items.push({
      anchor,
      ...(former === anchor ? {} : {formerAnchor: former}),
      line: s.line,
      slugWords: named.length ? named : s.heading ? ['section', String(position)] : [],
      slugFill: fillWords('', s.body),
      fields: {
        type: inferType(title, s.body),
        title,
        summary: firstStatement(s.body),
        rule: s.body,
        ...extra,
      },
    })
  })
  return items
}

/**
 * CLAUDE.md, AGENTS.md, GEMINI.md: one guideline per rule-like section (its bullet group, table, code or text); a file
 * in a folder is scoped to that folder.
 */
export const claudeMd: ImportKind = {
  kind: 'claude-md',
  defaults: ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'],
  nested: ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'],
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path),
  // A nested file (tests/AGENTS.md) speaks for its folder, as the agents that read it apply it there.
  map: file => {
    const dir = path.posix.dirname(file.path)
    // .claude/CLAUDE.md is Claude Code's project memory, as the root CLAUDE.md is.
    return sectionItems(file, dir === '.' || dir === '.claude' ? {} : pathFields([`${dir}/**`]))
  },
}
