import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BIN, ROOT} from './helpers.js'

/**
 * Every shell block of the README, run as written, in order, in a user's repository: a clone
 * (`your-repo`) of a bare `origin`, with `cairn` on PATH, HOME and CAIRN_HOME in a temp dir and a
 * git identity in that home's .gitconfig. A block run only in a checkout of cairn, or one that
 * needs a network, is marked on the line before it with
 * `<!-- readme-test: skip — <why, and what covers it> -->` and shows as a skipped test with that reason.
 * The clock is the real one, so a date in the README that has passed (a deferral, say) fails here.
 */
interface Block {
  line: number
  code: string
  skip?: string
}

const MARK = /^<!--\s*readme-test:\s*skip\s*[—:-]\s*(.+?)\s*-->$/

function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue
    const start = i
    const body: string[] = []
    while (++i < lines.length && !/^```\s*$/.test(lines[i])) body.push(lines[i])
    let prev = start - 1
    while (prev >= 0 && lines[prev].trim() === '') prev--
    const skip = prev >= 0 ? MARK.exec(lines[prev].trim())?.[1] : undefined
    blocks.push({line: start + 1, code: body.join('\n'), skip})
  }
  return blocks
}

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
const blocks = shellBlocks(readme)
const title = (b: Block) =>
  `README line ${b.line}: ${b.code
    .split('\n')[0]
    .replace(/\s+#.*$/, '')
    .slice(0, 70)}`

describe('the README, run as a user would', () => {
  let root: string
  let env: NodeJS.ProcessEnv
  const cwdFile = () => path.join(root, '.cwd')
  const sh = (cwd: string, script: string) =>
    spawnSync('bash', ['-c', script], {cwd, env, encoding: 'utf8', timeout: 300_000})

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-readme-')))
    const home = path.join(root, 'home')
    const bin = path.join(root, 'bin')
    fs.mkdirSync(home)
    fs.mkdirSync(bin)
    // `cairn` as an install puts it on PATH, running this build.
    fs.writeFileSync(path.join(bin, 'cairn'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {mode: 0o755})
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      '[user]\n\tname = Ada Example\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n',
    )
    env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('GIT_') && !k.startsWith('CAIRN_') && !/^npm_/i.test(k),
      ),
    )
    Object.assign(env, {
      HOME: home,
      CAIRN_HOME: path.join(home, '.cairn'),
      GIT_CONFIG_NOSYSTEM: '1',
      // cairn ci install asks no registry here: the README runs offline.
      CAIRN_NPM_REGISTRY: 'off',
      PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
    })
    const setup = sh(
      root,
      [
        'set -e',
        'git init -q --bare origin.git',
        'git clone -q origin.git your-repo 2>/dev/null',
        'cd your-repo',
        'mkdir -p src/config && printf "export {}\\n" > src/config/json.ts && printf "# your repo\\n" > README.md',
        'git add -A && git commit -qm initial && git push -q origin main',
      ].join('\n'),
    )
    expect(setup.stderr).toBe('')
    fs.writeFileSync(cwdFile(), root)
  })

  afterAll(() => {
    if (root) fs.rmSync(root, {recursive: true, force: true})
  })

  it('has shell blocks, and every skipped one says why', () => {
    expect(blocks.length).toBeGreaterThan(8)
    for (const b of blocks.filter(x => x.skip)) expect(b.skip!.length, title(b)).toBeGreaterThan(20)
  })

  for (const b of blocks) {
    if (b.skip) {
      it.skip(`${title(b)} (skipped: ${b.skip})`, () => {})
      continue
    }
    // Each block starts where the one before it ended (`cd your-repo` carries over), fails on the
    // first command that fails, and traces the commands so a failure names the line.
    it(
      title(b),
      () => {
        const script = `set -eo pipefail\nPS4='+ README: '\nset -x\n${b.code}\n{ set +x; } 2>/dev/null\npwd > "${cwdFile()}"\n`
        const r = sh(fs.readFileSync(cwdFile(), 'utf8').trim(), script)
        const trace = r.stderr.split('\n').slice(-25).join('\n')
        expect(
          r.status,
          `README line ${b.line} failed (exit ${r.status}):\n${trace}\n--- stdout ---\n${r.stdout.slice(-2000)}`,
        ).toBe(0)
      },
      300_000,
    )
  }
})
