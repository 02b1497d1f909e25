import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {orgAdd} from '../src/app/org.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {orgCacheDir} from '../src/store/org/org-cache.js'
import {card, cli, type Repo, tempDir, tempRepo, templateRepo} from './helpers.js'

const ID = 'deepmerge-array-replace-trap'
const BRANCH = `cairn/promote/${ID}`
const FILE = `.cairn/pending/pitfall/${ID}.md`
const CARD = `.cairn/cards/pitfall/${ID}.md`

const bareGit = (bare: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', bare, ...args], {
    encoding: 'utf8',
    env: {...process.env, GIT_CONFIG_NOSYSTEM: '1'},
    stdio: 'pipe',
  })

/** An org store in its own repository, served by a bare repository the project subscribes to as "acme". */
async function orgRemote(): Promise<{org: Repo; bare: string}> {
  const org = tempRepo()
  await init(org.ctx())
  const bare = path.join(tempDir(), 'org.git')
  execFileSync('git', ['clone', '-q', '--bare', org.dir, bare])
  return {org, bare}
}

/** A project with one active card; its org layer is added per test (the URL is a temp dir of that test). */
const projectRepo = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx({stdin: JSON.stringify(card())}), {file: '-'})
  await approve(repo.ctx(), {all: true})
})

async function setup(): Promise<{proj: Repo; bare: string; org: Repo; cache: string}> {
  const {org, bare} = await orgRemote()
  const proj = await projectRepo()
  await orgAdd(proj.ctx(), {url: bare, name: 'acme'})
  return {proj, bare, org, cache: path.join(orgCacheDir(proj.ctx(), bare), 'repo.git')}
}

const promote = (proj: Repo, ...args: string[]) => cli(['org', 'promote', ...args], {cwd: proj.dir, env: proj.env})
const head = (repo: Repo) => repo.git('rev-parse', 'HEAD').trim()
const branches = (bare: string) => bareGit(bare, 'for-each-ref', '--format=%(refname)', 'refs/heads').trim().split('\n')

describe('cairn org promote', () => {
  it('commits the card as pending on a new branch of the org repository, pushes it, and records the link in one project commit', async () => {
    const {proj, bare} = await setup()
    const before = head(proj)
    const r = await promote(proj, ID)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const commit = bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim()
    const projectCommit = head(proj)
    expect(r.stdout).toBe(
      [
        `Proposed ${ID} to the org layer acme: ${FILE} on the branch ${BRANCH} (${commit.slice(0, 7)}).`,
        `Pushed to ${bare}; open a pull request from ${BRANCH} there, and the org's review decides.`,
        `The project card records it: commit ${projectCommit.slice(0, 7)}`,
        '',
      ].join('\n'),
    )
    // The org side: one commit on top of main, adding the pending card alone, with a cairn propose message.
    expect(branches(bare)).toEqual([`refs/heads/${BRANCH}`, 'refs/heads/main'])
    expect(bareGit(bare, 'rev-parse', `${commit}^`).trim()).toBe(bareGit(bare, 'rev-parse', 'main').trim())
    expect(bareGit(bare, 'diff-tree', '--no-commit-id', '--name-status', '-r', commit)).toBe(`A\t${FILE}\n`)
    expect(bareGit(bare, 'log', '-1', '--format=%B', commit)).toBe(
      [
        `cairn(propose): propose ${ID}`,
        '',
        'Promoted from a project without a remote by "cairn org promote"; the org\'s review decides.',
        '',
        'Cairn-Op: propose',
        `Cairn-Card: ${ID}`,
        'Cairn-Actor: tester',
        'Cairn-Format: 1',
        '',
        '',
      ].join('\n'),
    )
    const orgCard = parseCard(bareGit(bare, 'show', `${commit}:${FILE}`), FILE)
    const projectCard = parseCard(proj.read(CARD), CARD)
    expect(orgCard).toMatchObject({id: ID, status: 'pending', schema: 'cairn/card@5', approved: null})
    expect(orgCard.provenance.promoted).toBeNull()
    expect({title: orgCard.title, summary: orgCard.summary, body: orgCard.body}).toEqual({
      title: projectCard.title,
      summary: projectCard.summary,
      body: projectCard.body,
    })
    // The project side: the card records layer, branch and commit, in one commit touching that card alone.
    expect(projectCard.schema).toBe('cairn/card@6')
    expect(projectCard.provenance.promoted).toEqual({layer: 'acme', branch: BRANCH, commit})
    expect(proj.git('rev-parse', `${projectCommit}^`).trim()).toBe(before)
    expect(proj.git('log', '-1', '--format=%s')).toBe(`cairn(org): promote ${ID} to org layer acme (${BRANCH})\n`)
    expect(proj.git('show', '--name-only', '--format=', projectCommit)).toBe(`${CARD}\n`)
    expect(proj.git('status', '--porcelain')).toBe('')
  })

  it('is idempotent: the same card again reuses its branch and commits nothing; a changed card gets the next branch', async () => {
    const {proj, bare} = await setup()
    await promote(proj, ID)
    const first = bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim()
    const projectHead = head(proj)
    const again = await promote(proj, ID, '--json')
    expect(again.code).toBe(0)
    expect(again.json().data).toEqual({
      id: ID,
      layer: 'acme',
      url: bare,
      outcome: 'unchanged',
      branch: BRANCH,
      commit: first,
      file: FILE,
      pushed: true,
      pushError: null,
      pushCommand: null,
      projectCommit: null,
    })
    expect(head(proj)).toBe(projectHead)
    expect(branches(bare)).toEqual([`refs/heads/${BRANCH}`, 'refs/heads/main'])

    const changed = await cli(['review', 'modify', ID, '--set', 'title=deepMerge replaces arrays in hook config'], {
      cwd: proj.dir,
      env: proj.env,
    })
    expect(changed.code).toBe(0)
    const next = await promote(proj, ID, '--json')
    expect(next.code).toBe(0)
    const second = bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}-2`).trim()
    expect(next.json().data).toMatchObject({outcome: 'proposed', branch: `${BRANCH}-2`, commit: second, pushed: true})
    expect(parseCard(proj.read(CARD), CARD).provenance.promoted).toEqual({
      layer: 'acme',
      branch: `${BRANCH}-2`,
      commit: second,
    })
    expect(bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim()).toBe(first)
  })

  it('refuses an id the org already has with other text, writing nothing; the same card there is reported as in the org', async () => {
    const {proj, bare, org} = await setup()
    await propose(org.ctx({stdin: JSON.stringify(card({summary: 'Another text for the same id.'}))}), {file: '-'})
    org.git('push', '-q', bare, 'main')
    const projectHead = head(proj)
    const refs = bareGit(bare, 'for-each-ref')
    const r = await promote(proj, ID)
    expect(r.code).toBe(5)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      `The org layer "acme" already has a card "${ID}" (${FILE} on main) that says something else. Nothing was written. Fix: change the card there through the org's own review, or give the project card another id and promote that.`,
    )
    expect(bareGit(bare, 'for-each-ref')).toBe(refs)
    expect(head(proj)).toBe(projectHead)

    // The org's copy made the same as the project's: nothing to propose, the link names the org's ref.
    const same = await orgRemote()
    const proj2 = await projectRepo()
    await orgAdd(proj2.ctx(), {url: same.bare, name: 'acme'})
    fs.mkdirSync(path.join(same.org.dir, '.cairn/cards/pitfall'), {recursive: true})
    same.org.write(CARD, proj2.read(CARD))
    same.org.git('add', '-A')
    same.org.git('commit', '-q', '-m', 'the same card')
    same.org.git('push', '-q', same.bare, 'main')
    const inOrg = await promote(proj2, ID, '--json')
    expect(inOrg.code).toBe(0)
    const main = bareGit(same.bare, 'rev-parse', 'main').trim()
    expect(inOrg.json().data).toMatchObject({outcome: 'in-org', branch: 'main', commit: main, file: CARD, pushed: true})
    expect(branches(same.bare)).toEqual(['refs/heads/main'])
  })

  it('keeps the branch in the cache when the push is refused, prints the exact command, and exits 0 with a warning', async () => {
    const {proj, bare, cache} = await setup()
    const hook = path.join(bare, 'hooks', 'pre-receive')
    fs.writeFileSync(hook, '#!/bin/sh\necho "no rights to push here" >&2\nexit 1\n', {mode: 0o755})
    const r = await promote(proj, ID)
    expect(r.code).toBe(0)
    const kept = bareGit(cache, 'rev-parse', `refs/cairn/promote/${ID}`).trim()
    const command = `git --git-dir ${cache} push ${bare} refs/cairn/promote/${ID}:refs/heads/${BRANCH}`
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(
      `Proposed ${ID} to the org layer acme: ${FILE} on the branch ${BRANCH} (${kept.slice(0, 7)}).`,
    )
    expect(lines[1]).toMatch(/^Not pushed: .*no rights to push here.*pre-receive hook declined/)
    expect(lines.slice(2)).toEqual([
      'The branch is kept in the cache. Push it by hand:',
      `  ${command}`,
      `or run "cairn org promote ${ID}" again.`,
      `The project card records it: commit ${head(proj).slice(0, 7)}`,
      '',
    ])
    expect(r.stderr).toContain(`The branch ${BRANCH} could not be pushed to ${bare}:`)
    expect(r.stderr).toContain(
      `It is kept in the cache. Fix: run "cairn org promote ${ID}" again, or push it by hand with ${command}`,
    )
    expect(branches(bare)).toEqual(['refs/heads/main'])
    expect(parseCard(proj.read(CARD), CARD).provenance.promoted).toEqual({layer: 'acme', branch: BRANCH, commit: kept})

    // A fetch (org update) prunes refs/heads/ but never the kept branch; the printed command then pushes it.
    expect((await cli(['org', 'update'], {cwd: proj.dir, env: proj.env})).code).toBe(0)
    fs.rmSync(hook)
    execFileSync('sh', ['-c', command], {env: proj.env, stdio: 'pipe'})
    expect(bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim()).toBe(kept)
    const again = await promote(proj, ID, '--json')
    expect(again.json().data).toMatchObject({outcome: 'unchanged', pushed: true, projectCommit: null})
  })

  it("refuses bad ids, other layers' cards and a missing or unnamed layer, naming the fix and writing nothing", async () => {
    const {proj, bare} = await setup()
    const projectHead = head(proj)
    const cases: [string[], number, string][] = [
      [['Bad Id'], 6, '"Bad Id" is not a valid card id'],
      [['deepmerge-array-replace-tarp'], 4, 'No card with id "deepmerge-array-replace-tarp". Did you mean'],
      [[ID, '--to', 'nope'], 4, 'No org layer named "nope". Fix: name one of "acme".'],
    ]
    for (const [args, code, says] of cases) {
      const r = await promote(proj, ...args)
      expect([r.code, r.stdout], args.join(' ')).toEqual([code, ''])
      expect(r.stderr, args.join(' ')).toContain(says)
    }
    // A personal card is refused with the way to make it a project card.
    await propose(proj.ctx({stdin: JSON.stringify(card({slug: 'personal-habit-of-mine', layer: 'personal'}))}), {
      file: '-',
    })
    const personal = await promote(proj, 'personal-habit-of-mine')
    expect(personal.code).toBe(4)
    expect(personal.stderr).toContain(
      '"personal-habit-of-mine" is a card of the personal store, not of the project. Nothing was written. Fix: propose it to the project first ("cairn propose" with layer team), approve it, then promote it.',
    )
    // Two layers: --to is needed.
    const second = await orgRemote()
    await orgAdd(proj.ctx(), {url: second.bare, name: 'platform'})
    const both = await promote(proj, ID)
    expect(both.code).toBe(2)
    expect(both.stderr).toContain(
      '--to is needed: the project has 2 org layers (acme, platform). Fix: pass --to with one of them.',
    )
    expect(branches(bare)).toEqual(['refs/heads/main'])
    expect(branches(second.bare)).toEqual(['refs/heads/main'])
    expect(proj.git('log', '--format=%s', `${projectHead}..HEAD`)).toBe(
      'cairn(org): add org layer platform at ' + `${bareGit(second.bare, 'rev-parse', 'main').trim().slice(0, 12)}\n`,
    )
  })
})

describe('cairn org promote: concurrent runs and kill -9', () => {
  it('two promotes of the same card at once make one branch and one project commit; two cards make two', async () => {
    const {proj, bare} = await setup()
    await propose(
      proj.ctx({
        stdin: JSON.stringify(
          card({
            slug: 'cron-jobs-must-be-idempotent',
            title: 'Cron jobs must be idempotent',
            summary: 'A cron job may run twice; make it safe to.',
          }),
        ),
      }),
      {file: '-'},
    )
    await approve(proj.ctx(), {all: true})
    const before = head(proj)
    const runs = await Promise.all([
      promote(proj, ID),
      promote(proj, ID),
      promote(proj, 'cron-jobs-must-be-idempotent'),
    ])
    expect(runs.map(r => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ])
    expect(branches(bare)).toEqual([
      'refs/heads/cairn/promote/cron-jobs-must-be-idempotent',
      `refs/heads/${BRANCH}`,
      'refs/heads/main',
    ])
    const subjects = proj.git('log', '--format=%s', `${before}..HEAD`).trim().split('\n').sort()
    expect(subjects).toEqual([
      'cairn(org): promote cron-jobs-must-be-idempotent to org layer acme (cairn/promote/cron-jobs-must-be-idempotent)',
      `cairn(org): promote ${ID} to org layer acme (${BRANCH})`,
    ])
    expect(parseCard(proj.read(CARD), CARD).provenance.promoted).toEqual({
      layer: 'acme',
      branch: BRANCH,
      commit: bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim(),
    })
    expect(proj.git('status', '--porcelain')).toBe('')
  })

  for (const step of ['promote:commit', 'promote:ref', 'promote:pushed', 'before-marker', 'after-marker']) {
    it(`a kill -9 at ${step} leaves the cache and the project consistent, and the next promote finishes the work`, async () => {
      const {proj, bare, cache} = await setup()
      const before = head(proj)
      const text = proj.read(CARD)
      const killed = await cli(['org', 'promote', ID], {cwd: proj.dir, env: {...proj.env, CAIRN_TEST_CRASH: step}})
      expect(killed.code).not.toBe(0)
      expect(killed.stdout).toBe('')
      if (!step.endsWith('-marker')) {
        // Killed in the cache: the project is untouched.
        expect(head(proj)).toBe(before)
        expect(proj.read(CARD)).toBe(text)
        expect(proj.git('status', '--porcelain')).toBe('')
      }
      bareGit(cache, 'fsck', '--no-dangling')
      const r = await promote(proj, ID, '--json')
      expect([r.code, r.stderr]).toEqual([0, ''])
      const commit = bareGit(bare, 'rev-parse', `refs/heads/${BRANCH}`).trim()
      expect(r.json().data).toMatchObject({branch: BRANCH, commit, pushed: true})
      expect(branches(bare)).toEqual([`refs/heads/${BRANCH}`, 'refs/heads/main'])
      expect(bareGit(cache, 'rev-parse', `refs/cairn/promote/${ID}`).trim()).toBe(commit)
      expect(fs.readdirSync(path.dirname(cache)).filter(n => n.startsWith('.tmp-'))).toEqual([])
      expect(parseCard(proj.read(CARD), CARD).provenance.promoted).toEqual({layer: 'acme', branch: BRANCH, commit})
      expect(proj.git('log', '--format=%s', `${before}..HEAD`)).toBe(
        `cairn(org): promote ${ID} to org layer acme (${BRANCH})\n`,
      )
      expect(proj.git('status', '--porcelain')).toBe('')
    })
  }
})
