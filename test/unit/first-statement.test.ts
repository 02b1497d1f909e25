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
      // A table alone: its header row, as written.
      ['| type | when |\n|---|---|\n| feat | a new feature |', '| type | when |'],
    ]
    expect(cases.map(([body]) => firstStatement(body))).toEqual(cases.map(c => c[1]))
  })

  it('falls back to the first line when nothing else is there', () => {
    expect(firstStatement('Setup:')).toBe('Setup:')
    expect(firstStatement('bun run db:generate')).toBe('bun run db:generate')
    expect(firstStatement('```sh\nmake\n```')).toBe('```sh\nmake\n```')
  })
})
