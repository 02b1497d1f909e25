import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import os from 'node:os'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {list} from '../src/app/list.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {createContext} from '../src/context.js'
import {card, cli, FIXED_NOW, sandboxEnv, tempDir, tempRepo} from './helpers.js'

/**
 * kill -9 at each step of a transaction (CAIRN_TEST_CRASH makes the process SIGKILL itself
 * there), then the next cairn write: the store must be as before or as after, with nothing
 * left staged or untracked for the user's next commit to sweep in.
 */
const POINTS = ['after-journal', 'rename:10', 'before-add', 'before-commit', 'during-commit']
const N = 50
const cards = (prefix: string) =>
  Array.from({length: N}, (_, i) => card({slug: `${prefix}-crash-case-${String(i).padStart(2, '0')}`}))
const EXTRA = card({slug: 'extra-card-after-crash'})

/** Every store file a user could see, by repo-relative path (derived and local files excluded). */
function storeFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      const p = path.join(d, e.name)
      const r = path.relative(dir, p)
      if (r === '.cairn/.cache' || r === '.cairn/.local') continue
      if (e.isDirectory()) walk(p)
      else if (!r.includes('extra-card-after-crash')) out[r] = fs.readFileSync(p, 'utf8')
    }
  }
  walk(path.join(dir, '.cairn'))
  return out
}

function copyRepo(from: string): {dir: string; env: NodeJS.ProcessEnv} {
  const dir = path.join(tempDir(), 'repo')
  execFileSync('cp', ['-a', from, dir])
  return {dir, env: sandboxEnv(dir)}
}

const run = (dir: string, env: NodeJS.ProcessEnv, args: string[], input = '') => cli(args, {cwd: dir, env, input})

const kept = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-crash-'))
afterAll(() => fs.rmSync(kept, {recursive: true, force: true}))

interface Scenario {
  name: string
  args: string[]
  input: string
  base: string
  before: Record<string, string>
  after: Record<string, string>
}

async function scenario(
  name: string,
  prepare: (repo: ReturnType<typeof tempRepo>) => Promise<void>,
  args: string[],
  input = '',
): Promise<Scenario> {
  const repo = tempRepo()
  await init(repo.ctx())
  await prepare(repo)
  // tempRepo's dirs go after each test; the scenarios live until the end of the file.
  const base = path.join(kept, name)
  execFileSync('cp', ['-a', repo.dir, base])
  const before = storeFiles(base)
  const ref = copyRepo(base)
  const r = await run(ref.dir, ref.env, args, input)
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return {name, args, input, base, before, after: storeFiles(ref.dir)}
}

describe('kill -9 at each step, then the next cairn write', () => {
  const scenarios: Scenario[] = []
  beforeAll(async () => {
    scenarios.push(await scenario('propose', async () => {}, ['propose', '-'], JSON.stringify(cards('propose'))))
    scenarios.push(
      await scenario(
        'approve',
        async repo => {
          await propose(repo.ctx(), {file: repo.write('../pending.json', JSON.stringify(cards('approve')))})
        },
        ['review', 'approve', '--all'],
      ),
    )
    // One card back from its archive: a single move, so rename:1 is the kill between its two halves.
    scenarios.push(
      await scenario(
        'restore',
        async repo => {
          await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
          await approve(repo.ctx(), {all: true})
          await archive(repo.ctx(), {ids: ['deepmerge-array-replace-trap']})
        },
        ['restore', 'deepmerge-array-replace-trap'],
      ),
    )
    // A pending card's text replaced (propose --replace, issue 34): one file rewritten in place.
    scenarios.push(
      await scenario(
        'replace',
        async repo => {
          await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
        },
        ['propose', '-', '--replace'],
        JSON.stringify(card({title: 'deepMerge drops array items', rule: 'Append, then dedupe by key.'})),
      ),
    )
    // Several ids named, one reason: only removals, so no rename step to be killed at.
    const REJECTED = cards('reject').slice(0, 12)
    scenarios.push(
      await scenario(
        'reject',
        async repo => {
          await propose(repo.ctx(), {file: repo.write('../pending.json', JSON.stringify(REJECTED))})
        },
        ['review', 'reject', ...REJECTED.map(c => c.slug), '--reason', 'duplicates'],
      ),
    )
    // Several ids deferred at once: each file rewritten in place, no rename step to be killed at.
    const DEFERRED = cards('deferred').slice(0, 12)
    scenarios.push(
      await scenario(
        'defer',
        async repo => {
          await propose(repo.ctx(), {file: repo.write('../pending.json', JSON.stringify(DEFERRED))})
        },
        ['review', 'defer', ...DEFERRED.map(c => c.slug), '--until', '2027-06-01'],
      ),
    )
    // One card's title, rule and slug: a rename and a new body in one write.
    scenarios.push(
      await scenario(
        'modify',
        async repo => {
          await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
        },
        [
          'review',
          'modify',
          'deepmerge-array-replace-trap',
          '--set',
          'slug=deepmerge-drops-hook-arrays',
          '--set',
          'title=deepMerge drops hook arrays',
          '--set',
          'rule=Append hook arrays.\nThen dedupe them.',
          '--set',
          'policy=must',
        ],
      ),
    )
  }, 240_000)

  const points = (op: string) =>
    op === 'restore' || op === 'modify' || op === 'replace'
      ? POINTS.map(p => (p === 'rename:10' ? 'rename:1' : p))
      : op === 'reject' || op === 'defer'
        ? POINTS.filter(p => !p.startsWith('rename:'))
        : POINTS
  const what: Record<string, string> = {
    restore: 'restore of one card',
    reject: 'reject of 12 cards named by id',
    defer: 'defer of 12 cards named by id',
    modify: "modify of one card's slug, title, rule and policy",
    replace: 'propose --replace of one card',
  }
  for (const op of ['propose', 'approve', 'restore', 'replace', 'reject', 'defer', 'modify']) {
    for (const point of points(op)) {
      it(`${what[op] ?? `${op} of ${N} cards`} killed at ${point}`, {timeout: 120_000}, async () => {
        const s = scenarios.find(x => x.name === op)!
        expect(s.after).not.toEqual(s.before)
        const {dir, env} = copyRepo(s.base)
        const killed = await run(dir, {...env, CAIRN_TEST_CRASH: point}, s.args, s.input)
        expect(killed.code).toBe(-1) // SIGKILL: no exit code
        // A read in between never recovers; it says a write was interrupted.
        const ctx = () => createContext({cwd: dir, env: env as Record<string, string>, now: FIXED_NOW, actor: 'tester'})
        const reading = ctx()
        await list(reading)
        expect(reading.warnings).toEqual([expect.stringContaining('cairn doctor --fix')])
        const writing = ctx()
        await propose(writing, {fields: EXTRA})
        expect(writing.warnings).toEqual([expect.stringMatching(/^(rolled back|finished) an interrupted cairn/)])
        const git = (...a: string[]) => execFileSync('git', a, {cwd: dir, env, encoding: 'utf8'})
        expect(git('status', '--porcelain', '--untracked-files=all', '.cairn')).toBe('')
        const state = storeFiles(dir)
        expect([JSON.stringify(s.before), JSON.stringify(s.after)]).toContain(JSON.stringify(state))
        for (const [p, text] of Object.entries(state))
          if (p.startsWith('.cairn/cards/')) expect(text).not.toContain('status: pending')
        expect((await lint(ctx())).errors).toBe(0)
        fs.appendFileSync(path.join(dir, 'README.md'), 'user edit\n')
        git('commit', '-qam', 'x')
        expect(git('show', '--name-only', '--format=', 'HEAD').trim()).toBe('README.md')
        expect(fs.existsSync(path.join(dir, '.git/cairn-journal.json'))).toBe(false)
      })
    }
  }
})
