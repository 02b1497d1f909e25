import fs from 'node:fs'
import path from 'node:path'
import {execFileSync, spawnSync} from 'node:child_process'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {list} from '../src/app/list.js'
import {orgAdd} from '../src/app/org.js'
import {recall} from '../src/app/recall.js'
import {search} from '../src/app/search.js'
import {show} from '../src/app/show.js'
import {BIN, card, cli, type Repo, repoCopy, snapshot, tempDir, templateRepo} from './helpers.js'
import {errorLog, feed, plant, settle} from './hook-helpers.js'
import {parseCard, renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {scopeGate} from '../src/recall/match/gates.js'

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
  const org = {...beside, dir, write: (rel: string, text: string | Buffer) => writeIn(dir, rel, text)}
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
  plant(org, 'deploy-window-for-web-apps', {
    title: 'Deploy the web apps in the window',
    recall: {triggers: ['deploy window']},
    scope: {level: 'project', project_key: ['github.com/acme/api', 'github.com/Acme/Web.git'], paths: []},
  })
  plant(org, 'org-core-release-checklist', {load: 'core', title: 'Org release checklist'}, 'Tag, then announce.')
  plant(org, 'org-migrations-need-review', {
    title: 'Org migrations need review',
    scope: {level: 'project', project_key: null, module_path: null, paths: ['db/migrations/**']},
  })
  plant(org, 'org-old-rule', {title: 'An old org rule', recall: {triggers: ['old org rule']}})
  run('add', '-A')
  run('commit', '-qm', 'org cards')
  const ctx = beside.ctx({cwd: dir})
  await propose(ctx, {
    fields: card({slug: 'pending-org-wide-idea', title: 'A pending org idea', summary: 'Waiting for the org review.'}),
  })
  await archive(ctx, {ids: ['org-old-rule']})
  const bare = path.join(path.dirname(beside.dir), 'org.git')
  run('clone', '-q', '--bare', dir, bare)
  return bare
}

function writeIn(dir: string, rel: string, text: string | Buffer): string {
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
    const explained = await cli(['recall', 'is there a release freeze today', '--explain'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(explained.stdout.split('\n').filter(l => l.startsWith('release-freeze-friday '))).toEqual([
      'release-freeze-friday [may] org:acme — selected',
    ])
    const hook = promptHook(repo, 'is there a release freeze today')
    expect(hook.status).toBe(0)
    expect(context(hook.stdout)).toContain('release-freeze-friday')
    await settle(repo)
  })
})

describe('precedence: project over org over personal', () => {
  it('shows one id once, from the higher layer, in recall, show, list and search', async () => {
    const repo = await subscribed()
    const r = await recall(repo.ctx(), {prompt: 'the shared lesson, org over personal, and my own habit'})
    expect(r.cards.map(c => `${c.id} ${c.store} ${c.layer ?? '-'} ${c.title}`).sort()).toEqual([
      'my-own-habit personal - My own habit',
      'org-over-personal org org:acme ORG COPY over the personal one',
      'shared-lesson project - PROJECT COPY of the shared lesson',
    ])
    const shared = await show(repo.ctx(), {id: 'shared-lesson'})
    expect([shared.store, shared.layer, shared.card.title]).toEqual([
      'project',
      undefined,
      'PROJECT COPY of the shared lesson',
    ])
    const over = await show(repo.ctx(), {id: 'org-over-personal'})
    expect([over.store, over.layer, over.path, over.card.title]).toEqual([
      'org',
      'org:acme',
      '.cairn/cards/guideline/org-over-personal.md',
      'ORG COPY over the personal one',
    ])
    // --store personal still reaches the personal copy an org card overrides.
    expect((await show(repo.ctx(), {id: 'org-over-personal', store: 'personal'})).card.title).toBe(
      'PERSONAL COPY under the org one',
    )
    const listed = await list(repo.ctx())
    expect(listed.cards.map(c => `${c.id} ${c.store} ${c.layer ?? '-'} ${c.title}`)).toEqual([
      'shared-lesson project - PROJECT COPY of the shared lesson',
      'pending-org-wide-idea org org:acme A pending org idea',
      'deploy-window-for-web-apps org org:acme Deploy the web apps in the window',
      'org-core-release-checklist org org:acme Org release checklist',
      'org-migrations-need-review org org:acme Org migrations need review',
      'org-over-personal org org:acme ORG COPY over the personal one',
      'release-freeze-friday org org:acme No releases on Friday',
      'my-own-habit personal - My own habit',
    ])
    const found = await search(repo.ctx(), {pattern: 'COPY', fixedStrings: true})
    expect(found.hits.map(h => `${h.store} ${h.layer ?? '-'} ${h.id}:${h.line} ${h.text}`)).toEqual([
      'project - shared-lesson:6 title: PROJECT COPY of the shared lesson',
      'org org:acme org-over-personal:6 title: ORG COPY over the personal one',
    ])
    expect(found.files).toBe(2)
  })

  it('names the layer in the text of list and search, and in their --json', async () => {
    const repo = await subscribed()
    const listed = await cli(['list'], {cwd: repo.dir, env: repo.env})
    expect(listed.code).toBe(0)
    expect(listed.stdout.split('\n').map(l => l.replace(/\s+/g, ' ').trim())).toEqual([
      'ID TYPE STATUS LOAD STORE TITLE',
      'shared-lesson guideline active recall project PROJECT COPY of the shared lesson',
      'pending-org-wide-idea pitfall pending recall org:acme A pending org idea',
      'deploy-window-for-web-apps guideline active recall org:acme Deploy the web apps in the window',
      'org-core-release-checklist guideline active core org:acme Org release checklist',
      'org-migrations-need-review guideline active recall org:acme Org migrations need review',
      'org-over-personal guideline active recall org:acme ORG COPY over the personal one',
      'release-freeze-friday guideline active recall org:acme No releases on Friday',
      'my-own-habit guideline active recall personal My own habit',
      '',
    ])
    const json = (await cli(['list', '--json'], {cwd: repo.dir, env: repo.env})).json()
    expect(json.data.cards[5]).toEqual({
      id: 'org-over-personal',
      type: 'guideline',
      status: 'active',
      load: 'recall',
      store: 'org',
      layer: 'org:acme',
      title: 'ORG COPY over the personal one',
      path: '.cairn/cards/guideline/org-over-personal.md',
      deferred_until: null,
    })
    expect(json.data.cards[0]).not.toHaveProperty('layer')
    const found = await cli(['search', 'Friday noon'], {cwd: repo.dir, env: repo.env})
    expect(found.stdout.split('\n').slice(0, 2)).toEqual([
      'release-freeze-friday  guideline, active, org layer acme',
      '.cairn/cards/guideline/release-freeze-friday.md',
    ])
  })
})

describe('the hooks read the cache and never fetch', () => {
  it('answers from the cache with the remote gone: no error, no network', async () => {
    const repo = await subscribed()
    // The copy keeps the template's remote: moved away for this test, and put back after.
    const url = orgUrl(repo)
    const away = `${url}.away`
    fs.renameSync(url, away)
    try {
      const hook = promptHook(repo, 'is there a release freeze today')
      expect([hook.status, hook.stderr]).toEqual([0, ''])
      expect(context(hook.stdout)).toContain('release-freeze-friday')
      const r = await cli(['recall', 'is there a release freeze today', '--json'], {cwd: repo.dir, env: repo.env})
      expect([r.code, r.stderr]).toEqual([0, ''])
      expect(r.json().data.cards.map((c: any) => c.layer)).toEqual(['org:acme'])
      expect(errorLog(repo)).toEqual([])
    } finally {
      fs.renameSync(away, url)
      await settle(repo)
    }
  })

  it('leaves a layer whose cache is missing out, says nothing, logs it once; the next CLI command fetches it', async () => {
    const repo = await subscribed()
    fs.rmSync(path.join(repo.env.CAIRN_HOME as string, '.cache', 'org'), {recursive: true})
    const before = snapshot(repo)
    for (let i = 0; i < 3; i++) {
      const hook = promptHook(repo, 'is there a release freeze today')
      expect([hook.status, hook.stdout, hook.stderr]).toEqual([0, '', ''])
    }
    const log = errorLog(repo)
    expect(log).toHaveLength(1)
    expect(log[0]).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z org layer "acme" left out: the cache has no copy of ${orgUrl(repo).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at [0-9a-f]{12}; the next cairn command fetches it \\(or run "cairn org fetch"\\)$`,
      ),
    )
    expect(fs.existsSync(path.join(repo.env.CAIRN_HOME as string, '.cache', 'org'))).toBe(false)
    expect(snapshot(repo).head).toBe(before.head)
    const listed = await cli(['list', '--json'], {cwd: repo.dir, env: repo.env})
    expect(listed.json().data.cards.map((c: any) => c.layer ?? c.store)).toEqual([
      'project',
      'org:acme',
      'org:acme',
      'org:acme',
      'org:acme',
      'org:acme',
      'org:acme',
      'personal',
    ])
    const hook = promptHook(repo, 'is there a release freeze today')
    expect(context(hook.stdout)).toContain('release-freeze-friday')
    expect(errorLog(repo)).toHaveLength(1)
    await settle(repo)
  })
})

describe('MCP reads org cards', () => {
  it('lists and shows an org card with its layer, and offers it as a resource', async () => {
    const repo = await subscribed()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: repo.dir,
      env: repo.env as Record<string, string>,
      stderr: 'pipe',
    })
    const client = new Client({name: 'cairn-test', version: '1.0.0'}, {capabilities: {}})
    await client.connect(transport)
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({name, arguments: args})) as {content: {text: string}[]}
        return JSON.parse(r.content[0].text)
      }
      const listed = await call('list', {})
      expect(listed.data.cards.map((c: any) => `${c.id} ${c.layer ?? c.store}`)).toEqual([
        'shared-lesson project',
        'pending-org-wide-idea org:acme',
        'deploy-window-for-web-apps org:acme',
        'org-core-release-checklist org:acme',
        'org-migrations-need-review org:acme',
        'org-over-personal org:acme',
        'release-freeze-friday org:acme',
        'my-own-habit personal',
      ])
      const shown = await call('show', {id: 'release-freeze-friday'})
      expect([shown.ok, shown.data.store, shown.data.layer, shown.data.card.title]).toEqual([
        true,
        'org',
        'org:acme',
        'No releases on Friday',
      ])
      const {resources} = await client.listResources()
      expect(resources.find(r => r.name === 'release-freeze-friday')?.description).toBe(
        'A guideline card of the org layer acme, loaded when a prompt or an edit recalls it.',
      )
    } finally {
      await client.close()
    }
  })
})

describe('writes refuse an org card', () => {
  const READ_ONLY =
    'The org layer "acme" is read-only: its cards change in the org\'s own repository. Nothing was written. ' +
    'Fix: change the card there (or run "cairn org promote" for a project card), then "cairn org update acme"; ' +
    'a project card with the same id overrides it here.'

  it.each([
    ['review approve', ['review', 'approve', 'pending-org-wide-idea']],
    ['review approve of an active card', ['review', 'approve', 'release-freeze-friday']],
    ['review reject', ['review', 'reject', 'pending-org-wide-idea', '--reason', 'not ours']],
    ['review defer', ['review', 'defer', 'pending-org-wide-idea', '--until', '2026-12-31']],
    ['review modify', ['review', 'modify', 'release-freeze-friday', '--set', 'title=Mine now']],
    ['archive', ['archive', 'release-freeze-friday']],
    ['restore', ['restore', 'org-old-rule']],
    ['enrich --apply', ['enrich', '--apply', '-']],
  ])('%s exits 5 with the read-only error and writes nothing', async (_name, args) => {
    const repo = await subscribed()
    const before = snapshot(repo)
    const input = JSON.stringify([{id: 'release-freeze-friday', triggers: ['code freeze']}])
    // Only enrich reads stdin: a command that takes any number of arguments would read piped text as one more.
    const r = await cli([...args, '--json'], {cwd: repo.dir, env: repo.env, ...(args[0] === 'enrich' ? {input} : {})})
    expect(r.code).toBe(5)
    expect(r.json().error).toMatchObject({code: 'conflict', message: READ_ONLY, data: {layer: 'org:acme'}})
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('an org card names the projects it applies to', () => {
  it('is recalled in a project its scope names, and not in another', async () => {
    const repo = await subscribed()
    const config = path.join(repo.dir, '.cairn/config.yaml')
    const text = fs.readFileSync(config, 'utf8')
    const recalled = async (key: string) => {
      fs.writeFileSync(config, text.replace(/^project_key: null$/m, `project_key: ${key}`))
      return (await recall(repo.ctx(), {prompt: 'when is the deploy window'})).cards.map(c => `${c.id} ${c.layer}`)
    }
    expect(await recalled('github.com/acme/web')).toEqual(['deploy-window-for-web-apps org:acme'])
    expect(await recalled('github.com/acme/api')).toEqual(['deploy-window-for-web-apps org:acme'])
    expect(await recalled('github.com/acme/billing')).toEqual([])
    // Without a key of its own the project cannot be named: the card is left out, as a one-key card is.
    fs.writeFileSync(config, text)
    expect((await recall(repo.ctx(), {prompt: 'when is the deploy window'})).cards).toEqual([])
  })

  it('keeps the list through parse and render, and the scope gate reads every key', () => {
    const fm = validateFrontmatter({
      schema: 'cairn/card@1',
      id: 'deploy-window-for-web-apps',
      type: 'guideline',
      status: 'active',
      title: 'Deploy the web apps in the window',
      summary: 'Deploy in the window.',
      created: '2026-10-01T00:00:00Z',
      updated: '2026-11-01T00:00:00Z',
      scope: {level: 'project-family', project_key: ['github.com/acme/api', 'gitlab.com/beta/web']},
    })
    const text = renderCard({...fm, body: 'Rule.\n'})
    expect(text).toContain('project_key: [github.com/acme/api, gitlab.com/beta/web]')
    const parsed = parseCard(text, 'card.md')
    expect(parsed.scope.project_key).toEqual(['github.com/acme/api', 'gitlab.com/beta/web'])
    expect(renderCard(parsed)).toBe(text)
    const gate = (level: 'project' | 'project-family', key: string | null) =>
      scopeGate(
        {store: 'org', scope: {level, project_key: ['github.com/acme/api', 'gitlab.com/beta/web']}},
        {projectKey: key},
      )
    expect(gate('project', 'gitlab.com/beta/web')).toEqual({
      gate: 'scope',
      pass: true,
      detail: 'project github.com/acme/api, gitlab.com/beta/web vs gitlab.com/beta/web',
    })
    expect(gate('project', 'github.com/acme/web').pass).toBe(false)
    expect(gate('project-family', 'github.com/acme/web')).toEqual({
      gate: 'scope',
      pass: true,
      detail: 'project-family github.com/acme, gitlab.com/beta vs github.com/acme/web',
    })
    expect(gate('project-family', 'github.com/other/web').pass).toBe(false)
    expect(gate('project', null)).toEqual({
      gate: 'scope',
      pass: false,
      detail: 'project github.com/acme/api, gitlab.com/beta/web; this project has no key',
    })
  })

  it('refuses an empty list or a key that is no text, naming the field', () => {
    const bad = (project_key: unknown) => () =>
      validateFrontmatter({
        schema: 'cairn/card@1',
        id: 'deploy-window-for-web-apps',
        type: 'guideline',
        status: 'active',
        title: 'Deploy the web apps in the window',
        summary: 'Deploy in the window.',
        created: '2026-10-01T00:00:00Z',
        updated: '2026-11-01T00:00:00Z',
        scope: {level: 'project', project_key},
      })
    expect(bad([])).toThrow(
      'Invalid card:\n  - scope.project_key: must name at least one project key, or be null. Fix: add at least 1 item.',
    )
    expect(bad([5])).toThrow(
      'Invalid card:\n  - scope.project_key: must be a project key such as github.com/acme/api, or a list of them.',
    )
  })
})

describe('exports carry org cards', () => {
  it("writes the org layers' core and narrow cards into AGENTS.md and the Cursor rules, a project copy winning", async () => {
    const repo = await subscribed()
    plant(
      repo,
      'org-migrations-need-review',
      {
        title: 'PROJECT COPY: migrations need two reviewers',
        scope: {level: 'project', project_key: null, module_path: null, paths: ['db/migrations/**']},
      },
      'PROJECT RULE: two reviewers for a migration.',
    )
    const r = await cli(['export', 'agents-md', '--json'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(0)
    expect(r.json().data.cards).toEqual(['org-core-release-checklist'])
    expect(repo.read('AGENTS.md')).toContain('Tag, then announce.')
    const rules = await cli(['export', 'cursor-rules', '--json'], {cwd: repo.dir, env: repo.env})
    expect(rules.json().data.rules).toEqual([
      {
        id: 'org-migrations-need-review',
        file: '.cursor/rules/cairn-org-migrations-need-review.mdc',
        action: 'created',
      },
    ])
    const rule = repo.read('.cursor/rules/cairn-org-migrations-need-review.mdc')
    expect(rule).toContain('PROJECT RULE: two reviewers for a migration.')
    expect(rule).not.toContain('Rule of org-migrations-need-review.')
    // The personal store's cards never reach a shared file.
    expect(repo.read('AGENTS.md')).not.toContain('PERSONAL')
  })
})

describe('the session and tool hooks carry org cards', () => {
  it('puts an org core card in session start and an org narrow card before a write to its paths', async () => {
    const repo = await subscribed()
    const base = (event: string, extra: object = {}) => ({
      session_id: 's1',
      cwd: repo.dir,
      hook_event_name: event,
      ...extra,
    })
    const start = await feed(repo, 'claude', 'session-start', base('SessionStart', {source: 'startup'}))
    const context: string = JSON.parse(start.stdout).hookSpecificOutput.additionalContext
    expect(context).toContain('Tag, then announce.')
    expect(context).toContain('org-over-personal')
    expect(context).not.toContain('PERSONAL COPY')
    await settle(repo)
    const edit = base('PreToolUse', {
      tool_name: 'Edit',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/001_init.sql'), old_string: 'a', new_string: 'b'},
    })
    const before = await feed(repo, 'claude', 'pre-tool-use', edit)
    expect(JSON.parse(before.stdout).hookSpecificOutput.additionalContext).toBe(
      'cairn: cards for db/migrations/001_init.sql (read a rule with `cairn show ID --section rule`):\n' +
        '- [may] Org migrations need review (org-migrations-need-review): Summary of org-migrations-need-review.',
    )
    expect(errorLog(repo)).toEqual([])
  })
})

describe('readers share the org tree', () => {
  it('gives the same answer to lists run at once, each keeping the tree derived caches', async () => {
    const repo = await subscribed()
    const tree = fs
      .readdirSync(path.join(repo.env.CAIRN_HOME as string, '.cache', 'org'))
      .map(key => path.join(repo.env.CAIRN_HOME as string, '.cache', 'org', key, 'trees'))[0]
    // No read has made the tree's caches yet in this copy: the four lists race to make them.
    for (const commit of fs.readdirSync(tree))
      fs.rmSync(path.join(tree, commit, '.cairn', '.cache'), {recursive: true, force: true})
    const runs = await Promise.all([1, 2, 3, 4].map(() => cli(['list', '--json'], {cwd: repo.dir, env: repo.env})))
    const answers = runs.map(r => [r.code, r.stderr, JSON.stringify(r.json().data.cards.map((c: any) => c.id))])
    expect(new Set(answers.map(a => JSON.stringify(a))).size).toBe(1)
    expect(answers[0][0]).toBe(0)
    expect(answers[0][1]).toBe('')
    expect(JSON.parse(answers[0][2] as string)).toEqual([
      'shared-lesson',
      'pending-org-wide-idea',
      'deploy-window-for-web-apps',
      'org-core-release-checklist',
      'org-migrations-need-review',
      'org-over-personal',
      'release-freeze-friday',
      'my-own-habit',
    ])
    expect((await cli(['list', '--json'], {cwd: repo.dir, env: repo.env})).json().data.cards).toEqual(
      runs[0].json().data.cards,
    )
  })
})
