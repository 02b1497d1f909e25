import {describe, expect, it} from 'vitest'
import {displayWidth, terminalColumns, wrap} from '../../src/cli/width.js'

describe('wrap folds text to a terminal width', () => {
  it('breaks at spaces; lines that fit are left alone; no line passes the width', () => {
    const line =
      'Layer reasoning: team — the default: the card was proposed into the project store, where this review ' +
      'catches a wrong choice.'
    expect(wrap(line, 40).split('\n')).toEqual([
      'Layer reasoning: team — the default: the',
      'card was proposed into the project',
      'store, where this review catches a wrong',
      'choice.',
    ])
    expect(wrap(`short\n${line}\nshort too`, 200)).toBe(`short\n${line}\nshort too`)
    for (const width of [20, 33, 60])
      for (const l of wrap(line, width).split('\n')) expect(l.length).toBeLessThanOrEqual(width)
  })

  it('keeps an indented line in its column, hangs a list item under its text, cuts a word wider than a line', () => {
    expect(wrap('  Append hook arrays, then dedupe them by command.', 24)).toBe(
      '  Append hook arrays,\n  then dedupe them by\n  command.',
    )
    expect(wrap('- src/app/a.ts: invalid YAML at line 6, column 8', 24)).toBe(
      '- src/app/a.ts: invalid\n  YAML at line 6, column\n  8',
    )
    expect(wrap(`x ${'a'.repeat(30)}`, 12)).toBe(`x\n${'a'.repeat(12)}\n${'a'.repeat(12)}\n${'a'.repeat(6)}`)
  })

  it('counts CJK characters as two columns and breaks between them', () => {
    const zh = 'layer 判定：team — 默认选择：卡片提交在项目仓库中，判断有误时本次评审即可发现。'
    const lines = wrap(zh, 30).split('\n')
    expect(lines.length).toBeGreaterThan(2)
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(30)
    expect(lines.join('').replace(/ /g, '')).toBe(zh.replace(/ /g, ''))
  })

  it('takes the terminal width, and off a terminal $COLUMNS or else 100', () => {
    const columns = process.env.COLUMNS
    try {
      delete process.env.COLUMNS
      expect(terminalColumns({isTTY: true, columns: 132})).toBe(132)
      expect(terminalColumns({isTTY: true, columns: 8})).toBe(20)
      expect(terminalColumns({isTTY: false, columns: 132})).toBe(100)
      expect(terminalColumns({})).toBe(100)
      process.env.COLUMNS = '72'
      expect(terminalColumns({})).toBe(72)
      expect(terminalColumns({isTTY: true, columns: 132})).toBe(132)
    } finally {
      if (columns === undefined) delete process.env.COLUMNS
      else process.env.COLUMNS = columns
    }
  })
})
