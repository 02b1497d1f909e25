import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor, type DoctorResult} from '../src/app/doctor.js'
import {orgAdd} from '../src/app/org.js'
import {openStores} from '../src/app/stores.js'
import {orgCacheDir} from '../src/store/org/org-paths.js'
import {inspectPin} from '../src/store/org/org-health.js'
import {cli, initRepo, type Repo} from './helpers.js'
import {makeOrg, type Org} from './org-ci-helpers.js'

const orgChecks = (r: DoctorResult) => r.checks.filter(c => c.store.startsWith('org:'))

/** A project subscribed to a fresh org store with one card. */
async function subscribed(): Promise<{org: Org; project: Repo; commit: string; tree: string}> {
  const org = await makeOrg()
  const project = await initRepo()
  const added = await orgAdd(project.ctx(), {url: org.url})
  const commit = added.layer.commit
  return {org, project, commit, tree: path.join(orgCacheDir(project.ctx(), org.url), 'trees', commit)}
}

const ok = (url: string, commit: string) => [
  {
    store: 'org:org',
    check: 'org-cache',
    status: 'ok',
    detail: `the cache holds ${url} at ${commit.slice(0, 12)}, as committed`,
  },
  {store: 'org:org', check: 'org-remote', status: 'ok', detail: `${url} answers`},
  {
    store: 'org:org',
    check: 'org-pin',
    status: 'ok',
    detail: `a branch or tag upstream holds the pinned commit ${commit.slice(0, 12)}`,
  },
]

describe('cairn doctor: org layers', () => {
  it('reports a healthy layer, also when upstream moved on past the pin (the new commits are fetched to tell)', async () => {
    const {org, project, commit} = await subscribed()
    expect(orgChecks(await doctor(project.ctx()))).toEqual(ok(org.url, commit))
    await org.addCard('every-cron-job-is-idempotent')
    const report = await doctor(project.ctx())
    expect(orgChecks(report)).toEqual(ok(org.url, commit))
    expect(report.healthy).toBe(true)
    // The pin did not move, and config.yaml is as it was.
    expect(project.read('.cairn/config.yaml')).toContain(`commit: ${commit}`)
    expect(project.git('status', '--porcelain')).toBe('')
  })

  it('speaks Chinese in a zh-CN store', async () => {
    const {org, project, commit} = await subscribed()
    const file = '.cairn/config.yaml'
    project.write(file, project.read(file).replace('knowledge_language: en', 'knowledge_language: zh-CN'))
    project.git('commit', '-qam', 'speak Chinese')
    fs.rmSync(orgCacheDir(project.ctx(), org.url), {recursive: true, force: true})
    expect(orgChecks(await doctor(project.ctx()))).toEqual([
      {
        store: 'org:org',
        check: 'org-cache',
        status: 'warning',
        detail: `缓存中没有 ${org.url} 在 ${commit.slice(0, 12)} 的副本：获取之前，这一层的卡片不会被读到`,
        fix: '运行 "cairn org fetch"',
      },
      {store: 'org:org', check: 'org-remote', status: 'ok', detail: `${org.url} 有响应`},
    ])
  })

  it('reports a missing cache with the fix, and neither doctor nor the CLI command fetches it', async () => {
    const {org, project, commit} = await subscribed()
    const cache = orgCacheDir(project.ctx(), org.url)
    fs.rmSync(cache, {recursive: true, force: true})
    const report = await doctor(project.ctx())
    expect(orgChecks(report)).toEqual([
      {
        store: 'org:org',
        check: 'org-cache',
        status: 'warning',
        detail: `the cache has no copy of ${org.url} at ${commit.slice(0, 12)}: the layer's cards are left out until it is fetched`,
        fix: 'run "cairn org fetch"',
      },
      {store: 'org:org', check: 'org-remote', status: 'ok', detail: `${org.url} answers`},
    ])
    expect(report.healthy).toBe(true)
    const run = await cli(['doctor'], {cwd: project.dir, env: project.env})
    expect(run.stdout).toContain(
      `warn  org:org  org-cache     the cache has no copy of ${org.url} at ${commit.slice(0, 12)}: the layer's cards are left out until it is fetched\n`,
    )
    expect(run.stdout).toContain('fix: run "cairn org fetch"\n')
    expect(run.code).toBe(0)
    expect(fs.existsSync(cache)).toBe(false)
  })

  it('reports a cached copy that does not match its pin (the derived .cache/ aside), and --fix makes it again', async () => {
    const {project, commit, tree} = await subscribed()
    const card = path.join(tree, '.cairn/cards/guideline/never-log-personal-data.md')
    const original = fs.readFileSync(card, 'utf8')
    fs.writeFileSync(card, original.replace('The org says', 'Someone edited'))
    fs.writeFileSync(path.join(tree, '.cairn/cards/guideline/planted.md'), 'planted\n')
    fs.rmSync(path.join(tree, '.cairn/.gitattributes'))
    fs.mkdirSync(path.join(tree, '.cairn/.cache'), {recursive: true})
    fs.writeFileSync(path.join(tree, '.cairn/.cache/derived.json'), '{}\n')
    const report = await doctor(project.ctx())
    expect(orgChecks(report)[0]).toEqual({
      store: 'org:org',
      check: 'org-cache',
      status: 'error',
      detail: `the cache's copy at ${commit.slice(0, 12)} does not match the commit: 1 file(s) changed, 1 added, 1 removed (first: .cairn/cards/guideline/never-log-personal-data.md)`,
      fix: 'run "cairn doctor --fix" to make the copy again from the commit',
    })
    expect(report.healthy).toBe(false)
    const fixed = await doctor(project.ctx(), {fix: true})
    expect(fixed.fixed).toEqual([`made the cache's copy of the org layer org at ${commit.slice(0, 12)} again`])
    expect(orgChecks(fixed)[0].status).toBe('ok')
    expect(fs.readFileSync(card, 'utf8')).toBe(original)
    expect(fs.existsSync(path.join(tree, '.cairn/cards/guideline/planted.md'))).toBe(false)
    expect(fs.readdirSync(path.dirname(tree))).toEqual([commit])
    // Nothing left to remake: a second --fix repairs nothing.
    expect((await doctor(project.ctx(), {fix: true})).fixed).toEqual([])
  })

  it('two doctor --fix at once leave one whole copy; a kill -9 midway leaves a copy the next command makes again', async () => {
    const {project, commit, tree} = await subscribed()
    const card = path.join(tree, '.cairn/cards/guideline/never-log-personal-data.md')
    const original = fs.readFileSync(card, 'utf8')
    fs.writeFileSync(card, 'tampered\n')
    await Promise.all([doctor(project.ctx(), {fix: true}), doctor(project.ctx(), {fix: true})])
    expect(fs.readFileSync(card, 'utf8')).toBe(original)
    expect(fs.readdirSync(path.dirname(tree))).toEqual([commit])
    fs.writeFileSync(card, 'tampered\n')
    const killed = await cli(['doctor', '--fix'], {
      cwd: project.dir,
      env: {...project.env, CAIRN_TEST_CRASH: 'org-remake-aside'},
    })
    expect(killed.code).toBe(-1)
    expect(fs.existsSync(tree)).toBe(false)
    // The next command that reads cards fetches the missing copy; the lock's sweep removes the one set aside.
    const listed = await cli(['list', '--json'], {cwd: project.dir, env: project.env})
    expect(listed.code).toBe(0)
    expect(fs.readFileSync(card, 'utf8')).toBe(original)
    expect(fs.readdirSync(path.dirname(tree))).toEqual([commit])
    expect(orgChecks(await doctor(project.ctx()))[0].status).toBe('ok')
  })

  it('reports an unreachable remote as a warning; the cache is still used', async () => {
    const {org, project, commit} = await subscribed()
    fs.renameSync(org.url, `${org.url}.moved`)
    const report = await doctor(project.ctx())
    expect(orgChecks(report)).toEqual([
      ok(org.url, commit)[0],
      {
        store: 'org:org',
        check: 'org-remote',
        status: 'warning',
        detail: `${org.url} cannot be reached ('${org.url}' does not appear to be a git repository); the cache is still used`,
        fix: `check the URL and that your git credentials can read it: git ls-remote ${org.url}`,
      },
    ])
    expect(report.healthy).toBe(true)
    const layers = openStores(project.ctx()).layers()
    expect(layers.map(s => s.org?.name ?? s.kind)).toEqual(['project', 'org'])
  })

  it('gives up on a remote that does not answer within the bound', async () => {
    const {project, commit} = await subscribed()
    const ctx = project.ctx({env: {...(project.env as Record<string, string>), GIT_SSH_COMMAND: 'sleep 3;'}})
    const pin = {name: 'slow', url: 'ssh://git.example.invalid/org.git', ref: 'main', commit}
    expect(await inspectPin(ctx, pin, 300)).toEqual({
      tree: 'missing',
      remote: {reachable: false, reason: 'no answer within 1 s'},
      upstream: null,
    })
  })

  it('reports a pin that no branch or tag upstream holds any more as an error with the fix', async () => {
    const {org, project, commit} = await subscribed()
    const remote = (...args: string[]) => org.repo.git('--git-dir', org.url, ...args)
    remote('update-ref', 'refs/heads/main', `${commit}~1`)
    const report = await doctor(project.ctx())
    expect(orgChecks(report)[2]).toEqual({
      store: 'org:org',
      check: 'org-pin',
      status: 'error',
      detail: `no branch or tag of ${org.url} holds the pinned commit ${commit.slice(0, 12)} any more: a machine without this cache cannot fetch it`,
      fix: 'run "cairn org update org" to pin the head of its ref',
    })
    expect(report.healthy).toBe(false)
    // A tag that holds it is enough.
    remote('tag', 'v1', commit)
    expect(orgChecks(await doctor(project.ctx()))[2].status).toBe('ok')
  })
})
