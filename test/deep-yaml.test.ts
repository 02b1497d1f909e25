import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import {describe, expect, it} from 'vitest'
import {boardState} from '../src/app/board/read.js'
import {ciReview} from '../src/app/ci-review.js'
import {doctor} from '../src/app/doctor.js'
import {lint} from '../src/app/lint.js'
import {list} from '../src/app/list.js'
import {maintain} from '../src/app/maintain.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {parseCanonicalYaml} from '../src/domain/card/fast-yaml.js'
import {MAX_DEPTH, tooDeepAt} from '../src/domain/depth.js'
import {parseYaml} from '../src/domain/yaml.js'
import {card, cli, prng, refusal, type Repo, snapshot} from './helpers.js'
import {recordFiles, T, us03Repo} from './board/helpers.js'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'

/**
 * Issue 27, item 6: YAML nested deeper than any reader on the path can take (the fast card reader, the
 * library, zod, rendering) is a validation error for that one file, naming it, the field and the fix; every
 * command treats it as any other malformed file. 60,000 levels of "[" fit in 120 KB, under the card size cap.
 */

const LEVELS = 60_000
const DEEP = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`
const FIX = 'flatten it: a value is text or a short list or map, and no cairn file needs more than a few levels'
const tooDeep = (file: string, field: string, line: number) =>
  `Invalid YAML in ${file}:\n  - ${file}: ${field}: nests more than 64 levels deep at line ${line}. Fix: ${FIX}.`

describe('the YAML reader and nesting depth', () => {
  it('60,000 levels, nested any way, are a validation error naming the file, the top field, the line and the fix', async () => {
    const open = '['.repeat(2 * LEVELS)
    const cases: [source: string, field: string, line: number][] = [
      [`title: x\nkeywords: ${DEEP}`, 'keywords', 3],
      [`a: 1\nb: ${'{a: '.repeat(LEVELS / 2)}1${'}'.repeat(LEVELS / 2)}`, 'b', 3],
      [`a: 1\nlist:\n${'- '.repeat(LEVELS)}x`, 'list', 4],
      [`k: ${open}`, 'k', 2],
      ['"quoted key": ' + open, 'quoted key', 2],
      [DEEP, '[0]', 2],
      [`- a\n- ${open}`, '[1]', 3],
      [`[a, b, ${open}`, '[2]', 2],
      [`{a: 1, b: ${open}`, 'b', 2],
    ]
    for (const [source, field, line] of cases) {
      // Refused more than once in one process: a stack overflow, once caught, can kill the next parse outright.
      for (let i = 0; i < 3; i++) {
        const e = await refusal(() => parseYaml(source, 'x.yaml', 1))
        expect([e.code, e.exitCode, e.message]).toEqual(['validation', 6, tooDeep('x.yaml', field, line)])
      }
    }
  })

  it(`${MAX_DEPTH} levels read as the library reads them, fast card reader too; one more is refused`, async () => {
    const flow = (depth: number) => `keywords: ${'['.repeat(depth - 1)}x${']'.repeat(depth - 1)}\n`
    const block = (depth: number) =>
      Array.from({length: depth}, (_, i) => `${'  '.repeat(i)}k${i}:${i === depth - 1 ? ' x' : ''}`).join('\n')
    for (const make of [flow, block]) {
      const fits = make(MAX_DEPTH)
      expect(parseYaml(fits, 'x.yaml')).toEqual(YAML.parse(fits))
      expect(parseCanonicalYaml(fits)).toEqual(YAML.parse(fits))
      const over = make(MAX_DEPTH + 1)
      expect(parseCanonicalYaml(over)).toBeUndefined()
      const field = make === flow ? 'keywords' : 'k0'
      const line = make === flow ? 1 : MAX_DEPTH + 1
      expect((await refusal(() => parseYaml(over, 'x.yaml'))).message).toBe(tooDeep('x.yaml', field, line))
    }
  })

  it('a parsed JSON value: the path to the first level past the limit, its repeated list indexes left out', () => {
    const nest = (depth: number): unknown => (depth === 1 ? [] : [nest(depth - 1)])
    expect(tooDeepAt({cards: [{keywords: nest(MAX_DEPTH - 3)}]})).toBeNull()
    expect(tooDeepAt({cards: [{keywords: nest(MAX_DEPTH - 2)}]})).toBe('cards[0].keywords')
    expect(tooDeepAt(JSON.parse(`{"a": 1, "b": [{"c": ${DEEP}}]}`))).toBe('b[0].c')
    expect(tooDeepAt(JSON.parse(DEEP))).toBe('[0]')
    expect(tooDeepAt(JSON.parse(`${'{"a":'.repeat(LEVELS / 2)}1${'}'.repeat(LEVELS / 2)}`))).toBe(
      Array(MAX_DEPTH).fill('a').join('.'),
    )
    expect(tooDeepAt('text')).toBeNull()
  })

  it('gives what YAML.parse gives, and its errors at the same line and column', () => {
    const pieces = [
      'a',
      'b: ',
      ': ',
      '- ',
      '? ',
      '\n',
      '\n  ',
      '\n- ',
      '[',
      ']',
      '{',
      '}',
      ', ',
      '"',
      "'",
      '#',
      ' #',
      '|',
      '>',
      '&x ',
      '*x',
      '---\n',
      '...',
      '%',
      '@',
      '1',
      'null',
      '\t',
      '中文',
    ]
    const rand = prng(27)
    let errors = 0
    for (let n = 0; n < 1000; n++) {
      const pick = () => pieces[Math.floor(rand() * pieces.length)]
      const source = Array.from({length: 1 + Math.floor(rand() * 12)}, pick).join('')
      let expected: unknown
      try {
        expected = {value: YAML.parse(source, {uniqueKeys: true, logLevel: 'error'})}
      } catch (error) {
        const e = error as {message: string; code?: string; linePos?: {line: number; col: number}[]}
        const at = e.linePos ? `line ${e.linePos[0].line + 1}, column ${e.linePos[0].col}` : 'an unknown position'
        const first = e.message
          .split('\n')[0]
          .replace(/ at line \d+, column \d+:?$/, '')
          .replace(/\.$/, '')
          .replace(/^[A-Z](?=[a-z])/, c => c.toLowerCase())
        // An unclosed quote is reported where it opened, which the library does not say.
        expected =
          e.code === 'MISSING_CHAR' && /quote/.test(first)
            ? {error: expect.stringMatching(/^invalid YAML: the quote opened on line \d+, column \d+ is not closed$/)}
            : {error: `invalid YAML at ${at}: ${first}`}
      }
      let actual: unknown
      try {
        actual = {value: parseYaml(source, 'x.yaml', 1)}
      } catch (error) {
        actual = {error: (error as {data: {issues: {message: string}[]}}).data.issues[0].message}
        errors++
      }
      expect(actual, JSON.stringify(source)).toEqual(expected)
    }
    // Both sides of the comparison were exercised.
    expect(errors).toBeGreaterThan(100)
    expect(errors).toBeLessThan(900)
  })
})

const PROMPT = 'the flaky login test failed again'
const hooked = (repo: Repo) => ({session_id: 's', cwd: repo.dir, hook_event_name: 'UserPromptSubmit', prompt: PROMPT})

/** The hook repo with one more card, its keywords nested 60,000 levels deep, committed in cards/ or pending/. */
async function deepCardRepo(location: 'cards' | 'pending'): Promise<{repo: Repo; file: string; base: string}> {
  const repo = await hookRepo()
  const base = repo.git('rev-parse', 'HEAD').trim()
  const planted = plant(repo, 'deeply-nested-keywords-card')
  const text = repo.read(planted)
  fs.rmSync(path.join(repo.dir, planted))
  const file = planted.replace('.cairn/cards/', `.cairn/${location}/`)
  repo.write(file, text.replace('keywords: []', `keywords: ${DEEP}`))
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'a card nested too deep')
  return {repo, file, base}
}

describe('a card nested 60,000 levels deep is reported and skipped, never a crash', () => {
  for (const location of ['cards', 'pending'] as const) {
    it(`in ${location}/: list, lint, doctor (and --fix), maintain, ci review, recall, hooks, index build`, async () => {
      const {repo, file, base} = await deepCardRepo(location)
      const deep = 'nests more than 64 levels deep at line 32'
      const problem = `${file}: keywords: ${deep}. Fix: ${FIX}.`
      const others = ['backup-before-migration', 'flaky-login-test', 'run-tests-before-push']
      const listed = await list(repo.ctx())
      expect([listed.cards.map(c => c.id), listed.unreadable]).toEqual([others, [file]])
      const linted = await lint(repo.ctx())
      expect(linted.problems.filter(p => p.severity === 'error')).toEqual([
        {
          file,
          field: 'keywords',
          rule: 'schema',
          severity: 'error',
          message: deep,
          fix: FIX,
        },
      ])
      const cardsCheck = {
        store: 'project',
        check: 'cards',
        status: 'error',
        detail: `4 card file(s), 1 error(s), 1 warning(s); first: ${file}: keywords: ${deep}`,
        fix: 'run "cairn lint" for the full list',
      }
      expect((await doctor(repo.ctx())).checks.filter(c => c.check === 'cards')).toEqual([cardsCheck])
      // The repair tool repairs what it can (the other cards' triggers) around the card it cannot read.
      const fixed = await doctor(repo.ctx(), {fix: true})
      const derived = /^derived triggers for 2 card\(s\) in the project store \(commit [0-9a-f]{12}\)$/
      expect(fixed.fixed).toEqual([expect.stringMatching(derived)])
      expect(fixed.checks.filter(c => c.check === 'cards')).toEqual([cardsCheck])
      expect((await maintain(repo.ctx())).unreadable).toEqual([file])
      const reviewed = await ciReview(repo.ctx(), {since: base})
      expect([reviewed.check, reviewed.pending]).toEqual([{ok: false, problems: [problem]}, []])
      const ctx = repo.ctx()
      expect((await recall(ctx, {prompt: PROMPT})).cards.map(c => c.id)).toEqual(['flaky-login-test'])
      // Recall and the index read active cards; a pending one is lint's and review's to report.
      const skipped = `${file} cannot be loaded, so recall and the hooks leave it out: keywords: ${deep}. Fix: ${FIX}.`
      expect(ctx.warnings).toEqual(location === 'cards' ? [skipped] : [])
      const prompt = JSON.parse((await feed(repo, 'claude', 'user-prompt-submit', hooked(repo))).stdout)
      expect(prompt.hookSpecificOutput.additionalContext).toContain('(flaky-login-test)')
      const session = {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'}
      const start = JSON.parse((await feed(repo, 'claude', 'session-start', session)).stdout)
      expect(start.hookSpecificOutput.additionalContext).toContain('(run-tests-before-push)')
      await settle(repo)
      expect(errorLog(repo).map(l => l.replace(/^\S+ /, ''))).toEqual(location === 'cards' ? [skipped] : [])
    })
  }

  it('cairn doctor through the CLI: exit 6 with the problem named, no stack trace', async () => {
    const {repo, file} = await deepCardRepo('cards')
    const r = await cli(['doctor'], {cwd: repo.dir, env: repo.env})
    expect([r.code, r.stderr]).toEqual([
      6,
      'cairn: Doctor found problems. Fix: follow the fix under each FAIL line, or run "cairn doctor --fix".\n',
    ])
    expect(r.stdout).toContain(
      `FAIL  project  cards         4 card file(s), 1 error(s), 1 warning(s); first: ${file}: keywords`,
    )
  })
})

describe('other files nested too deep', () => {
  it('config.yaml: doctor names it; a hook prints nothing, exits 0 and logs it', async () => {
    const repo = await hookRepo()
    const config = `${repo.read('.cairn/config.yaml')}extra: ${DEEP}\n`
    const line = config.split('\n').length - 1
    repo.write('.cairn/config.yaml', config)
    const message = tooDeep('.cairn/config.yaml', 'extra', line)
    const checks = (await doctor(repo.ctx())).checks
    expect(checks.find(c => c.check === 'config')).toMatchObject({status: 'error', detail: message})
    expect((await feed(repo, 'claude', 'user-prompt-submit', hooked(repo))).stdout).toBe('')
    const logged = `claude user-prompt-submit: validation: ${message.replace(/\n/g, ' ')}`
    expect(errorLog(repo).map(l => l.replace(/^\S+ /, ''))).toEqual([logged])
  })

  it('signals.yaml: lint names it', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/signals.yaml', `signals:\n  - id: ${DEEP}\n`)
    expect((await lint(repo.ctx())).problems.filter(p => p.severity === 'error')).toEqual([
      {
        file: '.cairn/signals.yaml',
        field: 'signals',
        rule: 'signals-file',
        severity: 'error',
        message: 'nests more than 64 levels deep at line 2',
        fix: FIX,
      },
    ])
  })

  it('a proposal in YAML, Markdown or JSON: refused by field, nothing written', async () => {
    const repo = await hookRepo()
    const fields = 'slug: deepmerge-array-replace-trap\ntype: pitfall\ntitle: t\nsummary: s\nsource_sessions: [a]\n'
    const cases: [input: string, message: string][] = [
      [`${fields}keywords: ${DEEP}\n`, tooDeep('(stdin)', 'keywords', 6)],
      [`---\n${fields}keywords: ${DEEP}\n---\n## Rule\n`, tooDeep('(stdin)', 'keywords', 7)],
      // JSON.parse takes any depth, and the proposal's schema refuses the first level that is not text.
      [
        JSON.stringify(card()).replace(/}$/, `,"keywords":${DEEP}}`),
        'Invalid proposal in (stdin):\n  - (stdin): keywords[0]: must be text (found a list). Fix: give text.',
      ],
      // Not JSON (never closed), so read as YAML.
      [`{"keywords": ${'['.repeat(LEVELS)}`, tooDeep('(stdin)', 'keywords', 1)],
    ]
    const before = snapshot(repo)
    for (const [input, message] of cases) {
      const e = await refusal(() => propose(repo.ctx({stdin: input}), {file: '-'}))
      expect([e.exitCode, e.message]).toEqual([6, message])
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it('a committed board record is refused by name with its fix, like any hand-broken record', async () => {
    const repo = await us03Repo()
    const file = `.cairn/board/batches/${recordFiles(repo)[0]}`
    repo.write(file, repo.read(file).replace('"declarations": [', `"declarations": [${DEEP},`))
    repo.git('commit', '-qam', 'a record nested too deep')
    const e = await refusal(() => boardState(repo.ctx(), {now: T(13)}))
    expect([e.exitCode, e.message]).toEqual([
      6,
      `${file}: request.declarations[0] is invalid: a declaration is an object with an "op". ` +
        `Records are written by cairn and never edited. Fix: restore it with "git checkout -- ${file}".`,
    ])
  })
})
