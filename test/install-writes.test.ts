import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {packageSkillsRoot} from '../src/store/agents/agent-files.js'
import {BIN, cli, type Repo, tempRepo} from './helpers.js'
import {shim, tree, USER_SETTINGS, withPath} from './install-helpers.js'

/**
 * install / uninstall write the client's settings, its skill files and an install record: the happy path is in
 * install*.test.ts; here, many processes at once, and processes killed midway. Needs `npm run build`.
 */
const EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'session-end']
const SKILLS = ['cairn-archive', 'cairn-board', 'cairn-bootstrap', 'cairn-enrich', 'cairn-recall', 'cairn-review']

function run(env: NodeJS.ProcessEnv, cwd: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr.on('data', d => (stderr += d))
  child.stdout.resume()
  const done = new Promise<{code: number | null; signal: string | null; stderr: string}>(resolve =>
    child.on('close', (code, signal) => resolve({code, signal, stderr})),
  )
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
  expect(
    Object.keys(record.files)
      .filter(f => f.startsWith('.claude/skills/'))
      .map(f => f.split('/')[2]),
  ).toEqual(expect.arrayContaining(SKILLS))
}

function recordFile(repo: Repo): string {
  const dir = path.join(repo.home, '.cairn/.local/install')
  const names = fs.readdirSync(dir)
  expect(names).toHaveLength(1)
  return path.join(dir, names[0])
}

/** Each skill file is absent or cairn's template, byte for byte: never half a file. */
function expectSkillsOldOrNew(repo: Repo) {
  const templates = path.join(packageSkillsRoot(), 'en')
  for (const rel of tree(path.join(repo.dir, '.claude/skills'))) {
    expect(fs.readFileSync(path.join(repo.dir, '.claude/skills', rel))).toEqual(
      fs.readFileSync(path.join(templates, rel)),
    )
  }
}

/** n runs, each started `gap` ms after the one before. */
const staggered = <T>(n: number, gap: number, start: () => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({length: n}, (_, i) => new Promise<T>(resolve => setTimeout(() => resolve(start()), i * gap))))

/** Temp files left anywhere a write went (the project, the sandbox home); with `locks`, lock files too. */
const temps = (repo: Repo, locks = false) =>
  [...tree(repo.dir), ...tree(repo.home)].filter(f => f.includes('.cairn-tmp-') || (locks && f.includes('cairn.lock')))

describe('install writes', () => {
  it('eight concurrent installs give one copy of each hook and a record uninstall restores the bytes from', async () => {
    const {repo, env} = project()
    const files = tree(repo.dir).filter(f => !f.startsWith('.git/'))
    // Started a few ms apart, so some read the files while another is between writing settings and its record.
    const runs = await staggered(8, 15, () => run(env, repo.dir, ['install', '--agent', 'claude']).done)
    expect(runs.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 8}, () => [0, '']))
    expectInstalled(repo)
    expect(temps(repo, true)).toEqual([])
    expect((await install(withPath(repo, shim(0)), {agent: 'claude'})).data.changed).toBe(false)

    const out = await staggered(3, 15, () => run(env, repo.dir, ['uninstall', '--agent', 'claude']).done)
    expect(out.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 3}, () => [0, '']))
    expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
    expect(tree(repo.dir).filter(f => !f.startsWith('.git/'))).toEqual(files)
    expect(tree(path.join(repo.home, '.cairn/.local/install'))).toEqual([])
  })

  it('concurrent installs at the user scope keep the record too, and leave no lock behind', async () => {
    const {repo, env} = project()
    fs.mkdirSync(path.join(repo.home, '.claude'))
    fs.writeFileSync(path.join(repo.home, '.claude/settings.json'), USER_SETTINGS)
    const args = ['install', '--agent', 'claude', '--scope', 'user']
    const runs = await staggered(6, 15, () => run(env, repo.dir, args).done)
    expect(runs.map(r => r.code)).toEqual([0, 0, 0, 0, 0, 0])
    const record = JSON.parse(fs.readFileSync(path.join(repo.home, '.cairn/.local/install/claude-user.json'), 'utf8'))
    expect(Buffer.from(record.files['.claude/settings.json'].original, 'base64').toString()).toBe(USER_SETTINGS)
    expect(temps(repo, true)).toEqual([])
    const u = await cli(['uninstall', '--agent', 'claude', '--scope', 'user'], {cwd: repo.dir, env})
    expect([u.code, u.stderr]).toEqual([0, ''])
    expect(fs.readFileSync(path.join(repo.home, '.claude/settings.json'), 'utf8')).toBe(USER_SETTINGS)
    expect(tree(path.join(repo.home, '.claude'))).toEqual(['settings.json'])
  })

  it('install killed (SIGKILL) between its writes leaves old or new bytes; install again, then uninstall, restores', async () => {
    const ref = project()
    await install(withPath(ref.repo, shim(0)), {agent: 'claude'})
    const installed = ref.repo.read('.claude/settings.json')
    // Steps: 0 the record, 1 the settings, 2-6 the five skill files.
    await Promise.all(
      [1, 2, 4, 6].map(async step => {
        const {repo, env} = project()
        const files = tree(repo.dir).filter(f => !f.startsWith('.git/'))
        const killed = await run({...env, CAIRN_TEST_CRASH: `install:${step}`}, repo.dir, [
          'install',
          '--agent',
          'claude',
        ]).done
        expect(killed.signal).toBe('SIGKILL')
        expect([USER_SETTINGS, installed]).toContain(repo.read('.claude/settings.json'))
        expectSkillsOldOrNew(repo)
        expect(temps(repo)).toEqual([])
        await install(withPath(repo, shim(0)), {agent: 'claude'})
        expect(repo.read('.claude/settings.json')).toBe(installed)
        expectInstalled(repo)
        await uninstall(withPath(repo, shim(0)), {agent: 'claude'})
        expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
        expect(tree(repo.dir).filter(f => !f.startsWith('.git/'))).toEqual(files)
        // The killed process's lock was stale, and the next run took it over and released it.
        expect(temps(repo, true)).toEqual([])
      }),
    )
  })

  it('uninstall killed (SIGKILL) between its steps leaves old or new bytes; uninstall again restores', async () => {
    // Steps: 0 the settings, 1-5 the skill files, 6 their folders, 7 the record.
    await Promise.all(
      [1, 3, 6, 7].map(async step => {
        const {repo, env} = project()
        const files = tree(repo.dir).filter(f => !f.startsWith('.git/'))
        await install(withPath(repo, shim(0)), {agent: 'claude'})
        const installed = repo.read('.claude/settings.json')
        const killed = await run({...env, CAIRN_TEST_CRASH: `uninstall:${step}`}, repo.dir, [
          'uninstall',
          '--agent',
          'claude',
        ]).done
        expect(killed.signal).toBe('SIGKILL')
        expect([USER_SETTINGS, installed]).toContain(repo.read('.claude/settings.json'))
        expectSkillsOldOrNew(repo)
        expect(temps(repo)).toEqual([])
        await uninstall(withPath(repo, shim(0)), {agent: 'claude'})
        expect(repo.read('.claude/settings.json')).toBe(USER_SETTINGS)
        expect(tree(repo.dir).filter(f => !f.startsWith('.git/'))).toEqual(files)
        expect(tree(path.join(repo.home, '.cairn/.local/install'))).toEqual([])
        expect(temps(repo, true)).toEqual([])
      }),
    )
  })
})
