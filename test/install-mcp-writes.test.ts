import {spawn} from 'node:child_process'
import path from 'node:path'
import {parse} from 'smol-toml'
import {describe, expect, it} from 'vitest'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {BIN, type Repo, tempRepo} from './helpers.js'
import {shim, tree, withPath} from './install-helpers.js'

/**
 * `install --mcp` and uninstall write a second config file (Codex's config.toml here): many processes at once,
 * and processes killed between their writes. Needs `npm run build`.
 */
const CONFIG = '# mine\nmodel = "o4-mini"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n'
const INSTALLED = `${CONFIG}\n[mcp_servers.cairn]\ncommand = "cairn"\nargs = ["mcp"]\n`

function run(env: NodeJS.ProcessEnv, cwd: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {cwd, env, stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr.on('data', d => (stderr += d))
  return new Promise<{code: number | null; signal: string | null; stderr: string}>(resolve =>
    child.on('close', (code, signal) => resolve({code, signal, stderr})),
  )
}

function project(): {repo: Repo; env: NodeJS.ProcessEnv} {
  const repo = tempRepo({'.codex/config.toml': CONFIG})
  return {repo, env: {...repo.env, PATH: `${shim(0)}${path.delimiter}${process.env.PATH}`}}
}

const files = (repo: Repo) => tree(repo.dir).filter(f => !f.startsWith('.git/'))
const temps = (repo: Repo) =>
  [...tree(repo.dir), ...tree(repo.home)].filter(f => f.includes('.cairn-tmp-') || f.includes('cairn.lock'))
const staggered = <T>(n: number, gap: number, start: () => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({length: n}, (_, i) => new Promise<T>(resolve => setTimeout(() => resolve(start()), i * gap))))

describe('install --mcp writes', () => {
  it('six concurrent installs give one cairn table; three concurrent uninstalls give the bytes back', async () => {
    const {repo, env} = project()
    const before = files(repo)
    const runs = await staggered(6, 15, () => run(env, repo.dir, ['install', '--agent', 'codex', '--mcp']))
    expect(runs.map(r => [r.code, r.stderr])).toEqual(Array.from({length: 6}, () => [0, '']))
    expect(repo.read('.codex/config.toml')).toBe(INSTALLED)
    expect(temps(repo)).toEqual([])
    const out = await staggered(3, 15, () => run(env, repo.dir, ['uninstall', '--agent', 'codex']))
    expect(out.map(r => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ])
    expect(repo.read('.codex/config.toml')).toBe(CONFIG)
    expect(files(repo)).toEqual(before)
  })

  it('install --mcp killed between its writes leaves old or new bytes; install again, then uninstall, restores', async () => {
    // Steps: 0 the record, 1 .codex/hooks.json, 2 .codex/config.toml, 3 on the skill files.
    await Promise.all(
      [1, 2, 3].map(async step => {
        const {repo, env} = project()
        const before = files(repo)
        const killed = await run({...env, CAIRN_TEST_CRASH: `install:${step}`}, repo.dir, [
          'install',
          '--agent',
          'codex',
          '--mcp',
        ])
        expect(killed.signal).toBe('SIGKILL')
        expect([CONFIG, INSTALLED]).toContain(repo.read('.codex/config.toml'))
        const ctx = withPath(repo, shim(0))
        await install(ctx, {agent: 'codex', mcp: true})
        expect(repo.read('.codex/config.toml')).toBe(INSTALLED)
        expect(parse(repo.read('.codex/config.toml')).mcp_servers).toEqual({
          docs: {command: 'npx', args: ['-y', 'docs-mcp']},
          cairn: {command: 'cairn', args: ['mcp']},
        })
        await uninstall(ctx, {agent: 'codex'})
        expect(repo.read('.codex/config.toml')).toBe(CONFIG)
        expect(files(repo)).toEqual(before)
        expect(temps(repo)).toEqual([])
      }),
    )
  })

  it('uninstall killed between its writes leaves old or new bytes; uninstall again restores', async () => {
    // Steps: 0 .codex/hooks.json, 1 .codex/config.toml, 2 on the skill files.
    await Promise.all(
      [1, 2].map(async step => {
        const {repo, env} = project()
        const before = files(repo)
        const ctx = withPath(repo, shim(0))
        await install(ctx, {agent: 'codex', mcp: true})
        const killed = await run({...env, CAIRN_TEST_CRASH: `uninstall:${step}`}, repo.dir, [
          'uninstall',
          '--agent',
          'codex',
        ])
        expect(killed.signal).toBe('SIGKILL')
        expect([CONFIG, INSTALLED]).toContain(repo.read('.codex/config.toml'))
        await uninstall(ctx, {agent: 'codex'})
        expect(repo.read('.codex/config.toml')).toBe(CONFIG)
        expect(files(repo)).toEqual(before)
        expect(tree(path.join(repo.home, '.cairn/.local/install'))).toEqual([])
      }),
    )
  })
})
