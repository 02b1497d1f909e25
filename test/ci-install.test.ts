import {spawn, spawnSync} from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {parse} from 'yaml'
import {afterAll, describe, expect, it} from 'vitest'
import {ciInstall} from '../src/app/ci-install.js'
import {renderCiInstall} from '../src/cli/render-ci-install.js'
import {parsePackageSpec} from '../src/domain/ci/package-spec.js'
import {pinnedPackage} from '../src/domain/ci/workflows.js'
import {packageWorkflowsRoot, readWorkflowTemplates} from '../src/store/agents/workflow-files.js'
import {openNpmRegistry} from '../src/store/npm/npm-registry.js'
import {cliInProcess} from './cli-in-process.js'
import {BIN, cli, FIXED_NOW, initRepo, type Repo, refusal, ROOT, snapshot, tempDir, tempRepo} from './helpers.js'

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {version: string}
const PIN = `cairn-memory@${pkg.version}`
const NAMES = ['cairn-approve.yml', 'cairn-maintain.yml', 'cairn-review-comment.yml', 'cairn-review.yml']
const template = (name: string) => fs.readFileSync(path.join(packageWorkflowsRoot(), name), 'utf8')
const rendered = (name: string, pin = PIN) => template(name).replace('{{cairn_package}}', pin)

/** `cairn ci install` as its own process, killed with SIGKILL after `killAfter` ms when given. */
function run(repo: Repo, killAfter?: number | 'written'): Promise<number | null> {
  const child = spawn(process.execPath, [BIN, 'ci', 'install'], {cwd: repo.dir, env: repo.env, stdio: 'ignore'})
  let poll: NodeJS.Timeout | undefined
  if (typeof killAfter === 'number') setTimeout(() => child.kill('SIGKILL'), killAfter)
  else if (killAfter === 'written') {
    // As soon as the last workflow is there: the kill lands after the writes, before a clean exit.
    poll = setInterval(() => {
      if (Object.keys(workflowsState(repo)).length === NAMES.length) child.kill('SIGKILL')
    }, 2)
  }
  return new Promise(resolve =>
    child.on('close', code => {
      clearInterval(poll)
      resolve(code)
    }),
  )
}

/** The workflow files (a killed write's hidden temp file aside, which GitHub does not read as a workflow). */
function workflowsState(repo: Repo): Record<string, string> {
  const dir = path.join(repo.dir, '.github/workflows')
  if (!fs.existsSync(dir)) return {}
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter(n => !n.startsWith('.'))
      .map(n => [n, fs.readFileSync(path.join(dir, n), 'utf8')]),
  )
}

describe('cairn ci install', () => {
  it('writes the four workflows, each pinned to the running cairn-memory, and commits nothing', async () => {
    const repo = await initRepo()
    const head = repo.git('rev-parse', 'HEAD')
    const r = await ciInstall(repo.ctx())
    expect(r.data).toEqual({
      root: repo.dir,
      package: PIN,
      packageFrom: 'running',
      // The test environment sets CAIRN_NPM_REGISTRY=off: no test asks the real registry.
      registry: 'not_checked',
      dryRun: false,
      changed: true,
      files: NAMES.map(n => ({file: `.github/workflows/${n}`, action: 'created'})),
    })
    expect(r.warnings).toEqual([])
    for (const n of NAMES) {
      const text = repo.read(`.github/workflows/${n}`)
      expect(text).toBe(rendered(n))
      expect(text).not.toContain('{{cairn_package}}')
      expect(pinnedPackage(text)).toBe(PIN)
      expect(text.split('\n')[0]).toMatch(
        /^# cairn:workflow [a-z-]+ \(written by cairn ci install; edit the pin with it\)$/,
      )
    }
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe('?? .github/\n')
    expect(renderCiInstall(r.data)).toBe(
      [
        `Wrote cairn's workflows, installing ${PIN}:`,
        ...NAMES.map(n => `  created   .github/workflows/${n}`),
        'Nothing was committed: review the change with "git status", then commit it and push.',
      ].join('\n'),
    )
  })

  it('four runs at once write each workflow whole, once, and leave no temp file', async () => {
    const repo = await initRepo()
    expect(await Promise.all([run(repo), run(repo), run(repo), run(repo)])).toEqual([0, 0, 0, 0])
    expect(workflowsState(repo)).toEqual(Object.fromEntries(NAMES.map(n => [n, rendered(n)])))
  })

  it('killed with SIGKILL at any point, each workflow is absent or whole, and the next run completes', async () => {
    const repo = await initRepo()
    const seen = new Set<number>()
    for (const delay of [60, 300, 600, 900, 1200, 'written'] as const) {
      fs.rmSync(path.join(repo.dir, '.github'), {recursive: true, force: true})
      await run(repo, delay)
      const state = workflowsState(repo)
      // Only cairn's own names, each holding the whole rendered file: never half a file or a temp file.
      for (const [name, text] of Object.entries(state)) expect(text, name).toBe(rendered(name))
      seen.add(Object.keys(state).length)
      expect(await run(repo)).toBe(0)
      expect(workflowsState(repo)).toEqual(Object.fromEntries(NAMES.map(n => [n, rendered(n)])))
    }
    // Some kills landed before the writes and some after them.
    expect(seen.has(0)).toBe(true)
    expect(seen.has(NAMES.length)).toBe(true)
  }, 60_000)

  it("removes the temp files a killed run left, once a minute old; a younger one may be a running install's", async () => {
    const repo = await initRepo()
    const dir = path.join(repo.dir, '.github/workflows')
    fs.mkdirSync(dir, {recursive: true})
    const old = path.join(dir, '.cairn-review.yml.cairn-tmp-123-abcd')
    const young = path.join(dir, '.cairn-approve.yml.cairn-tmp-456-ef01')
    const theirs = path.join(dir, '.notes.cairn-tmp-1-2')
    for (const f of [old, young, theirs]) fs.writeFileSync(f, 'half')
    const now = new Date(FIXED_NOW).getTime()
    fs.utimesSync(old, new Date(now - 120_000), new Date(now - 120_000))
    fs.utimesSync(young, new Date(now - 10_000), new Date(now - 10_000))
    fs.utimesSync(theirs, new Date(now - 120_000), new Date(now - 120_000))
    await ciInstall(repo.ctx())
    expect(
      fs
        .readdirSync(dir)
        .filter(n => n.startsWith('.'))
        .sort(),
    ).toEqual(['.cairn-approve.yml.cairn-tmp-456-ef01', '.notes.cairn-tmp-1-2'])
  })

  it('a second run changes nothing', async () => {
    const repo = await initRepo()
    await ciInstall(repo.ctx())
    const before = snapshot(repo)
    const r = await ciInstall(repo.ctx())
    expect(r.data.changed).toBe(false)
    expect(r.data.files.map(f => f.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged'])
    expect(renderCiInstall(r.data)).toBe(`cairn's workflows are in place (${PIN}); nothing changed.`)
    expect(snapshot(repo)).toEqual(before)
  })

  it('updates the pin of a workflow an older cairn wrote, and nothing else', async () => {
    const repo = await initRepo()
    repo.write('.github/workflows/cairn-review.yml', rendered('cairn-review.yml', 'cairn-memory@0.0.9'))
    const r = await ciInstall(repo.ctx())
    expect(r.data.files.find(f => f.file.endsWith('cairn-review.yml'))?.action).toBe('pinned')
    expect(repo.read('.github/workflows/cairn-review.yml')).toBe(rendered('cairn-review.yml'))
  })

  it("keeps an edited cairn workflow but updates its pin, and leaves a file of the user's own, each with a warning naming it and --force", async () => {
    const repo = await initRepo()
    const edited = rendered('cairn-approve.yml', 'cairn-memory@0.0.9').replace('node-version: 20', 'node-version: 22')
    repo.write('.github/workflows/cairn-approve.yml', edited)
    repo.write('.github/workflows/cairn-maintain.yml', 'name: ours\n')
    const r = await ciInstall(repo.ctx())
    expect(r.data.files.map(f => f.action)).toEqual(['edited', 'kept', 'created', 'created'])
    expect(r.warnings).toEqual([
      `.github/workflows/cairn-approve.yml differs from cairn's cairn-approve.yml: only its pin was updated, to ${PIN}; run "cairn ci install --force" to replace it`,
      '.github/workflows/cairn-maintain.yml differs from cairn\'s cairn-maintain.yml and was left as it is; run "cairn ci install --force" to replace it',
    ])
    expect(repo.read('.github/workflows/cairn-approve.yml')).toBe(edited.replace('"cairn-memory@0.0.9"', `"${PIN}"`))
    expect(repo.read('.github/workflows/cairn-maintain.yml')).toBe('name: ours\n')
    // Pinned already: the edited workflow is left as it is.
    expect((await ciInstall(repo.ctx())).data.files.map(f => f.action)).toEqual([
      'kept',
      'kept',
      'unchanged',
      'unchanged',
    ])

    const forced = await ciInstall(repo.ctx(), {force: true})
    expect(forced.data.files.map(f => f.action)).toEqual(['replaced', 'replaced', 'unchanged', 'unchanged'])
    expect(forced.warnings).toEqual([])
    expect(repo.read('.github/workflows/cairn-approve.yml')).toBe(rendered('cairn-approve.yml'))
    expect(repo.read('.github/workflows/cairn-maintain.yml')).toBe(rendered('cairn-maintain.yml'))
  })

  it('--dry-run prints unified diffs and writes nothing', async () => {
    const repo = await initRepo()
    repo.write('.github/workflows/cairn-review.yml', rendered('cairn-review.yml', 'cairn-memory@0.0.9'))
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'old workflows')
    const before = snapshot(repo)
    const r = await ciInstall(repo.ctx(), {dryRun: true})
    expect(snapshot(repo)).toEqual(before)
    const review = r.data.files.find(f => f.file.endsWith('cairn-review.yml'))!
    expect(review.action).toBe('pinned')
    expect(review.diff).toContain(
      '--- a/.github/workflows/cairn-review.yml\n+++ b/.github/workflows/cairn-review.yml\n',
    )
    expect(review.diff).toContain(`-  CAIRN_PACKAGE: "cairn-memory@0.0.9"\n+  CAIRN_PACKAGE: "${PIN}"\n`)
    const created = r.data.files.find(f => f.file.endsWith('cairn-approve.yml'))!
    expect(created.diff?.startsWith('--- /dev/null\n+++ b/.github/workflows/cairn-approve.yml\n')).toBe(true)
    expect(renderCiInstall(r.data).split('\n').at(-1)).toBe('Dry run: nothing was written.')
    // The diff applies: git takes it as it is.
    const patch = path.join(tempDir(), 'ci.patch')
    fs.writeFileSync(
      patch,
      `${r.data.files
        .map(f => f.diff)
        .filter(Boolean)
        .join('\n')}\n`,
    )
    repo.git('apply', patch)
    for (const n of NAMES) expect(repo.read(`.github/workflows/${n}`)).toBe(rendered(n))
  })

  it('outside an initialised store exits 3 and writes nothing', async () => {
    const repo = tempRepo()
    expect((await refusal(() => ciInstall(repo.ctx()))).exitCode).toBe(3)
    expect(fs.existsSync(path.join(repo.dir, '.github'))).toBe(false)
    const bare = tempDir()
    const r = await cli(['ci', 'install', '--json'], {cwd: bare})
    expect([r.code, r.json().ok, r.json().error.code]).toEqual([3, false, expect.stringMatching(/^not_/)])
    expect(fs.readdirSync(bare)).toEqual([])
  })
})

const RUNNING = {name: 'cairn-memory', version: pkg.version}
const SHA = '0123456789abcdef0123456789abcdef01234567'
const TARBALL = 'https://github.com/acme/cairn/releases/download/v0.1.0/cairn-memory-0.1.0.tgz'
const INSTEAD =
  '"cairn ci install --package <spec>" with the https:// URL of its tarball, which npm pack makes, or a git URL ' +
  'such as github:owner/repo#<commit sha>'
const workflows = (repo: Repo) => NAMES.map(n => repo.read(`.github/workflows/${n}`))

describe('cairn ci install --package', () => {
  it('pins every workflow to a version, a tarball URL or a git URL, and changes nothing else of the template', async () => {
    const repo = await initRepo()
    for (const [spec, pin] of [
      ['cairn-memory@0.2.0', 'cairn-memory@0.2.0'],
      ['0.3.0', 'cairn-memory@0.3.0'],
      [TARBALL, TARBALL],
      [`git+https://github.com/acme/cairn.git#${SHA}`, `git+https://github.com/acme/cairn.git#${SHA}`],
      [`github:acme/cairn#${SHA}`, `github:acme/cairn#${SHA}`],
    ]) {
      const r = await ciInstall(repo.ctx(), {pkg: spec})
      expect([r.data.package, r.data.packageFrom, r.data.changed, r.warnings]).toEqual([pin, 'flag', true, []])
      expect(workflows(repo)).toEqual(NAMES.map(n => rendered(n, pin)))
    }
  })

  it('warns that a git tag or branch can move, and says how to pin a commit', async () => {
    const repo = await initRepo()
    const r = await ciInstall(repo.ctx(), {pkg: 'github:acme/cairn#v0.1.0'})
    expect(r.warnings).toEqual([
      'github:acme/cairn#v0.1.0 names a tag or a branch, which can move, so two runs may install different code. ' +
        'Pin a commit to be sure: --package github:acme/cairn#<commit sha>.',
    ])
    expect(pinnedPackage(repo.read('.github/workflows/cairn-review.yml'))).toBe('github:acme/cairn#v0.1.0')
  })

  it('refuses a spec that floats or that the runner cannot fetch: exit 2, the fix, and nothing written', async () => {
    const repo = await initRepo()
    await ciInstall(repo.ctx())
    const before = snapshot(repo)
    const err = await refusal(() => ciInstall(repo.ctx(), {pkg: 'cairn-memory@latest'}))
    expect([err.code, err.exitCode, err.message]).toEqual([
      'usage',
      2,
      'The package "cairn-memory@latest" is a range or a dist-tag, so the workflows would install whatever it points ' +
        `to on the day they run. Fix: pin an exact version, such as --package cairn-memory@${pkg.version}.`,
    ])
    for (const bad of ['cairn-memory', './cairn-memory-0.1.0.tgz', 'http://example.com/c.tgz', 'github:acme/cairn', ''])
      expect((await refusal(() => ciInstall(repo.ctx(), {pkg: bad}))).exitCode, bad).toBe(2)
    expect(snapshot(repo)).toEqual(before)
    const fresh = await initRepo()
    const r = await cliInProcess(['ci', 'install', '--package', 'github:acme/cairn'], {cwd: fresh.dir, env: fresh.env})
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'cairn: The package "github:acme/cairn" names no commit, tag or branch, so the workflows would install ' +
        'whatever the default branch holds on the day they run. Fix: add one, such as github:acme/cairn#<commit sha>.\n',
    ])
    expect(fs.existsSync(path.join(fresh.dir, '.github'))).toBe(false)
  })

  it('run again without --package, keeps the URL the workflows pin; --package replaces it; a version follows the cairn that runs', async () => {
    const repo = await initRepo()
    await ciInstall(repo.ctx(), {pkg: TARBALL})
    const again = await ciInstall(repo.ctx())
    expect([again.data.package, again.data.packageFrom, again.data.changed]).toEqual([TARBALL, 'workflows', false])
    expect(renderCiInstall(again.data)).toBe(
      [
        `cairn's workflows are in place (${TARBALL}); nothing changed.`,
        'The pin is the one the workflows had; "cairn ci install --package <spec>" changes it.',
      ].join('\n'),
    )
    // A workflow a newer cairn adds, or one deleted, gets the same pin.
    fs.rmSync(path.join(repo.dir, '.github/workflows/cairn-maintain.yml'))
    const mended = await ciInstall(repo.ctx())
    expect(mended.data.files.map(f => f.action)).toEqual(['unchanged', 'created', 'unchanged', 'unchanged'])
    expect(workflows(repo)).toEqual(NAMES.map(n => rendered(n, TARBALL)))

    const git = `github:acme/cairn#${SHA}`
    expect((await ciInstall(repo.ctx(), {pkg: git})).data.packageFrom).toBe('flag')
    expect((await ciInstall(repo.ctx())).data.package).toBe(git)
    await ciInstall(repo.ctx(), {pkg: 'cairn-memory@0.0.9'})
    const follows = await ciInstall(repo.ctx())
    expect([follows.data.package, follows.data.packageFrom]).toEqual([PIN, 'running'])
    expect(workflows(repo)).toEqual(NAMES.map(n => rendered(n)))
  })

  it("each workflow's install step: a version or a tarball runs no install script; a git URL runs cairn's prepare, which builds it", () => {
    const dir = tempDir()
    const bin = path.join(dir, 'bin')
    const args = path.join(dir, 'npm-args')
    fs.mkdirSync(bin)
    // npm at the edge: it writes down what it was asked to do.
    fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\nprintf "%s\\n" "$@" > "$NPM_ARGS"\n', {mode: 0o755})
    const specs = [
      'cairn-memory@0.1.0',
      TARBALL,
      `github:acme/cairn#${SHA}`,
      `gitlab:acme/cairn#${SHA}`,
      `bitbucket:acme/cairn#${SHA}`,
      `git+https://github.com/acme/cairn.git#${SHA}`,
      `git+ssh://git@github.com/acme/cairn.git#${SHA}`,
    ]
    for (const t of readWorkflowTemplates(packageWorkflowsRoot())) {
      const wf = parse(t.text) as {jobs: Record<string, {steps: {name?: string; run?: string}[]}>}
      const install = Object.values(wf.jobs)
        .flatMap(j => j.steps)
        .filter(s => s.name === 'Install cairn (pinned, outside the checkout)')
      expect(install, t.name).toHaveLength(1)
      for (const spec of specs) {
        const parsed = parsePackageSpec(spec, RUNNING)
        const scripts = parsed.ok && parsed.spec.kind === 'git' ? '--foreground-scripts' : '--ignore-scripts'
        const env = {
          PATH: `${bin}${path.delimiter}${process.env.PATH}`,
          RUNNER_TEMP: dir,
          CAIRN_PACKAGE: spec,
          NPM_ARGS: args,
        }
        // As GitHub runs a step: bash --noprofile --norc -eo pipefail.
        const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', install[0].run!], {
          env,
          encoding: 'utf8',
        })
        expect([r.status, r.stderr], `${t.name} ${spec}`).toEqual([0, ''])
        expect(fs.readFileSync(args, 'utf8').split('\n').filter(Boolean), `${t.name} ${spec}`).toEqual([
          'install',
          '--prefix',
          `${dir}/cairn`,
          '--no-save',
          scripts,
          '--no-audit',
          '--no-fund',
          spec,
        ])
      }
    }
  })
})

interface FakeRegistry {
  url: string
  /** Each request's path and Accept header, in order. */
  requests: {path: string; accept: string}[]
}
const servers: http.Server[] = []
afterAll(async () => {
  for (const s of servers) s.closeAllConnections()
  await Promise.all(servers.map(s => new Promise(resolve => s.close(resolve))))
})

/** The npm registry at its edge: a server on a local port; each document path answers as given, 'hang' never. */
async function fakeRegistry(answers: Record<string, {status: number; body?: unknown} | 'hang'>): Promise<FakeRegistry> {
  const requests: FakeRegistry['requests'] = []
  const server = http.createServer((req, res) => {
    requests.push({path: req.url ?? '', accept: String(req.headers.accept)})
    const answer = answers[req.url ?? ''] ?? {status: 404, body: {error: 'Not found'}}
    if (answer === 'hang') return
    res.writeHead(answer.status, {'content-type': 'application/json'})
    res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}))
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests}
}

const document = (...versions: string[]) => ({
  status: 200,
  body: {name: 'cairn-memory', versions: Object.fromEntries(versions.map(v => [v, {version: v}]))},
})
const askedAt = (repo: Repo, url: string) => repo.ctx({env: {...repo.env, CAIRN_NPM_REGISTRY: url}})

describe('cairn ci install: is the pinned version on the npm registry?', () => {
  it('a published version: no warning; the abbreviated document of the package is what is asked for', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({'/cairn-memory': document('0.0.9', pkg.version)})
    const r = await ciInstall(askedAt(repo, npm.url))
    expect([r.data.registry, r.warnings]).toEqual(['published', []])
    expect(npm.requests).toEqual([
      {path: '/cairn-memory', accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8'},
    ])
  })

  it('a version the registry lacks, or a package it has never heard of: a warning with what to do, and the workflows are written', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({'/cairn-memory': document('0.0.9'), '/@acme%2fcairn-memory': document('1.0.0')})
    const r = await ciInstall(askedAt(repo, npm.url))
    expect([r.data.registry, r.data.changed]).toEqual(['missing', true])
    expect(r.warnings).toEqual([
      `${PIN} is not on the registry at ${npm.url}, so the workflows will fail to install it. ` +
        `Publish it, or pin a build the runner can fetch: ${INSTEAD}.`,
    ])
    expect(workflows(repo)).toEqual(NAMES.map(n => rendered(n)))
    // --package names the version asked about; a scoped name is asked for as npm asks for it.
    expect((await ciInstall(askedAt(repo, npm.url), {pkg: '0.0.9'})).data.registry).toBe('published')
    expect((await ciInstall(askedAt(repo, npm.url), {pkg: '@acme/cairn-memory@1.0.0'})).data.registry).toBe('published')
    const unknownPackage = await ciInstall(askedAt(repo, npm.url), {pkg: 'cairn-memry@1.0.0'})
    expect([unknownPackage.data.registry, unknownPackage.warnings?.[0]?.split(',')[0]]).toEqual([
      'missing',
      `cairn-memry@1.0.0 is not on the registry at ${npm.url}`,
    ])
    expect(npm.requests.map(q => q.path)).toEqual([
      '/cairn-memory',
      '/cairn-memory',
      '/@acme%2fcairn-memory',
      '/cairn-memry',
    ])
  })

  it('a registry that fails, answers nonsense or cannot be reached: a softer warning that it could not check, never a failure', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({'/cairn-memory': {status: 500, body: 'oops'}})
    const nonsense = await fakeRegistry({'/cairn-memory': {status: 200, body: '<html>'}})
    const closed = await fakeRegistry({})
    await new Promise(resolve => servers.pop()!.close(resolve))
    for (const url of [npm.url, nonsense.url, closed.url]) {
      const r = await ciInstall(askedAt(repo, url))
      expect([r.data.registry, r.warnings], url).toEqual([
        'unknown',
        [
          `Could not check whether ${PIN} is on the registry at ${url}: no clear answer came back. If it is not published, ` +
            `the workflows will fail to install it; then publish it, or run ${INSTEAD}.`,
        ],
      ])
    }
    expect(workflows(repo)).toEqual(NAMES.map(n => rendered(n)))
  })

  it('a registry that does not answer in time is not checked', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({'/cairn-memory': 'hang'})
    const registry = openNpmRegistry(askedAt(repo, npm.url), 50)
    expect(await registry.published('cairn-memory', pkg.version)).toBe('unknown')
    expect(npm.requests.map(q => q.path)).toEqual(['/cairn-memory'])
  })

  it('asks nothing about a URL, or with CAIRN_NPM_REGISTRY=off; by default it asks registry.npmjs.org', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({})
    for (const spec of [TARBALL, `github:acme/cairn#${SHA}`]) {
      const r = await ciInstall(askedAt(repo, npm.url), {pkg: spec})
      expect([r.data.registry, r.warnings]).toEqual(['not_checked', []])
    }
    expect(npm.requests).toEqual([])
    const off = await ciInstall(askedAt(repo, 'off'), {pkg: PIN})
    expect([off.data.registry, off.warnings]).toEqual(['not_checked', []])
    const {CAIRN_NPM_REGISTRY: _off, ...unset} = repo.env
    expect(openNpmRegistry(repo.ctx({env: unset as Record<string, string>})).url).toBe('https://registry.npmjs.org')
    expect(openNpmRegistry(askedAt(repo, 'https://npm.example.com/')).url).toBe('https://npm.example.com')
  })

  it('the CLI prints the warning on stderr and puts it in the --json envelope, exit 0', async () => {
    const repo = await initRepo()
    const npm = await fakeRegistry({'/cairn-memory': {status: 404, body: {error: 'Not found'}}})
    const env = {...repo.env, CAIRN_NPM_REGISTRY: npm.url}
    const warning =
      `${PIN} is not on the registry at ${npm.url}, so the workflows will fail to install it. ` +
      `Publish it, or pin a build the runner can fetch: ${INSTEAD}.`
    const text = await cliInProcess(['ci', 'install'], {cwd: repo.dir, env})
    expect([text.code, text.stderr]).toEqual([0, `warning: ${warning}\n`])
    const json = await cliInProcess(['ci', 'install', '--json'], {cwd: repo.dir, env})
    expect([json.code, json.json().data.registry, json.json().warnings]).toEqual([0, 'missing', [warning]])
  })
})
