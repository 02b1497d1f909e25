import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN, cli, type Repo, tempRepo} from './helpers.js'
import {shim, tree, USER_SETTINGS} from './install-helpers.js'

/**
 * install / uninstall write the client's settings, its skill files and an install record: the happy path is in
 * install*.test.ts; here, many processes at once, and processes killed midway. Needs `npm run build`.
 */
const EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end']
const SKILLS = ['cairn-archive', 'cairn-board', 'cairn-bootstrap', 'cairn-recall', 'cairn-review']

function run(env: NodeJS.ProcessEnv, cwd: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr.on('data', d => (stderr += d))
  child.stdout.resume()
  const done = new Promise<{code: number | null; signal: string | null; stderr: string}>(resolve =>
    child.on('close', (code, signal) => resolve({code, signal, stderr})))
  return {child, done}
}

/** A project with the user's own Claude settings, and a `cairn` shim on PATH for the install check. */
function project(): {repo: Repo; env: NodeJS.ProcessEnv} {
  const repo = tempRepo({'.claude/settings.json': USER_SETTINGS})
  return {repo, env: {...repo.env, PATH: `${shim(0)}${path.delimiter}${process.env.PATH}`}}
}

/** Every cairn hook command in the settings, in file order. */
const cairnCommands = (settings: any): string[] =>
  Object.values(settings.hooks as Record<string, any[]>)
    .flat()
    .flatMap(g => g.hooks.map((h: any) => h.command as string))
    .filter(c => c.startsWith('cairn hook '))

/** The installed state, exactly: the user's settings kept, each cairn hook once, every skill, and the record. */
function expectInstalled(repo: Repo) {
  const settings = JSON.parse(repo.read('.claude/settings.json'))
  const user = JSON.parse(USER_SETTINGS)
  expect(settings.permissions).toEqual(user.permissions)
  expect(settings.model).toBe('opus')
  expect(settings.hooks.PreToolUse[0]).toEqual(user.hooks.PreToolUse[0])
  expect(settings.hooks.Stop[0]).toEqual(user.hooks.Stop[0])
  expect(cairnCommands(settings).sort()).toEqual(EVENTS.map(e => `cairn hook ${e} --agent claude`).sort())
  expect(fs.readdirSync(path.join(repo.dir, '.claude/skills')).sort()).toEqual(SKILLS)
  const record = JSON.parse(fs.readFileSync(recordFile(repo), 'utf8'))
  // The record remembers the settings' bytes from before install, and every file install wrote.
  expect(Buffer.from(record.files['.claude/settings.json'].original, 'base64').toString()).toBe(USER_SETTINGS)
  expect(Object.keys(record.files).filter(f => f.startsWith('.claude/skills/')).map(f => f.split('/')[2]))
    .toEqual(expect.arrayContaining(SKILLS))
}

function recordFile(repo: Repo): string {
  const dir = path.join(repo.home, '.cairn/.local/install')
  const names = fs.readdirSync(dir)
  expect(names).toHaveLength(1)
  return path.join(dir, names[0])
}

/** n runs, each started `gap` ms after the one before. */
const staggered = <T>(n: number, gap: number, start: () => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({length: n}, (_, i) => new Promise<T>(resolve => setTimeout(() => resolve(start()), i * gap))))

/** No temp file left anywhere a write went: the project, the sandbox home. */
const temps = (repo: Repo) =>
  [...tree(repo.dir), ...tree(repo.home)].filter(f => f.includes('.cairn-tmp-') || f.includes('cairn.lock'))

describe('install writes', () => {
  it('eight concurrent installs give one copy of each hook and a record uninstall restores the bytes from', async () => {
    const {repo, env} = project()
    const files = tree(repo.dir).filter(f => !f.startsWith('.git/'))
    // Started a few ms apart, so some read the files while another is between writing settings and its record.
    const runs = await staggered(8, 15, () => run(env, repo.dir, ['install', '--agent', 'claude']).done)
    expect(runs.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 8}, () => [0, '']))
    expectInstalled(repo)
    expect(temps(repo)).toEqual([])
    const again = await cli(['install', '--agent', 'claude', '--json'], {cwd: repo.dir, env})
    expect(again.json().data.changed).toBe(false)

    const out = await staggered(4, 15, () => run(env, repo.dir, ['uninstall', '--agent', 'claude']).done)
    expect(out.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 4}, () => [0, '']))
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
    expect(tree(repo.dir).filter(f => !f.startsWith('.git/'))).toEqual(files)
    expect(tree(path.join(repo.home, '.cairn/.local/install'))).toEqual([])
  })

  it('install and uninstall killed with SIGKILL at any point leave old or new bytes, and the next run completes', async () => {
    const {repo, env} = project()
    const installed = new Set<string>()
    const settings = () => repo.read('.claude/settings.json')
    for (const delay of [40, 80, 120, 160, 200, 240, 280, 320, 360, 420, 500]) {
      const args = delay % 80 ? ['uninstall', '--agent', 'claude'] : ['install', '--agent', 'claude']
      const {child, done} = run(env, repo.dir, args)
      setTimeout(() => child.kill('SIGKILL'), delay)
      await done
      const now = settings()
      // Old or new bytes: the user's own, or the one installed text (the same every time).
      if (now !== USER_SETTINGS) installed.add(now)
      expect(installed.size).toBeLessThanOrEqual(1)
      expect(() => JSON.parse(now)).not.toThrow()
      expect(temps(repo)).toEqual([])
    }
    const i = await cli(['install', '--agent', 'claude'], {cwd: repo.dir, env})
    expect([i.code, i.stderr]).toEqual([0, ''])
    expect(cairnCommands(JSON.parse(settings())).sort()).toEqual(EVENTS.map(e => `cairn hook ${e} --agent claude`).sort())
    const u = await cli(['uninstall', '--agent', 'claude'], {cwd: repo.dir, env})
    expect([u.code, u.stderr]).toEqual([0, ''])
    expect(settings()).toBe(USER_SETTINGS)
    expect(fs.existsSync(path.join(repo.dir, '.claude/skills'))).toBe(false)
  })
})
