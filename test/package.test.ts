import {execFileSync, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ROOT} from './helpers.js'

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {name: string; version: string}
/** What a build of the package is made from; node_modules is linked, not copied. */
const SOURCES = [
  'package.json',
  'package-lock.json',
  'README.md',
  'bin',
  'data',
  'src',
  'scripts',
  'templates',
  'tsconfig.json',
  'tsconfig.build.json',
]
/** The hook command lands with src/agents/; until then its assertion is skipped. */
const MINUTES = 60_000

/**
 * The package as a user gets it: `npm pack` (which runs prepare, so the build) in a copy of the sources, then
 * `npm i -g` of the tarball into a temp prefix. npm runs with its own HOME and an empty cache under the temp dir, so
 * nothing is written to the real home; the dependencies then come from the registry (a cache filled by `npm ci` holds
 * tarballs but no packuments, so an install cannot be offline anyway).
 */
describe('the npm package', () => {
  let tmp: string
  let env: NodeJS.ProcessEnv
  let tarball: string
  let cairn: string
  let installed: {status: number | null; stdout: string; stderr: string}
  const run = (cmd: string, args: string[], cwd: string) =>
    execFileSync(cmd, args, {cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})

  beforeAll(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-package-')))
    const registry = execFileSync('npm', ['config', 'get', 'registry'], {encoding: 'utf8'}).trim()
    env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)))
    Object.assign(env, {
      HOME: path.join(tmp, 'home'),
      CAIRN_HOME: path.join(tmp, 'home', '.cairn'),
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_registry: registry,
      npm_config_update_notifier: 'false',
      // The node running the tests runs the installed bin too (its shebang is `env node`).
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
    })
    fs.mkdirSync(env.HOME as string)
    const copy = path.join(tmp, 'source')
    for (const name of SOURCES) fs.cpSync(path.join(ROOT, name), path.join(copy, name), {recursive: true})
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir')
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tmp], copy)) as {filename: string}[]
    tarball = path.join(tmp, packed[0].filename)
    const prefix = path.join(tmp, 'prefix')
    const args = ['i', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund']
    installed = spawnSync('npm', args, {cwd: tmp, env, encoding: 'utf8'})
    cairn = path.join(prefix, 'bin', 'cairn')
  }, 10 * MINUTES)

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, {recursive: true, force: true})
  })

  it('npm pack makes cairn-memory-<version>.tgz holding the whole build and nothing from development', () => {
    expect(path.basename(tarball)).toBe(`cairn-memory-${pkg.version}.tgz`)
    const files = run('tar', ['tzf', tarball], tmp)
      .split('\n')
      .filter(Boolean)
      .map(f => f.replace(/^package\//, ''))
    const top = [...new Set(files.map(f => f.split('/')[0]))].sort()
    expect(top).toEqual(['README.md', 'bin', 'data', 'dist', 'oclif.manifest.json', 'package.json', 'templates'])
    expect(files.filter(f => f.startsWith('data/')).sort()).toEqual([
      'data/fonts/LICENSE-OFL.txt',
      'data/fonts/cairn-sans.ttf',
      'data/lexicon/LICENSE-CEDICT.md',
      'data/lexicon/cedict.tsv',
      'data/lexicon/forms.tsv',
      'data/lexicon/glossary.yaml',
    ])
    const built = (dir: string): string[] =>
      fs.readdirSync(path.join(ROOT, dir), {withFileTypes: true}).flatMap(e => {
        const rel = `${dir}/${e.name}`
        return e.isDirectory()
          ? built(rel)
          : rel.endsWith('.ts')
            ? [rel.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js')]
            : []
      })
    // The compiled sources, and the hook's bundle (scripts/bundle-hook.mjs): its entries and their chunks.
    const bundle = fs.readdirSync(path.join(ROOT, 'dist', 'hook')).map(n => `dist/hook/${n}`)
    expect(bundle).toEqual(
      expect.arrayContaining(['dist/hook/run.js', 'dist/hook/rebuild-worker.js', 'dist/hook/pool-worker.js']),
    )
    expect(files.filter(f => f.startsWith('dist/')).sort()).toEqual([...built('src'), ...bundle].sort())
    expect(files).toContain('bin/run.js')
  })

  it('npm pack leaves the checkout as it was, and the packed package.json has no scripts: npm i -g prints no warning', () => {
    // prepare builds a checkout and a git install; a tarball ships built, and npm lists its prepare as an install
    // script the user has not allowed ("install scripts not yet covered by allowScripts").
    const packed = JSON.parse(run('tar', ['xzf', tarball, '-O', 'package/package.json'], tmp)) as Record<
      string,
      unknown
    >
    const source = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(packed.scripts).toBeUndefined()
    const {scripts: _scripts, ...rest} = source
    expect(packed).toEqual(rest)
    expect(fs.readFileSync(path.join(tmp, 'source', 'package.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
    )
    expect(fs.readdirSync(path.join(tmp, 'source')).filter(n => n.startsWith('.'))).toEqual([])
    expect([installed.status, installed.stderr]).toEqual([0, ''])
    expect(installed.stdout).toMatch(/^\nadded \d+ packages in \S+\n$/)
  })

  it("installs a working cairn on the prefix's PATH", () => {
    const version = spawnSync(cairn, ['--version'], {cwd: tmp, env, encoding: 'utf8'})
    expect([version.status, version.stderr]).toEqual([0, ''])
    expect(version.stdout).toBe(
      `cairn-memory/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
    )
    // The demo runs init, propose, lint, review, recall and log: templates, the lexicon and git from the install.
    const demo = spawnSync(cairn, ['demo'], {cwd: tmp, env, encoding: 'utf8'})
    expect([demo.status, demo.stdout.trimEnd().split('\n').at(-1)]).toEqual([
      0,
      'Demo finished; the temp repo was removed.',
    ])
  })

  it('the installed package finds its lexicon data', () => {
    const lib = path.join(tmp, 'prefix', 'lib', 'node_modules', pkg.name, 'dist', 'recall', 'lexicon.js')
    // The precomputed forms table ships too: the installed package loads it (its version matches its data).
    const script = `const m = await import(${JSON.stringify(pathToFileURL(lib).href)})
      const {translator} = await m.shippedTranslator()
      console.log(JSON.stringify([translator.forms('合并冲突'), translator.forms('merg conflict')]))`
    const read = spawnSync(process.execPath, ['--input-type=module', '-e', script], {cwd: tmp, env, encoding: 'utf8'})
    expect([read.status, read.stderr, read.stdout]).toEqual([
      0,
      '',
      `${JSON.stringify([['merg conflict'], ['合并冲突']])}\n`,
    ])
  })

  it('the hook prints nothing and exits 0 where there is no store', () => {
    const cwd = fs.mkdtempSync(path.join(tmp, 'no-store-'))
    const payload = {session_id: 's', cwd, hook_event_name: 'SessionStart', source: 'startup'}
    const hook = spawnSync(cairn, ['hook', 'session-start', '--agent', 'claude'], {
      cwd,
      env,
      encoding: 'utf8',
      input: JSON.stringify(payload),
    })
    expect([hook.status, hook.stdout]).toEqual([0, ''])
  })
})
