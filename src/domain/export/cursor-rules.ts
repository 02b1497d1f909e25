import YAML from '../vendor/yaml.js'
import {getRule} from '../card/sections.js'
import type {Card} from '../card/schema.js'

export const CURSOR_RULES_DIR = '.cursor/rules'
/** Every rule file cairn writes starts its body with this comment; a cairn-*.mdc file without it is the user's. */
export const CURSOR_RULE_MARK = '<!-- cairn:managed'
const RULE_FILE = /^cairn-(.+)\.mdc$/

export const cursorRuleName = (id: string): string => `cairn-${id}.mdc`
export const isCursorRuleName = (name: string): boolean => RULE_FILE.test(name)
/** Whether cairn wrote this text: the mark opens the line right after the frontmatter. */
export const isCairnRule = (text: string): boolean => /^---\r?\n[\s\S]*?\r?\n---\r?\n<!-- cairn:managed/.test(text)

/** Expands `{a,b}` alternatives, so that no glob holds the comma Cursor splits `globs` on. */
export function expandBraces(glob: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(glob)
  if (!m) return [glob]
  const head = glob.slice(0, m.index)
  const tail = glob.slice(m.index + m[0].length)
  return m[1].split(',').flatMap(alt => expandBraces(`${head}${alt}${tail}`))
}

/** A YAML scalar on one line: plain when YAML reads it back unchanged, else double-quoted. */
function scalar(text: string): string {
  return YAML.stringify(text.replace(/\s+/g, ' ').trim(), {lineWidth: 0}).trimEnd()
}

type RuleCard = Pick<Card, 'id' | 'title' | 'summary' | 'body' | 'scope'>

/**
 * A Cursor project rule for one narrow card (Cursor's format: https://www.cursor.com/docs/rules). It is attached
 * when a matching file is in context (`globs`, `alwaysApply: false`), and described by the card's summary.
 * `globs` is one unquoted comma-joined line, the only form Cursor documents: Cursor keeps quotes as part of the
 * pattern (sanity-io/agent-toolkit#15) and lists are not documented (microsoft/apm#3002).
 */
export function renderCursorRule(card: RuleCard): string {
  const globs = [...new Set(card.scope.paths.flatMap(expandBraces))]
  return [
    '---',
    `description: ${scalar(card.summary)}`,
    `globs: ${globs.join(', ')}`,
    'alwaysApply: false',
    '---',
    `${CURSOR_RULE_MARK} card=${card.id}: written by \`cairn export cursor-rules\`, which rewrites or removes it. -->`,
    `# ${card.title}`,
    '',
    getRule(card.body) ?? card.summary,
    '',
    `The whole card: \`cairn show ${card.id}\`.`,
    '',
  ].join('\n')
}
