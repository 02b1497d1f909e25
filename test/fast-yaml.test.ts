import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import {describe, expect, it} from 'vitest'
import {splitFrontmatter} from '../src/domain/frontmatter.js'
import {parseCanonicalYaml} from '../src/domain/card/fast-yaml.js'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {DEFAULT_CONFIG_YAML} from '../src/domain/config.js'
import {prng, ROOT} from './helpers.js'

/**
 * The fast frontmatter reader must give exactly what the YAML library gives, or nothing. Checked on cairn's own
 * rendering of random cards full of YAML's special characters (where it must always answer), on every card file
 * in the repository, and on hand-written layouts it must leave to the library.
 */

/** Characters and words YAML treats specially somewhere, mixed with plain text in both languages. */
const PIECES = [
  'a',
  'z',
  ' ',
  ': ',
  ':',
  '#',
  ' #',
  '-',
  '- ',
  '?',
  ',',
  '[',
  ']',
  '{',
  '}',
  '&',
  '*',
  '!',
  '|',
  '>',
  "'",
  '"',
  '%',
  '@',
  '`',
  '\\',
  '~',
  'null',
  'true',
  'False',
  '123',
  '1.5',
  '0x1F',
  '.inf',
  'yes',
  '中文',
  '：',
  '冒号',
  'é',
  '😀',
  '2026-01-01',
  'npm ci',
  'git push --force',
  '<<',
  '=',
  '\u00a0',
  '\u2028',
]

function text(rand: () => number, max: number): string {
  const t = Array.from({length: 1 + Math.floor(rand() * max)}, () => PIECES[Math.floor(rand() * PIECES.length)]).join(
    '',
  )
  return t.trim() ? t : `${t}a`
}

const yamlOf = (card: string) => (splitFrontmatter(card, 'x.md') as {yaml: string}).yaml

describe('the fast frontmatter reader', () => {
  it('reads every card cairn renders, special characters and all, exactly as the YAML library does', () => {
    const rand = prng(7)
    for (let n = 0; n < 1000; n++) {
      const list = (k: number) => Array.from({length: Math.floor(rand() * k)}, () => text(rand, 6))
      const fm = validateFrontmatter({
        schema: 'cairn/card@1',
        id: `fast-yaml-reader-card-${n}`,
        type: 'pitfall',
        status: 'active',
        title: text(rand, 8),
        summary: text(rand, 20),
        category: text(rand, 3),
        created: '2026-10-01T00:00:00Z',
        updated: '2026-11-01T00:00:00Z',
        approved: {by: text(rand, 2), at: '2026-10-02T00:00:00Z'},
        criteria: {use_when: list(4), ignore_when: list(12)},
        recall: {policy: 'must', risk: 'high', triggers: list(6), aliases: {en: list(3), zh: list(3)}},
        scope:
          rand() < 0.3 ? {level: 'project', project_key: 'github.com/a/b', paths: ['src/**/*.ts', 'docs/a b.md']} : {},
        provenance: {source_sessions: list(2), proposed_reason: rand() < 0.5 ? null : text(rand, 10)},
      })
      const yaml = yamlOf(renderCard({...fm, body: '\n## Rule\n\nx\n'}))
      const fast = parseCanonicalYaml(yaml)
      expect(fast, yaml).toEqual(YAML.parse(yaml))
    }
  })

  it('agrees with the library on every card file in the repository, or leaves it to the library', () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
        if (['node_modules', '.git', 'dist'].includes(e.name)) continue
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (e.name.endsWith('.md')) files.push(p)
      }
    }
    walk(ROOT)
    let read = 0
    for (const file of files) {
      const parts = splitFrontmatter(fs.readFileSync(file, 'utf8'), file)
      if (!parts) continue
      const fast = parseCanonicalYaml(parts.yaml)
      if (fast === undefined) continue
      read++
      expect(fast, file).toEqual(YAML.parse(parts.yaml))
    }
    expect(read).toBeGreaterThan(0)
  })

  it('leaves to the library what it does not read, and agrees where it does', () => {
    const cases: [string, boolean][] = [
      ['a: 1\n', false],
      ['a: -1\n', false],
      ['a: 1e3\n', false],
      ['a: .NaN\n', false],
      ['# comment\na: b\n', false],
      ['a: b # comment\n', false],
      ['a: |-\n  x\n  y\n', false],
      ['a: >\n  x\n', false],
      ['a: &x b\nc: *x\n', false],
      ['a: !tag b\n', false],
      ['a: b\na: c\n', false],
      ['a:\n- x\n', false],
      ['a: word\n  continued\n', false],
      ['a:\n\tb: c\n', false],
      ['a: [x, [y]]\n', true],
      ['a: [x,y]\n', false],
      ['a: {b: c, d: [e, "f: g"]}\n', true],
      ['a: {"b": c}\n', false],
      ['a: "\\x41\\u00e9\\U0001F600\\N\\_"\n', true],
      ['a: "\\q"\n', false],
      ["a: 'it''s'\n", true],
      ['a: b:c\nd: e, f\ng: ~\nh: TRUE\ni: yes\nj:\n', true],
      ['a:\n  b:\n    c: d\n  e:\n    - f\n    - "g"\n', true],
      ['a:\n  b: c\n e: f\n', false],
      ['__proto__: x\n', false],
      // The library reads these keys as "" and "true", so two spellings of one key would clash there.
      ['null: 1\n', false],
      ['Null: 1\n', false],
      ['True: 1\n', false],
      ['a: {false: b}\n', false],
      ['a: {~: b}\n', false],
      ['', false],
      ['\n', false],
    ]
    for (const [yaml, mine] of cases) {
      const fast = parseCanonicalYaml(yaml)
      expect([yaml, fast !== undefined]).toEqual([yaml, mine])
      if (mine) expect(fast, yaml).toEqual(YAML.parse(yaml))
    }
  })

  it('in settings mode reads the config cairn writes, comments and integers, exactly as the YAML library does', () => {
    expect(parseCanonicalYaml(DEFAULT_CONFIG_YAML)).toBeUndefined()
    const fast = parseCanonicalYaml(DEFAULT_CONFIG_YAML, true)
    expect(fast).toEqual(YAML.parse(DEFAULT_CONFIG_YAML))
    expect((fast as {board: {weight_shares: unknown}}).board.weight_shares).toEqual({1: 3, 2: 6, 3: 12, 4: 20, 5: 30})
    const cases: [string, boolean][] = [
      ['# comment\na: b\n', true],
      ['a:\n  # comment\n\n  b: 8000\n   # deeper\n  c: 0\n', true],
      ['a:\n  5: 30\n  1: 3\n', true],
      ['a:\n  - 1\n  - x\n', true],
      ['a: 1 # comment\n', false],
      ['a: 0123\n', false],
      ['a: -1\n', false],
      ['a: +1\n', false],
      ['a: 1.5\n', false],
      ['a: 1234567890123456\n', false],
      ['a: [1, 2]\n', false],
      ['01: a\n', false],
      ['1: a\n"1": b\n', false],
      ['a: |\n  # not a comment\n', false],
      ['a: "x\n# not a comment\n  y"\n', false],
      ['a: word\n# comment\n  continued\n', false],
      ['# only a comment\n', false],
    ]
    for (const [yaml, mine] of cases) {
      const got = parseCanonicalYaml(yaml, true)
      expect([yaml, got !== undefined]).toEqual([yaml, mine])
      if (mine) expect(got, yaml).toEqual(YAML.parse(yaml))
    }
  })
})
