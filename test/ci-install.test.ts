import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ciInstall} from '../src/app/ci-install.js'
import {renderCiInstall} from '../src/cli/render-ci-install.js'
import {pinnedPackage} from '../src/domain/ci/workflows.js'
import {packageWorkflowsRoot} from '../src/store/agents/workflow-files.js'
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
