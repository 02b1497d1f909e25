import {inferType} from './infer-type.js'
import {headingAnchor} from './pipeline.js'
import path from 'node:path'
import {
  type ImportItem,
  type ImportKind,
  pathFields,
  type SourceFile,
  sections,
  withoutCairnBlock,
  words,
} from './source.js'
import {BULLET, firstStatement} from './statement.js'

const RULE_WORDS =
  /\b(always|never|must|should|do not|don't|avoid|prefer|use|run|keep|make sure|ensure|need to|only|update|follow|write|add)\b|必须|不要|禁止|应该|应当|总是|优先|要|使用|需要|请|统一|务必|不得|不能|不可|只能|一律/i
/** A table row, or a code fence: a section that is only a table or a code block is a rule given whole. */
const TABLE_OR_CODE = /^\s*(\|.*\||```|~~~)/m

/** A section is rule-like when it holds a bullet group, a table or a code block, or says what to do. */
const ruleLike = (body: string): boolean => BULLET.test(body) || RULE_WORDS.test(body) || TABLE_OR_CODE.test(body)

/**
 * One card per rule-like section of an instructions file, typed by its wording, cairn's own block left out. The anchor is the
 * heading's words, or its position when it has none (a Chinese heading), so it survives edits of the text.
 */
export function sectionItems(file: SourceFile, extra: Record<string, unknown> = {}): ImportItem[] {
  const seen = new Map<string, number>()
  const items: ImportItem[] = []
  sections(withoutCairnBlock(file.text)).forEach((s, position) => {
    if (!s.heading || !s.body || !ruleLike(s.body)) return
    const ascii = words(s.heading)
    items.push({
      anchor: headingAnchor(s.heading, position, seen),
      line: s.line,
      slugWords: ascii.length ? ascii : ['section', String(position)],
      fields: {
        type: inferType(s.heading, s.body),
        title: s.heading,
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
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path),
  // A nested file (tests/AGENTS.md) speaks for its folder, as the agents that read it apply it there.
  map: file => {
    const dir = path.posix.dirname(file.path)
    return sectionItems(file, dir === '.' ? {} : pathFields([`${dir}/**`]))
  },
}
