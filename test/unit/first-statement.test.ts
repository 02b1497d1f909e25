import {describe, expect, it} from 'vitest'
import {firstStatement} from '../../src/domain/import/statement.js'

describe('firstStatement: the summary an imported rule gets', () => {
  it('states the rule, not what comes before it', () => {
    const cases: [string, string][] = [
      [
        '<!-- Kiro template: describe your product here.\nKeep it short. -->\nShip behind a feature flag.',
        'Ship behind a feature flag.',
      ],
      ['Follow these rules:\n\n- Never log tokens.', 'Never log tokens.'],
      [
        '```ts\n{\n  strict: true\n}\n```\nTurn strict mode on in every package.',
        'Turn strict mode on in every package.',
      ],
      ['tests/\n\nTests live next to the code they test.', 'Tests live next to the code they test.'],
      [
        'bun run db:generate\n\nRegenerate the client after a schema change.',
        'Regenerate the client after a schema change.',
      ],
      ['`pnpm i --frozen-lockfile`\n\nInstall from the lockfile only.', 'Install from the lockfile only.'],
      ['测试要求：\n\n- 测试代码要写在 tests 目录下。', '测试代码要写在 tests 目录下。'],
      // A table alone: its header's cells and its rows' first cells, never a row of pipes.
      ['| type | when |\n|---|---|\n| feat | a new feature |', 'type / when: feat'],
      [
        '| 用户意图 | 对应指令 |\n|---|---|\n| 开发功能 | /dev |\n| 修复 | /fix |\n| 评审 | /review |\n| 发布 | /release |\n| 回滚 | /revert |',
        '用户意图 / 对应指令: 开发功能, 修复, 评审, 发布, …',
      ],
      // A hard-wrapped paragraph is one sentence; "e.g." and "i.e." end none.
      [
        'Chosen option: "ADR number", because\nit is short and stable in URLs.',
        'Chosen option: "ADR number", because it is short and stable in URLs.',
      ],
      [
        'Raise explicit errors for unsupported model features (e.g. audio input), i.e. never drop a part. Then log.',
        'Raise explicit errors for unsupported model features (e.g. audio input), i.e. never drop a part.',
      ],
      // A lead-in in bold, and a thematic break, are not the rule.
      ['**Always run these checks after a change:**\n\n- `npm test` passes.', '`npm test` passes.'],
      ['---\n\nKeep the changelog in step with the code.', 'Keep the changelog in step with the code.'],
      // A list right after a sentence is not part of it.
      ['Follow the style guide.\n- Use tabs.', 'Follow the style guide.'],
    ]
    expect(cases.map(([body]) => firstStatement(body))).toEqual(cases.map(c => c[1]))
  })

  it('falls back to the first line when nothing else is there', () => {
    expect(firstStatement('Setup:')).toBe('Setup:')
    expect(firstStatement('bun run db:generate')).toBe('bun run db:generate')
    // Only code: its first line. Only headings: the first heading's words, without the marks.
    expect(firstStatement('```sh\nmake\n```')).toBe('make')
    expect(firstStatement('# Always prefer MDAA constructs\n# Flag every `!`')).toBe('Always prefer MDAA constructs')
  })

  it('a table of separator rows only falls back to the code or heading, and long lines cost their length', () => {
    expect(firstStatement('| | |\n|---|---|')).toBe('')
    expect(firstStatement('|---|\n\n```sh\nmake\n```')).toBe('make')
    // Before, a regex per stop read the line from its start: 200,000 characters of "e.g. " took about 18 s.
    const long = 'e.g. '.repeat(40_000)
    expect(firstStatement(long)).toHaveLength(200)
  })
})
