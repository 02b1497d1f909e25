import {headingAnchor} from './pipeline.js'
import {firstStatement, type ImportItem, type ImportKind, sections, withoutCairnBlock, words} from './source.js'

const FILES = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md']
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/m
const RULE_WORDS = /\b(always|never|must|should|do not|don't|avoid|prefer|use|run|keep)\b|必须|不要|禁止|应该|总是|优先/i

/** A section is rule-like when it holds a bullet group or says what to do. */
const ruleLike = (body: string): boolean => BULLET.test(body) || RULE_WORDS.test(body)

/** CLAUDE.md, AGENTS.md, GEMINI.md: one guideline per rule-like section (its bullet group or its text). */
export const claudeMd: ImportKind = {
  kind: 'claude-md',
  defaults: FILES,
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path),
  map(file) {
    const seen = new Map<string, number>()
    const items: ImportItem[] = []
    sections(withoutCairnBlock(file.text)).forEach((s, position) => {
      if (!s.heading || !s.body || !ruleLike(s.body)) return
      const anchor = headingAnchor(s.heading, position, seen)
      const ascii = words(s.heading)
      items.push({
        anchor,
        line: s.line,
        slugWords: ascii.length ? ascii : ['section', String(position)],
        fields: {type: 'guideline', title: s.heading, summary: firstStatement(s.body), rule: s.body},
      })
    })
    return items
  },
}
