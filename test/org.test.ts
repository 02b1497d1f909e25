import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {orgCacheKey} from '../src/domain/org.js'
import {card, cli, type CliResult, initRepo, type Repo, repoCopy, snapshot, tempDir, tempRepo} from './helpers.js'

/**
 * The org commands (issue 36) through the real CLI, with local bare repositories as the org stores' remotes: an org
 * store made with `cairn init`, its cards proposed and approved there, then `git clone --bare`.
 */

interface Org {
  /** The org store's working repository, where its cards are reviewed. */
  repo: Repo
  /** The bare repository projects subscribe to. */
  bare: string
  head: () => string
  /** Pushes the working repository's main to the bare one. */
  push: () => void
}

const orgCard = (slug: string) =>
  card({slug, title: `Org rule ${slug}`, summary: `The organisation's rule about ${slug.replace(/-/g, ' ')}.`})

async function addCards(repo: Repo, slugs: string[]): Promise<void> {
  for (const slug of slugs) await propose(repo.ctx(), {fields: orgCard(slug)})
  await approve(repo.ctx(), {all: true})
}

async function makeOrg(slugs: string[], bareName = 'org.git'): Promise<Org> {
  const repo = tempRepo()
  await init(repo.ctx())
  await addCards(repo, slugs)
  const bare = path.join(tempDir(), bareName)
  execFileSync('git', ['clone', '-q', '--bare', repo.dir, bare])
  return {
    repo,
    bare,
    head: () => repo.git('rev-parse', 'HEAD').trim(),
    push: () => void repo.git('push', '-q', bare, 'main'),
  }
}

const run = (repo: Repo, args: string[], env: NodeJS.ProcessEnv = repo.env): Promise<CliResult> =>
  cli(args, {cwd: repo.dir, env})

const cacheDir = (home: string, url: string) => path.join(home, '.cairn', '.cache', 'org', orgCacheKey(url))
const treeDir = (home: string, url: string, commit: string) => path.join(cacheDir(home, url), 'trees', commit)

/** Every file of a folder, by relative path, with its text. */
/** A tree's files, but the derived caches a reader keeps in it (.cairn/.cache: the card cache, the list's summary). */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      const p = path.join(d, e.name)
      if (e.isDirectory() && path.relative(dir, p) === path.join('.cairn', '.cache')) continue
      if (e.isDirectory()) walk(p)
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8')
    }
  }
  walk(dir)
  return out
}

/** The org store's .cairn/ files at a commit, as git has them: what a whole tree in the cache must hold. */
function filesAt(bare: string, commit: string): Record<string, string> {
  const out: Record<string, string> = {}
  const names = execFileSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', commit, '--', '.cairn'], {
    encoding: 'utf8',
  })
  for (const name of names.split('\n').filter(Boolean))
    out[name] = execFileSync('git', ['--git-dir', bare, 'show', `${commit}:${name}`], {encoding: 'utf8'})
  return out
}

const orgBlock = (pins: {name: string; url: string; ref: string; commit: string}[]) =>
  `org:\n${pins.map(p => `  - name: ${p.name}\n    url: ${p.url}\n    ref: ${p.ref}\n    commit: ${p.commit}\n`).join('')}`

/** config.yaml's org list as written: from `org:` to the end of the file (where init puts it). */
/** config.yaml from its org list on; '' when it has none (no layer: no key). */
const orgSection = (repo: Repo) => {
  const text = repo.read('.cairn/config.yaml')
  return /\norg:/.test(text) ? text.replace(/^[\s\S]*\norg:/, 'org:') : ''
}

const subject = (repo: Repo, rev = 'HEAD') => repo.git('log', '-1', '--format=%s', rev).trim()
const body = (repo: Repo) => repo.git('log', '-1', '--format=%b').replace(/\n*Cairn-Op:[\s\S]*$/, '')
const count = (repo: Repo) => Number(repo.git('rev-list', '--count', 'HEAD').trim())

/** A project subscribed to the org store (org add through the CLI). */
async function subscribed(org: Org, args: string[] = []): Promise<Repo> {
  const proj = await initRepo()
  const r = await run(proj, ['org', 'add', org.bare, ...args])
  expect([r.code, r.stderr]).toEqual([0, ''])
  return proj
}

describe('cairn org add', () => {
  it('pins the head of the remote default branch in one commit, lists it, and keeps the tree in the cache', async () => {
    const org = await makeOrg(['cron-jobs-idempotent', 'never-log-personal-data'])
    const head = org.head()
    const proj = await initRepo()
    const before = count(proj)
    const r = await run(proj, ['org', 'add', org.bare])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const made = proj.git('rev-parse', 'HEAD').trim()
    expect(r.stdout).toBe(
      `Subscribed to the org layer org: ${org.bare} at ${head.slice(0, 7)} (main), 2 active cards.\ncommit: ${made.slice(0, 7)}\n`,
    )
    expect(orgSection(proj)).toBe(orgBlock([{name: 'org', url: org.bare, ref: 'main', commit: head}]))
    expect(count(proj)).toBe(before + 1)
    expect(subject(proj)).toBe(`cairn(org): add org layer org at ${head.slice(0, 12)}`)
    expect(proj.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe('.cairn/config.yaml')
    expect(proj.git('status', '--porcelain')).toBe('')

    const list = await run(proj, ['org', 'list'])
    expect([list.code, list.stderr]).toEqual([0, ''])
    const url = org.bare
    expect(list.stdout).toBe(`NAME  REF   PIN      CARDS  URL\norg   main  ${head.slice(0, 7)}  2      ${url}\n`)
    const json = await run(proj, ['org', 'list', '--json'])
    expect(json.json()).toEqual({
      ok: true,
      data: {layers: [{name: 'org', url, ref: 'main', commit: head, cached: true, cards: 2}]},
      warnings: [],
    })
    // The cache under CAIRN_HOME: the bare repository and the whole tree of the pinned commit, nothing else.
    expect(fs.readdirSync(cacheDir(proj.home, url)).sort()).toEqual(['repo.git', 'trees'])
    expect(fs.readdirSync(path.join(cacheDir(proj.home, url), 'trees'))).toEqual([head])
    expect(files(treeDir(proj.home, url, head))).toEqual(filesAt(org.bare, head))
    expect(Object.keys(files(treeDir(proj.home, url, head)))).toContain(
      '.cairn/cards/pitfall/never-log-personal-data.md',
    )
  })

  it("follows the remote HEAD's branch by default; --ref a tag and --name; --no-commit leaves config.yaml unstaged", async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const tagged = org.head()
    org.repo.git('tag', 'v1')
    org.repo.git('checkout', '-q', '-b', 'trunk')
    await addCards(org.repo, ['release-notes-required'])
    const trunk = org.head()
    org.repo.git('push', '-q', org.bare, 'trunk', 'v1')
    execFileSync('git', ['--git-dir', org.bare, 'symbolic-ref', 'HEAD', 'refs/heads/trunk'])

    const proj = await initRepo()
    const a = await run(proj, ['org', 'add', org.bare])
    expect([a.code, a.stderr]).toEqual([0, ''])
    expect(orgSection(proj)).toBe(orgBlock([{name: 'org', url: org.bare, ref: 'trunk', commit: trunk}]))

    const other = await initRepo()
    const head = other.git('rev-parse', 'HEAD').trim()
    // The same machine: one CAIRN_HOME for both projects.
    const shared = {...other.env, CAIRN_HOME: proj.env.CAIRN_HOME}
    const b = await run(other, ['org', 'add', org.bare, '--ref', 'v1', '--name', 'acme-rules', '--no-commit'], shared)
    expect(b.stderr).toBe(
      'warning: 1 file(s) in the project store were written but not committed (--no-commit or commit.enabled: false); they are left unstaged: review them with "git status", then commit them yourself\n',
    )
    expect(b.code).toBe(0)
    expect(b.stdout).toBe(
      `Subscribed to the org layer acme-rules: ${org.bare} at ${tagged.slice(0, 7)} (v1), 1 active card.\nnot committed (--no-commit)\n`,
    )
    expect(orgSection(other)).toBe(orgBlock([{name: 'acme-rules', url: org.bare, ref: 'v1', commit: tagged}]))
    expect(other.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(other.git('status', '--porcelain')).toBe(' M .cairn/config.yaml\n')
    // Both projects share the one cache of the URL: a tree per pinned commit.
    expect(fs.readdirSync(path.join(cacheDir(proj.home, org.bare), 'trees')).sort()).toEqual([tagged, trunk].sort())
    expect(fs.existsSync(path.join(other.home, '.cairn', '.cache', 'org'))).toBe(false)
  })
})

describe('cairn org: bad input is refused with its exit code, and nothing is written', () => {
  it('a URL that is no repository, no cairn store, an unknown --ref, bad names and URLs, a layer already there', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const plain = tempRepo()
    const plainBare = path.join(tempDir(), 'plain.git')
    execFileSync('git', ['clone', '-q', '--bare', plain.dir, plainBare])
    const plainHead = plain.git('rev-parse', 'HEAD').trim()
    const nowhere = path.join(tempDir(), 'nowhere.git')
    const proj = await subscribed(org)
    const before = snapshot(proj)
    const trees = fs.readdirSync(path.join(cacheDir(proj.home, org.bare), 'trees'))
    const cases: [string[], number, string][] = [
      [
        ['org', 'add', nowhere],
        7,
        `Could not fetch the org store from ${nowhere}: '${nowhere}' does not appear to be a git repository. Fix: check the URL and that your git credentials can read it ("git ls-remote <url>" shows the same).`,
      ],
      [
        ['org', 'add', plainBare],
        6,
        `${plainBare} at ${plainHead.slice(0, 12)} holds no cairn store (.cairn/config.yaml). Fix: run "cairn init" in that repository and commit it, or subscribe to another URL.`,
      ],
      [
        ['org', 'add', org.repo.dir, '--ref', 'no-such-branch'],
        4,
        `The org store at ${org.repo.dir} has no branch or tag "no-such-branch". Fix: pass --ref with a branch or tag it has.`,
      ],
      [
        ['org', 'add', org.repo.dir, '--ref', 'bad..ref'],
        2,
        '--ref must be a branch or tag name such as main or v2. Fix: pass a branch or tag such as main.',
      ],
      [
        ['org', 'add', org.repo.dir, '--name', 'Bad_Name'],
        2,
        '--name must be a kebab-case name of lowercase letters, digits and single hyphens. Fix: pass --name with a name such as "acme-platform".',
      ],
      [
        ['org', 'add', '--', '--upload-pack=touch /tmp/pwned'],
        2,
        'The URL must not hold whitespace or control characters. Fix: pass the URL you would give "git clone".',
      ],
      [
        ['org', 'add', '--', '-oops'],
        2,
        'The URL must not start with "-". Fix: pass the URL you would give "git clone".',
      ],
      [
        ['org', 'add', 'ext::sh'],
        2,
        'The URL must not use the ext:: or fd:: transport, which runs a command. Fix: pass the URL you would give "git clone".',
      ],
      [
        ['org', 'add', plainBare, '--name', 'org'],
        5,
        `The project already has an org layer named "org" (${org.bare}). Fix: pass --name with another name, or run "cairn org remove org" first.`,
      ],
      [
        ['org', 'add', org.bare, '--name', 'again'],
        5,
        `The project already reads ${org.bare} as the org layer "org". Fix: run "cairn org update org" to move its pin.`,
      ],
      [['org', 'remove', 'nope'], 4, 'No org layer named "nope". Fix: name one of "org".'],
      [['org', 'update', 'nope'], 4, 'No org layer named "nope". Fix: name one of "org".'],
    ]
    const seen = []
    for (const [args, code] of cases) {
      const r = await run(proj, args)
      seen.push([args, r.code, r.stderr.replace(/^cairn: |\n$/g, ''), r.stdout])
    }
    expect(seen).toEqual(cases.map(([args, code, message]) => [args, code, message, '']))
    expect(snapshot(proj)).toEqual(before)
    expect(fs.readdirSync(path.join(cacheDir(proj.home, org.bare), 'trees'))).toEqual(trees)
    // A URL that never answered leaves no repository in the cache; one with no store leaves no tree.
    expect(fs.existsSync(path.join(cacheDir(proj.home, nowhere), 'repo.git'))).toBe(false)
    expect(fs.existsSync(path.join(cacheDir(proj.home, plainBare), 'trees', plainHead))).toBe(false)
  })

  it('outside a git repository, and in one without a store, exit 3', async () => {
    const outside = tempDir()
    for (const args of [
      ['org', 'list'],
      ['org', 'add', '/tmp/x.git'],
      ['org', 'update'],
      ['org', 'fetch'],
    ]) {
      const r = await cli(args, {cwd: outside})
      expect([args, r.code, r.stderr]).toEqual([
        args,
        3,
        `cairn: ${outside} is not inside a git repository. Fix: run "git init" first, then "cairn init".\n`,
      ])
    }
    const bare = tempRepo()
    const r = await run(bare, ['org', 'list'])
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(/^cairn: .*Fix: run "cairn init"/)
  })

  it('org update with no layer says how to subscribe', async () => {
    const proj = await initRepo()
    const r = await run(proj, ['org', 'update'])
    expect([r.code, r.stderr]).toEqual([
      4,
      'cairn: The project has no org layer to update. Fix: subscribe with "cairn org add <url>".\n',
    ])
    const list = await run(proj, ['org', 'list'])
    expect([list.code, list.stdout]).toEqual([0, 'No org layer. Subscribe with "cairn org add <url>".\n'])
  })
})

/** The org adds a card, changes one and archives one, and pushes: what the next update brings. */
async function changeOrg(org: Org, added: string, changed: string, removed: string): Promise<void> {
  await addCards(org.repo, [added])
  const file = `.cairn/cards/pitfall/${changed}.md`
  org.repo.write(file, org.repo.read(file).replace("The organisation's rule", "The organisation's firm rule"))
  org.repo.git('commit', '-qam', `sharpen ${changed}`)
  await archive(org.repo.ctx(), {ids: [removed]})
  org.push()
}

describe('cairn org update', () => {
  it('moves the pin in one commit listing the cards added, changed and removed; a second update commits nothing', async () => {
    const org = await makeOrg(['cron-jobs-idempotent', 'never-log-personal-data'])
    const from = org.head()
    const proj = await subscribed(org)
    await changeOrg(org, 'release-notes-required', 'cron-jobs-idempotent', 'never-log-personal-data')
    const to = org.head()
    const before = count(proj)
    const r = await run(proj, ['org', 'update', '--json'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    const commit = proj.git('rev-parse', 'HEAD').trim()
    expect(r.json()).toEqual({
      ok: true,
      data: {
        layers: [
          {
            name: 'org',
            ref: 'main',
            from,
            to,
            changes: {
              added: ['release-notes-required'],
              changed: ['cron-jobs-idempotent'],
              removed: ['never-log-personal-data'],
            },
          },
        ],
        commit,
      },
      warnings: [],
    })
    expect(count(proj)).toBe(before + 1)
    expect(subject(proj)).toBe(`cairn(org): update org layer org to ${to.slice(0, 12)}`)
    expect(body(proj)).toBe(
      `org: ${from.slice(0, 12)}..${to.slice(0, 12)} (main)\n+ release-notes-required\n~ cron-jobs-idempotent\n- never-log-personal-data`,
    )
    expect(orgSection(proj)).toBe(orgBlock([{name: 'org', url: org.bare, ref: 'main', commit: to}]))
    expect(proj.git('status', '--porcelain')).toBe('')
    expect(files(treeDir(proj.home, org.bare, to))).toEqual(filesAt(org.bare, to))

    const again = await run(proj, ['org', 'update'])
    expect([again.code, again.stderr, again.stdout]).toEqual([
      0,
      '',
      `org: already at the head of main (${to.slice(0, 7)}).\n`,
    ])
    expect(count(proj)).toBe(before + 1)
  })

  it('the text output lists the same, and a named layer among two moves alone', async () => {
    const org = await makeOrg(['cron-jobs-idempotent', 'never-log-personal-data'])
    const platform = await makeOrg(['deploy-behind-feature-flag', 'pin-base-image-digests'], 'platform.git')
    const proj = await subscribed(org)
    const add = await run(proj, ['org', 'add', platform.bare])
    expect([add.code, add.stderr]).toEqual([0, ''])
    const orgFrom = org.head()
    const from = platform.head()
    await changeOrg(org, 'release-notes-required', 'cron-jobs-idempotent', 'never-log-personal-data')
    await changeOrg(platform, 'rollback-plan-before-deploy', 'pin-base-image-digests', 'deploy-behind-feature-flag')
    const to = platform.head()
    const r = await run(proj, ['org', 'update', 'platform'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toBe(
      [
        `platform: ${from.slice(0, 7)} -> ${to.slice(0, 7)} (main): 1 added, 1 changed, 1 removed`,
        '  + rollback-plan-before-deploy',
        '  ~ pin-base-image-digests',
        '  - deploy-behind-feature-flag',
        `commit: ${proj.git('rev-parse', '--short=7', 'HEAD').trim()}`,
        '',
      ].join('\n'),
    )
    expect(subject(proj)).toBe(`cairn(org): update org layer platform to ${to.slice(0, 12)}`)
    expect(body(proj)).toBe(
      `platform: ${from.slice(0, 12)}..${to.slice(0, 12)} (main)\n+ rollback-plan-before-deploy\n~ pin-base-image-digests\n- deploy-behind-feature-flag`,
    )
    expect(orgSection(proj)).toBe(
      orgBlock([
        {name: 'org', url: org.bare, ref: 'main', commit: orgFrom},
        {name: 'platform', url: platform.bare, ref: 'main', commit: to},
      ]),
    )
  })
})

describe('cairn org remove and org fetch', () => {
  it('remove takes the entry out in one commit and keeps the shared cache', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const proj = await subscribed(org)
    const r = await run(proj, ['org', 'remove', 'org'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toBe(
      `Removed the org layer org (${org.bare}); its cards are no longer read here. The shared cache under $CAIRN_HOME is kept.\ncommit: ${proj.git('rev-parse', '--short=7', 'HEAD').trim()}\n`,
    )
    expect(subject(proj)).toBe('cairn(org): remove org layer org')
    expect(orgSection(proj)).toBe('')
    expect(proj.git('status', '--porcelain')).toBe('')
    expect(fs.existsSync(treeDir(proj.home, org.bare, org.head()))).toBe(true)
    const list = await run(proj, ['org', 'list', '--json'])
    expect(list.json().data).toEqual({layers: []})
  })

  it('on a machine without the cache, org fetch brings the pinned tree back and moves no pin; so does any command', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const pinned = org.head()
    const proj = await subscribed(org)
    // The org moves on; a new machine must still read the pinned commit.
    await addCards(org.repo, ['release-notes-required'])
    org.push()
    const head = proj.git('rev-parse', 'HEAD').trim()
    const config = proj.read('.cairn/config.yaml')
    const machine = (name: string) => {
      const home = path.join(tempDir(), name)
      return {env: {...proj.env, CAIRN_HOME: home}, home: path.dirname(home)}
    }
    const fresh = machine('.cairn')
    const listed = await run(proj, ['org', 'list'], fresh.env)
    expect(listed.stdout).toBe(
      `NAME  REF   PIN      CARDS    URL\norg   main  ${pinned.slice(0, 7)}  missing  ${org.bare}\n`,
    )
    const r = await run(proj, ['org', 'fetch'], fresh.env)
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toBe(`NAME  REF   PIN      CARDS  URL\norg   main  ${pinned.slice(0, 7)}  1      ${org.bare}\n`)
    expect(files(treeDir(fresh.home, org.bare, pinned))).toEqual(filesAt(org.bare, pinned))
    expect(fs.readdirSync(path.join(cacheDir(fresh.home, org.bare), 'trees'))).toEqual([pinned])
    expect(proj.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(proj.read('.cairn/config.yaml')).toBe(config)

    const other = machine('.cairn')
    const list = await run(proj, ['list'], other.env)
    expect([list.code, list.stderr]).toEqual([0, ''])
    expect(files(treeDir(other.home, org.bare, pinned))).toEqual(filesAt(org.bare, pinned))
    expect(proj.git('rev-parse', 'HEAD').trim()).toBe(head)
  })

  it('with the remote gone, commands read the cache; a missing cache is left out with a warning', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const pinned = org.head()
    const proj = await subscribed(org)
    fs.renameSync(org.bare, `${org.bare}.gone`)
    const fetched = await run(proj, ['org', 'fetch'])
    expect([fetched.code, fetched.stderr]).toEqual([0, ''])
    expect(fetched.stdout).toBe(
      `NAME  REF   PIN      CARDS  URL\norg   main  ${pinned.slice(0, 7)}  1      ${org.bare}\n`,
    )
    const recall = await run(proj, ['recall', 'cron jobs idempotent', '--json'])
    expect([recall.code, recall.stderr]).toEqual([0, ''])
    expect(JSON.stringify(recall.json().data)).toContain('cron-jobs-idempotent')
    const update = await run(proj, ['org', 'update'])
    expect(update.code).toBe(7)
    expect(update.stderr).toBe(
      `cairn: Could not fetch the org store from ${org.bare}: '${org.bare}' does not appear to be a git repository. Fix: check the URL and that your git credentials can read it ("git ls-remote <url>" shows the same).\n`,
    )
    // No cache and no remote: the layer is left out, and the command still works.
    const env = {...proj.env, CAIRN_HOME: path.join(tempDir(), '.cairn')}
    const list = await run(proj, ['list'], env)
    expect(list.code).toBe(0)
    expect(list.stderr).toBe(
      `warning: The org layer "org" is left out: its cache is missing and could not be fetched. Could not fetch the org store from ${org.bare}: '${org.bare}' does not appear to be a git repository. Fix: check the URL and that your git credentials can read it ("git ls-remote <url>" shows the same).\n`,
    )
    const fetch = await run(proj, ['org', 'fetch'], env)
    expect(fetch.code).toBe(7)
  })
})

/** What must hold after any org update, finished or killed: the pin names a whole tree, and no half-made one is left. */
function consistent(proj: Repo, org: Org, pins: string[]): string {
  const pin = /\n {4}commit: ([0-9a-f]{40})\n/.exec(proj.read('.cairn/config.yaml'))![1]
  expect(pins).toContain(pin)
  expect(files(treeDir(proj.home, org.bare, pin))).toEqual(filesAt(org.bare, pin))
  return pin
}

const leftovers = (proj: Repo, org: Org) => {
  const dir = cacheDir(proj.home, org.bare)
  return [...fs.readdirSync(dir), ...fs.readdirSync(path.join(dir, 'trees'))].filter(
    n => n.startsWith('.tmp-') || n === 'cairn.lock',
  )
}

describe('cairn org update: concurrent and killed runs leave the pin and the cache consistent', () => {
  it('two updates at once: one commit, the pin at the head, its tree whole', async () => {
    const org = await makeOrg(['cron-jobs-idempotent', 'never-log-personal-data'])
    const from = org.head()
    const proj = await subscribed(org)
    await changeOrg(org, 'release-notes-required', 'cron-jobs-idempotent', 'never-log-personal-data')
    const to = org.head()
    const before = count(proj)
    const runs = await Promise.all([run(proj, ['org', 'update']), run(proj, ['org', 'update'])])
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, ''])
    expect(count(proj)).toBe(before + 1)
    const made = proj.git('rev-parse', '--short=7', 'HEAD').trim()
    const moved = `org: ${from.slice(0, 7)} -> ${to.slice(0, 7)} (main): 1 added, 1 changed, 1 removed\n  + release-notes-required\n  ~ cron-jobs-idempotent\n  - never-log-personal-data\ncommit: ${made}\n`
    // One run moved the pin; the other found it moved (or, when it came second, at the head already).
    expect(runs.map(r => r.stdout).sort()).toEqual(
      [moved, `org: already at the head of main (${to.slice(0, 7)}).\n`].sort(),
    )
    expect(consistent(proj, org, [to])).toBe(to)
    expect(leftovers(proj, org)).toEqual([])
    expect(proj.git('status', '--porcelain')).toBe('')
  })

  // Inside the fetch, after it, with the new tree checked out but not yet renamed into place, and at the commit's steps.
  const TX = ['after-journal', 'before-commit', 'during-commit']
  const POINTS = ['org-during-fetch', 'org-fetched', 'org-tree', ...TX]

  it(`kill -9 at ${POINTS.join(', ')}: the pin names a whole tree, and the next update cleans up and succeeds`, async () => {
    const org = await makeOrg(['cron-jobs-idempotent', 'never-log-personal-data'])
    const from = org.head()
    const base = await subscribed(org)
    await changeOrg(org, 'release-notes-required', 'cron-jobs-idempotent', 'never-log-personal-data')
    const to = org.head()
    const before = count(base)
    for (const point of POINTS) {
      const proj = repoCopy(base)
      const killed = await run(proj, ['org', 'update'], {...proj.env, CAIRN_TEST_CRASH: point})
      expect([point, killed.code]).toEqual([point, -1])
      consistent(proj, org, [from, to])
      const next = await run(proj, ['org', 'update'])
      // A kill inside the transaction is rolled back first, or finished when its commit had landed, and said so.
      const where = `in the project store (${proj.dir}/.cairn)`
      const said = [
        `warning: rolled back an interrupted cairn org ${where}: 1 file(s) restored as they were before it; run the command again\n`,
        ...(point === 'during-commit'
          ? [
              `warning: finished an interrupted cairn org ${where}: its commit ${proj.git('rev-parse', '--short=12', 'HEAD').trim()} had landed\n`,
            ]
          : []),
      ]
      expect([point, next.code]).toEqual([point, 0])
      if (TX.includes(point)) expect(said).toContain(next.stderr)
      else expect([point, next.stderr]).toEqual([point, ''])
      expect(consistent(proj, org, [to])).toBe(to)
      expect([point, leftovers(proj, org)]).toEqual([point, []])
      expect([point, proj.git('status', '--porcelain')]).toEqual([point, ''])
      expect(count(proj)).toBe(before + 1)
      expect(subject(proj)).toBe(`cairn(org): update org layer org to ${to.slice(0, 12)}`)
    }
  }, 600_000)
})

describe('cairn org add and remove: concurrent and killed runs', () => {
  it('two adds at once keep both layers, in two commits; two removes at once: one removes, one finds none', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const platform = await makeOrg(['deploy-behind-feature-flag'], 'platform.git')
    const proj = await initRepo()
    const before = count(proj)
    const adds = await Promise.all([run(proj, ['org', 'add', org.bare]), run(proj, ['org', 'add', platform.bare])])
    for (const r of adds) expect([r.code, r.stderr]).toEqual([0, ''])
    expect(count(proj)).toBe(before + 2)
    const section = orgSection(proj)
    const pins = {
      org: {name: 'org', url: org.bare, ref: 'main', commit: org.head()},
      platform: {name: 'platform', url: platform.bare, ref: 'main', commit: platform.head()},
    }
    expect([orgBlock([pins.org, pins.platform]), orgBlock([pins.platform, pins.org])]).toContain(section)
    const removes = await Promise.all([run(proj, ['org', 'remove', 'org']), run(proj, ['org', 'remove', 'org'])])
    expect(removes.map(r => r.code).sort()).toEqual([0, 4])
    expect(removes.find(r => r.code === 4)!.stderr).toBe(
      'cairn: No org layer named "org". Fix: name one of "platform".\n',
    )
    expect(orgSection(proj)).toBe(orgBlock([pins.platform]))
    expect(count(proj)).toBe(before + 3)
    expect(proj.git('status', '--porcelain')).toBe('')
  })

  const POINTS = ['org-during-fetch', 'org-fetched', 'org-tree', 'before-commit']

  it(`kill -9 of org add at ${POINTS.join(', ')}: no pin without its whole tree, and the next add succeeds`, async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const head = org.head()
    const base = await initRepo()
    const before = count(base)
    for (const point of POINTS) {
      const proj = repoCopy(base)
      const killed = await run(proj, ['org', 'add', org.bare], {...proj.env, CAIRN_TEST_CRASH: point})
      expect([point, killed.code]).toEqual([point, -1])
      // Killed before its commit: config.yaml names no layer, or (its write not yet rolled back) one whose tree is whole.
      if (orgSection(proj) !== '') consistent(proj, org, [head])
      const next = await run(proj, ['org', 'add', org.bare])
      expect([point, next.code]).toEqual([point, 0])
      expect(orgSection(proj)).toBe(orgBlock([{name: 'org', url: org.bare, ref: 'main', commit: head}]))
      expect(consistent(proj, org, [head])).toBe(head)
      expect([point, leftovers(proj, org)]).toEqual([point, []])
      expect([point, proj.git('status', '--porcelain')]).toEqual([point, ''])
      expect(count(proj)).toBe(before + 1)
    }
  })

  it('kill -9 of org remove before its commit: the next remove rolls it back and removes the layer', async () => {
    const org = await makeOrg(['cron-jobs-idempotent'])
    const proj = await subscribed(org)
    const before = count(proj)
    const killed = await run(proj, ['org', 'remove', 'org'], {...proj.env, CAIRN_TEST_CRASH: 'before-commit'})
    expect(killed.code).toBe(-1)
    const next = await run(proj, ['org', 'remove', 'org'])
    expect(next.code).toBe(0)
    expect(next.stderr).toBe(
      `warning: rolled back an interrupted cairn org in the project store (${proj.dir}/.cairn): 1 file(s) restored as they were before it; run the command again\n`,
    )
    expect(orgSection(proj)).toBe('')
    expect(count(proj)).toBe(before + 1)
    expect(subject(proj)).toBe('cairn(org): remove org layer org')
    expect(proj.git('status', '--porcelain')).toBe('')
  })
})
