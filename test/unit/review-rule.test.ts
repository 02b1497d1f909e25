import {describe, expect, it} from 'vitest'
import {renderComment} from '../../src/domain/ci/comment.js'
import {buildCard, parseProposals} from '../../src/domain/propose.js'
import {renderEntry, reviewEntries, RULE_LINE_CHARS, RULE_LINES} from '../../src/domain/review.js'

/** The rule in the review: each card's Rule section, its first lines, as text and as markdown. */

const card = buildCard(
  parseProposals(
    {
      slug: 'deepmerge-array-replace-trap',
      type: 'pitfall',
      title: 'deepMerge replaces arrays',
      summary: 'When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
      source_sessions: ['session-1'],
    },
    'in.json',
  )[0],
  {now: '2026-11-29T10:00:00Z', projectKey: 'github.com/acme/widgets', defaultLanguage: 'en', maxRecentPaths: 20},
)
const PATH = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const entry = (rule: string | null, language: 'en' | 'zh-CN' = 'en') =>
  reviewEntries([{card, layer: 'team', path: PATH, rule}], language)[0]
const numbered = (n: number) => Array.from({length: n}, (_, i) => `${i + 1}. step ${i + 1}`)

describe('the rule in the review', () => {
  it('a one-line rule sits on the Rule line; one that repeats the summary says so; none shows nothing', () => {
    expect(renderEntry(entry('Append, then dedupe by id.'), 'en', 'text').split('\n').slice(2, 5)).toEqual([
      'Summary: When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
      'Rule: Append, then dedupe by id.',
      'Scope: project github.com/acme/widgets',
    ])
    expect(renderEntry(entry('Append, then dedupe by id.'), 'en', 'markdown')).toContain(
      '\nRule: `Append, then dedupe by id.`\n',
    )
    expect(renderEntry(entry(`  ${card.summary}\n`), 'en', 'text')).toContain('\nRule: the same as the summary.\n')
    expect(renderEntry(entry(null), 'en', 'text')).not.toContain('Rule')
    expect(entry('  \n').rule).toBeNull()
  })

  it(`a long rule shows its first ${RULE_LINES} lines, each cut at ${RULE_LINE_CHARS} characters, and how many are left`, () => {
    const long = 'x'.repeat(RULE_LINE_CHARS + 50)
    const rule = ['Merge hook arrays by hand:', long, ...numbered(13)].join('\n')
    const e = entry(rule)
    expect(e.rule).toBe(rule)
    const text = renderEntry(e, 'en', 'text')
    expect(text).toContain(
      [
        '\nRule:',
        '  Merge hook arrays by hand:',
        `  ${'x'.repeat(RULE_LINE_CHARS - 1)}…`,
        ...numbered(10).map(l => `  ${l}`),
        '… 3 more lines; "cairn show deepmerge-array-replace-trap --section rule" prints the whole rule.',
        'Scope:',
      ].join('\n'),
    )
    const zh = renderEntry(entry(rule, 'zh-CN'), 'zh-CN', 'text')
    expect(zh).toContain('\n规则：\n  Merge hook arrays by hand:\n')
    expect(zh).toContain('\n……另有 3 行；cairn show deepmerge-array-replace-trap --section rule 显示完整规则。\n')
    expect(renderEntry(entry(numbered(RULE_LINES).join('\n')), 'en', 'text')).not.toContain('more line')
  })

  it('a one-line rule cut at the line length points to the whole rule', () => {
    const text = renderEntry(entry('y'.repeat(RULE_LINE_CHARS + 1)), 'en', 'text')
    expect(text).toContain(
      `\nRule: ${'y'.repeat(RULE_LINE_CHARS - 1)}…\n` +
        '… "cairn show deepmerge-array-replace-trap --section rule" prints the whole rule.\nScope:',
    )
  })

  it('in markdown the rule is a code block no card text can close, blank lines and headings kept as text', () => {
    const rule = [
      '# Not a heading',
      '',
      'Ping @octocat, see <img src=x> [here](https://evil.example)',
      '```',
      'x',
    ].join('\n')
    const md = renderEntry(entry(rule), 'en', 'markdown')
    expect(md).toContain(`\nRule:\n\`\`\`\`text\n${rule}\n\`\`\`\`\nScope:`)
    // The pull-request comment keeps the block whole: its heading line is not demoted, the card's own line is.
    const comment = renderComment({language: 'en', problems: [], entries: [entry(rule)]})
    expect(comment).toContain(`\nRule:\n\`\`\`\`text\n${rule}\n\`\`\`\`\n`)
    expect(comment).toContain('\n#### C1 [type=pitfall]')
    expect(comment).toContain('\nTo approve this card, comment: `/cairn approve deepmerge-array-replace-trap`\n')
  })
})
