import fs from 'node:fs'
import path from 'node:path'
import {execFileSync, spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {list} from '../src/app/list.js'
import {orgAdd} from '../src/app/org.js'
import {recall} from '../src/app/recall.js'
import {search} from '../src/app/search.js'
import {show} from '../src/app/show.js'
import {BIN, cli, type Repo, repoCopy, snapshot, tempDir, templateRepo} from './helpers.js'
import {errorLog, plant, settle} from './hook-helpers.js'

/**
 * Every reader shows the org layer's cards (issue 36): `cairn recall`, the prompt hook, list, show, search and MCP
 * read them from the cache at the pinned commit, each card says its layer, and one id in two layers is shown once,
 * from the higher layer (project, then org, then personal). The org remote is a local bare repository.
 */

/**
 * The org store: its own repository with reviewed cards, beside the template project (kept until the file's tests
 * end), and a bare clone of it as the remote the project subscribes to. Returns the remote's path.
 */
async function orgRemote(beside: Repo): Promise<string> {
  const dir = path.join(path.dirname(beside.dir), 'org')
  fs.mkdirSync(dir)
  const run = (...args: string[]) => execFileSync('git', args, {cwd: dir, env: beside.env, encoding: 'utf8'})
  run('init', '-q', '-b', 'main')
  run('config', 'user.name', 'Org Maintainer')
  run('config', 'user.email', 'org@example.com')
  run('config', 'commit.gpgsign', 'false')
  await init(beside.ctx({cwd: dir}))
  const org = {...beside, dir, write: (rel: string, text: string) => writeIn(dir, rel, text)}
  plant(org, 'release-freeze-friday', {
    title: 'No releases on Friday',
    summary: 'The organisation freezes releases from Friday noon.',
    recall: {triggers: ['release freeze', 'friday release']},
  })
  plant(org, 'shared-lesson', {title: 'ORG COPY of the shared lesson', recall: {triggers: ['shared lesson']}})
  plant(org, 'org-over-personal', {
    title: 'ORG COPY over the personal one',
    recall: {triggers: ['org over personal']},
  })
  run('add', '-A')
  run('commit', '-qm', 'org cards')
  const bare = path.join(path.dirname(beside.dir), 'org.git')
  run('clone', '-q', '--bare', dir, bare)
  return bare
}

function writeIn(dir: string, rel: string, text: string): string {
  const file = path.join(dir, rel)
  fs.mkdirSync(path.dirname(file), {recursive: true})
  fs.writeFileSync(file, text)
  return file
}

/** A personal card written straight into the personal store (as recall.test.ts does). */
function personalCard(repo: Repo, id: string, title: string, trigger: string): void {
  const home = repo.env.CAIRN_HOME as string
  fs.mkdirSync(path.join(home, 'cards/guideline'), {recursive: true})
  if (!fs.existsSync(path.join(home, 'config.yaml')))
    fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
  fs.writeFileSync(
    path.join(home, `cards/guideline/${id}.md`),
    `---\nschema: cairn/card@1\nid: ${id}\ntype: guideline\nstatus: active\ntitle: ${title}\nsummary: A personal lesson.\nrecall: {triggers: [${trigger}]}\nscope: {level: global}\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n---\n`,
  )
  if (!fs.existsSync(path.join(home, '.git'))) repo.git('-C', home, 'init', '-q')
}

/**
 * A project subscribed to the org store as "acme", with a project card that collides with an org card, and a
 * personal store whose cards collide with both.
 */
const subscribed = templateRepo(async repo => {
  const url = await orgRemote(repo)
  await init(repo.ctx())
  plant(repo, 'shared-lesson', {title: 'PROJECT COPY of the shared lesson', recall: {triggers: ['shared lesson']}})
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'project card')
  await orgAdd(repo.ctx(), {url, name: 'acme'})
  personalCard(repo, 'shared-lesson', 'PERSONAL COPY of the shared lesson', 'shared lesson')
  personalCard(repo, 'org-over-personal', 'PERSONAL COPY under the org one', 'org over personal')
  personalCard(repo, 'my-own-habit', 'My own habit', 'own habit')
  // The test's copy keeps the remote's path: the org store stays where the template put it.
  fs.writeFileSync(path.join(repo.home, 'org-url'), url)
})

const orgUrl = (repo: Repo): string => fs.readFileSync(path.join(repo.home, 'org-url'), 'utf8')

/** The prompt hook as the client runs it: the real CLI, the payload on stdin. */
function promptHook(repo: Repo, prompt: string) {
  const payload = JSON.stringify({session_id: 's1', cwd: repo.dir, hook_event_name: 'UserPromptSubmit', prompt})
  const r = spawnSync(process.execPath, [BIN, 'hook', 'user-prompt-submit', '--agent', 'claude'], {
    cwd: repo.dir,
    input: payload,
    encoding: 'utf8',
    env: repo.env,
  })
  return {status: r.status, stdout: r.stdout, stderr: r.stderr}
}

const context = (stdout: string): string => (stdout ? JSON.parse(stdout).hookSpecificOutput.additionalContext : '')

describe('org cards in every reader', () => {
  it('cairn recall and the prompt hook recall an org card, naming its layer', async () => {
    const repo = await subscribed()
    const r = await cli(['recall', 'is there a release freeze today', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(0)
    expect(r.json().data.cards.map((c: any) => [c.id, c.store, c.layer, c.path])).toEqual([
      ['release-freeze-friday', 'org', 'org:acme', '.cairn/cards/guideline/release-freeze-friday.md'],
    ])
    const hook = promptHook(repo, 'is there a release freeze today')
    expect(hook.status).toBe(0)
    expect(context(hook.stdout)).toContain('release-freeze-friday')
    await settle(repo)
  })
})
