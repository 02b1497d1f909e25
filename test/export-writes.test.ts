import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {exportAgentsMd} from '../src/app/export-agents-md.js'
import {exportCursorRules} from '../src/app/export-cursor-rules.js'
import {init} from '../src/app/init.js'
import {BIN, type Repo, templateRepo} from './helpers.js'
import {plant} from './export-helpers.js'
import {tree} from './install-helpers.js'

/**
 * The exports' writes (AGENTS.md's managed block, .cursor/rules/cairn-*.mdc): the happy path is in export*.test.ts;
 * here, many processes at once, and processes killed midway. Needs `npm run build`.
 */
const HEAD = '# Agents\n\nBuild with make.\n\n'
const TAIL = '\n## Ours\n\nNever push on Friday.\n'
const USER_RULE = '---\ndescription: ours\nalwaysApply: true\n---\nBe brief.\n'

/**
 * The old state: AGENTS.md with the user's text around a block of one core card, and rules for two narrow cards.
 * Then the cards change (a second core card, one narrow card deprecated, one added), so the next export rewrites.
 */
const planted = templateRepo(async repo => {
  await init(repo.ctx())
  plant(repo, 'core-card-alpha-exported', {load: 'core'})
  plant(repo, 'narrow-card-stays', {scope: {paths: ['src/**']}})
  plant(repo, 'narrow-card-goes', {scope: {paths: ['docs/**']}})
  repo.write('.cursor/rules/team-style.mdc', USER_RULE)
  repo.write('AGENTS.md', HEAD)
  await exportAgentsMd(repo.ctx())
  repo.write('AGENTS.md', repo.read('AGENTS.md') + TAIL)
  await exportCursorRules(repo.ctx())
  plant(repo, 'core-card-bravo-exported', {load: 'core'})
  plant(repo, 'narrow-card-goes', {status: 'deprecated', scope: {paths: ['docs/**']}})
  plant(repo, 'narrow-card-new', {summary: 'A changed summary.', scope: {paths: ['lib/**']}})
  plant(repo, 'narrow-card-stays', {summary: 'A changed summary.', scope: {paths: ['src/**']}})
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'planted')
})

function run(repo: Repo, args: string[]) {
  const child = spawn(process.execPath, [BIN, 'export', ...args], {
    cwd: repo.dir,
    env: repo.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', d => (stderr += d))
  child.stdout.resume()
  const done = new Promise<{code: number | null; stderr: string}>(resolve =>
    child.on('close', code => resolve({code, stderr})),
  )
  return {child, done}
}

/**
 * The files the exports own or share, by path: AGENTS.md and every rule. A rule an export removes between the listing
 * and the read (read while it runs) is not there.
 */
const state = (repo: Repo): Record<string, string> =>
  Object.fromEntries(
    ['AGENTS.md', ...tree(path.join(repo.dir, '.cursor/rules')).map(f => `.cursor/rules/${f}`)].flatMap(f => {
      try {
        return [[f, repo.read(f)]]
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
    }),
  )

/** The state after one export of each, worked out in process on a copy. */
async function expected(): Promise<Record<string, string>> {
  const repo = await planted()
  await exportAgentsMd(repo.ctx())
  await exportCursorRules(repo.ctx())
  return state(repo)
}

const temps = (repo: Repo) => tree(repo.dir).filter(f => f.includes('.cairn-tmp-'))

describe('export writes', () => {
  it('four concurrent runs of each export give one managed block, the user text byte for byte, and the exact rules', async () => {
    const [repo, want] = [await planted(), await expected()]
    const old = repo.read('AGENTS.md')
    expect(want['AGENTS.md']).not.toBe(old)
    expect(Object.keys(want).sort()).toEqual(
      [
        'AGENTS.md',
        '.cursor/rules/cairn-narrow-card-new.mdc',
        '.cursor/rules/cairn-narrow-card-stays.mdc',
        '.cursor/rules/team-style.mdc',
      ].sort(),
    )
    const runs = await Promise.all(
      Array.from({length: 8}, (_, i) => run(repo, [i % 2 ? 'cursor-rules' : 'agents-md']).done),
    )
    expect(runs.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 8}, () => [0, '']))
    const text = repo.read('AGENTS.md')
    expect(text.split('<!-- cairn:begin -->')).toHaveLength(2)
    expect(text.split('<!-- cairn:end -->')).toHaveLength(2)
    expect(text.startsWith(HEAD)).toBe(true)
    expect(text.endsWith(TAIL)).toBe(true)
    expect(state(repo)).toEqual(want)
    expect(repo.read('.cursor/rules/team-style.mdc')).toBe(USER_RULE)
    expect(temps(repo)).toEqual([])
  })

  it('exports killed with SIGKILL at any point leave each file old or new, and the next run completes', async () => {
    const [repo, want] = [await planted(), await expected()]
    const old = state(repo)
    const reset = () => {
      fs.rmSync(path.join(repo.dir, '.cursor/rules'), {recursive: true})
      for (const [f, text] of Object.entries(old)) repo.write(f, text)
    }
    const outcomes = new Set<string>()
    // Kills at fixed times, and a last one as soon as AGENTS.md holds its new bytes (a loaded
    // machine may not get that far in 3 s), so some land before the writes and some after.
    for (const delay of [300, 700, 1100, 3000, 'written'] as const) {
      reset()
      const both = [run(repo, ['agents-md']), run(repo, ['cursor-rules'])]
      const kill = () => both.forEach(r => r.child.kill('SIGKILL'))
      if (delay !== 'written') setTimeout(kill, delay)
      else {
        const poll = setInterval(() => {
          if (state(repo)['AGENTS.md'] === want['AGENTS.md']) {
            clearInterval(poll)
            kill()
          }
        }, 5)
        void Promise.all(both.map(r => r.done)).then(() => clearInterval(poll))
      }
      await Promise.all(both.map(r => r.done))
      const now = state(repo)
      for (const f of new Set([...Object.keys(old), ...Object.keys(want)])) {
        // Old or new bytes (or absent, where one side has no such file): never half a file.
        expect([old[f], want[f]]).toContain(now[f])
        outcomes.add(`${f}:${now[f] === old[f] ? 'old' : 'new'}`)
      }
      // A kill between a temp file's write and its rename leaves that temp beside its file, hidden, never in place
      // of it; the next run removes it once it is a minute old (a younger one may be a concurrent run's).
      const left = temps(repo)
      for (const t of left)
        expect(path.basename(t)).toMatch(/^\.(AGENTS\.md|cairn-[\w-]+\.mdc)\.cairn-tmp-\d+-[0-9a-f]{8}$/)
      const minuteAgo = new Date(Date.now() - 61_000)
      for (const t of left) fs.utimesSync(path.join(repo.dir, t), minuteAgo, minuteAgo)
      const again = await Promise.all([run(repo, ['agents-md']).done, run(repo, ['cursor-rules']).done])
      expect(again.map(r => [r.code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ])
      expect(state(repo)).toEqual(want)
      expect(temps(repo)).toEqual([])
    }
    // The loop did reach both sides of the writes: some kills before them, some after.
    expect(outcomes).toContain('AGENTS.md:old')
    expect(outcomes).toContain('AGENTS.md:new')
  })
})
