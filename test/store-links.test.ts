import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {boardCommit} from '../src/app/board/commit.js'
import {boardState} from '../src/app/board/read.js'
import {doctor} from '../src/app/doctor.js'
import {init} from '../src/app/init.js'
import {install} from '../src/app/install.js'
import {lint} from '../src/app/lint.js'
import {list} from '../src/app/list.js'
import {maintain} from '../src/app/maintain.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {propose} from '../src/app/propose.js'
import {uninstall} from '../src/app/uninstall.js'
import {CairnError} from '../src/domain/errors.js'
import {createContext} from '../src/context.js'
import {dirIn, readFileIn, removeFileIn, writeFileIn, appendFileIn} from '../src/store/files/store-files.js'
import {feed, hookRepo, plant, settle} from './hook-helpers.js'
import {hookDeadline} from './red-team-helpers.js'
import {card, FIXED_NOW, refusal, type Repo, sandboxEnv, tempDir, templateRepo} from './helpers.js'

/**
 * Issue 27, item 1: a repository can commit links at the names of cairn's own files under .cairn/
 * (`git add -f`), and a hook of a user-scope install runs in every clone. Every file and directory
 * name cairn reads or writes there gets a link planted at it, in turn: to a file outside the
 * repository (which must stay byte for byte as it was) and to /dev/zero (which must never be read).
 */

describe("store-files: the one way to cairn's own files", () => {
  it("never follows a link, at the file's name or on its way, and caps what it reads", async () => {
    const base = tempDir()
    const outside = tempDir()
    fs.writeFileSync(path.join(outside, 'secret'), 'secret\n')
    fs.mkdirSync(path.join(base, '.cairn/.cache'), {recursive: true})
    fs.symlinkSync(path.join(outside, 'secret'), path.join(base, '.cairn/.cache/state'))
    expect((await refusal(() => readFileIn(base, '.cairn/.cache/state', 100))).message).toBe(
      'Invalid input:\n  - .cairn/.cache/state: (file): ' +
        'is a symbolic link; cairn never follows links under .cairn/. Fix: replace the link with the file itself (git rm the link, then add a regular file).',
    )
    expect((await refusal(() => appendFileIn(base, '.cairn/.cache/state', 'x'))).message).toContain(
      '.cairn/.cache/state: (file): is a symbolic link',
    )
    // A write replaces the link itself; the target is untouched.
    writeFileIn(base, '.cairn/.cache/state', 'mine\n')
    expect([
      fs.lstatSync(path.join(base, '.cairn/.cache/state')).isFile(),
      fs.readFileSync(path.join(outside, 'secret'), 'utf8'),
    ]).toEqual([true, 'secret\n'])

    fs.symlinkSync(outside, path.join(base, '.cairn/.local'))
    for (const op of [
      () => writeFileIn(base, '.cairn/.local/x', 'y'),
      () => readFileIn(base, '.cairn/.local/secret', 100),
      () => removeFileIn(base, '.cairn/.local/secret'),
    ]) {
      expect((await refusal(op)).message).toBe(
        'Invalid input:\n  - .cairn/.local: (file): is a symbolic link; cairn never follows links under .cairn/. ' +
          'Fix: replace the link with a real directory (git rm the link if it is committed).',
      )
    }
    expect(fs.readdirSync(outside)).toEqual(['secret'])

    fs.symlinkSync('/dev/zero', path.join(base, '.cairn/zero'))
    fs.writeFileSync(path.join(base, '.cairn/big'), 'x'.repeat(101))
    expect((await refusal(() => readFileIn(base, '.cairn/big', 100))).message).toContain(
      '.cairn/big: (content): file is 101 bytes, over the 100-byte limit',
    )
    execFileSync('mkfifo', [path.join(base, '.cairn/fifo')])
    expect((await refusal(() => readFileIn(base, '.cairn/fifo', 100))).message).toContain(
      '.cairn/fifo: (file): is not a regular file',
    )
    expect(readFileIn(base, '.cairn/none/x', 100)).toBeNull()
    expect(dirIn(base, '.cairn/.cache')).toBe(path.join(base, '.cairn/.cache'))
    expect(() => dirIn(base, '../x')).toThrow(/not a plain relative path/)
    // A link named for a file, removed: the link goes, its target stays.
    removeFileIn(base, '.cairn/zero')
    expect(fs.existsSync(path.join(base, '.cairn/zero'))).toBe(false)
  })
})

/**
 * A repository that commits links under .cairn/.cache/ (`git add -f`) and a recall index cut short
 * (so the first prompt hook of a clone starts the background rebuild), cloned as a teammate would.
 */
async function cloneWithLinks(repo: Repo, links: Record<string, string>): Promise<Repo> {
  await promptRecall(repo.ctx(), {prompt: 'the login test is flaky'})
  const index = path.join(repo.dir, '.cairn/.cache/recall-index')
  fs.truncateSync(index, Math.floor(fs.statSync(index).size / 2))
  for (const [name, target] of Object.entries(links)) {
    fs.rmSync(path.join(repo.dir, '.cairn/.cache', name), {force: true})
    fs.symlinkSync(target, path.join(repo.dir, '.cairn/.cache', name))
  }
  repo.git('add', '-f', '.cairn/.cache')
  hookDeadline(repo, 60_000)
  repo.git('commit', '-qam', 'links in the cache')
  const dir = path.join(tempDir(), 'clone')
  const env = sandboxEnv(dir)
  execFileSync('git', ['clone', '-q', repo.dir, dir], {env})
  for (const [k, v] of [
    ['user.name', 'T'],
    ['user.email', 't@example.com'],
    ['commit.gpgsign', 'false'],
  ])
    execFileSync('git', ['-C', dir, 'config', k, v], {env})
  const ctx: Repo['ctx'] = over =>
    createContext({cwd: dir, env: env as Record<string, string>, now: FIXED_NOW, actor: 'tester', ...over})
  return {
    ...repo,
    dir,
    env,
    ctx,
    home: env.HOME as string,
    read: rel => fs.readFileSync(path.join(dir, rel), 'utf8'),
    git: (...a) => execFileSync('git', ['-C', dir, ...a], {env, encoding: 'utf8'}),
  }
}

const PROMPT = (dir: string) => ({
  session_id: 's1',
  cwd: dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'the login test is flaky again',
})

describe('issue 27 item 1: a committed link under .cairn/.cache/', () => {
  it('recall-index.state linked to .git/config: the first prompt hook writes nothing through it', async () => {
    const clone = await cloneWithLinks(await hookRepo(), {'recall-index.state': '../../.git/config'})
    const config = fs.readFileSync(path.join(clone.dir, '.git/config'), 'utf8')
    const r = await feed(clone, 'claude', 'user-prompt-submit', PROMPT(clone.dir))
    await settle(clone)
    expect(r.error).toMatch(/the recall index is corrupt .*; it is rebuilt/)
    expect(fs.readFileSync(path.join(clone.dir, '.git/config'), 'utf8')).toBe(config)
    expect(fs.readFileSync(path.join(clone.dir, '.git/config'), 'utf8')).not.toContain('spawned')
    // The hook still answers once the rebuild is done.
    const again = await feed(clone, 'claude', 'user-prompt-submit', PROMPT(clone.dir))
    expect(JSON.parse(again.stdout).hookSpecificOutput.additionalContext).toContain('flaky-login-test')
  })

  it('recall-index.state and recall-index.lock linked to /dev/zero: the hook answers, reading none of it', async () => {
    const clone = await cloneWithLinks(await hookRepo(), {
      'recall-index.state': '/dev/zero',
      'recall-index.lock': '/dev/zero',
    })
    const r = await feed(clone, 'claude', 'user-prompt-submit', PROMPT(clone.dir))
    await settle(clone)
    // The damaged index is reported (and rebuilt in the background), never /dev/zero read.
    expect(r.error).toMatch(/the recall index is corrupt .*; it is rebuilt/)
    // Both links are replaced by cairn's own files (a rename over a link never writes through it).
    expect(clone.read('.cairn/.cache/recall-index.state')).toBe('{"spawned":1}\n')
    const again = await feed(clone, 'claude', 'user-prompt-submit', PROMPT(clone.dir))
    expect(JSON.parse(again.stdout).hookSpecificOutput.additionalContext).toContain('flaky-login-test')
  })

  it('board-committed linked to /dev/zero: board state answers from the records', async () => {
    const repo = await hookRepo()
    const batch = path.join(tempDir(), 'batch.json')
    fs.writeFileSync(
      batch,
      JSON.stringify({
        batch_id: 'b1',
        declarations: [{op: 'new', id: 'visa', parent: null, kind: 'request', weight: 3, summary: 'Visa.'}],
      }),
    )
    await boardCommit(repo.ctx(), {file: batch, actor: 'agent', now: FIXED_NOW})
    const clone = await cloneWithLinks(repo, {'board-committed': '/dev/zero'})
    const s = await boardState(clone.ctx(), {now: FIXED_NOW})
    expect(s.items.map(i => [i.id, i.weight])).toEqual([['visa', 3]])
  })
})

describe('links on the way to cards', () => {
  it('a .cairn that is a link is no store: commands name the fix, hooks say nothing, nothing is written there', async () => {
    const repo = await hookRepo()
    const elsewhere = path.join(tempDir(), 'store')
    fs.renameSync(path.join(repo.dir, '.cairn'), elsewhere)
    fs.symlinkSync(elsewhere, path.join(repo.dir, '.cairn'))
    const before = snapshotOf(elsewhere)
    const error = await refusal(() => list(repo.ctx()))
    expect([error.code, error.message]).toEqual([
      'not_initialised',
      `${path.join(repo.dir, '.cairn')} is a symbolic link; cairn never ` +
        'follows links to its store. Fix: replace the link with the .cairn directory itself: "git rm" the link, then "cairn init".',
    ])
    expect((await refusal(() => propose(repo.ctx(), {fields: card()}))).code).toBe('not_initialised')
    const r = await feed(repo, 'claude', 'user-prompt-submit', PROMPT(repo.dir))
    expect([r.stdout, r.error]).toEqual(['', undefined])
    expect(snapshotOf(elsewhere)).toBe(before)
  })

  it('a card type folder that is a link: propose is refused by name and writes and commits nothing', async () => {
    const repo = await hookRepo()
    const outside = tempDir()
    fs.mkdirSync(path.join(repo.dir, '.cairn/pending'), {recursive: true})
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/pending/guideline'))
    const head = repo.git('rev-parse', 'HEAD')
    const error = await refusal(() => propose(repo.ctx(), {fields: card({type: 'guideline'})}))
    expect([error.code, error.message]).toEqual([
      'validation',
      'Invalid input:\n  - .cairn/pending/guideline: (file): is a symbolic ' +
        'link; cairn never follows links under .cairn/. Fix: replace the link with a real directory (git rm the link if it is committed).',
    ])
    expect([fs.readdirSync(outside), repo.git('rev-parse', 'HEAD')]).toEqual([[], head])
  })
})

// ---------------------------------------------------------------------------------------------
// The sweep: every name cairn reads or writes under .cairn/, a link planted at each in turn.

const SESSION = 'sweep-1'
const BATCH = {
  batch_id: 'sweep',
  declarations: [{op: 'new', id: 'task', parent: null, kind: 'progress', weight: 2, summary: 'A task.'}],
}

/** Everything cairn does in a store, as a user and their agent would; each step's outcome, for the report. */
async function exercise(repo: Repo): Promise<string[]> {
  const out: string[] = []
  const step = async (name: string, fn: () => Promise<unknown>) => {
    try {
      await fn()
      out.push(`${name}: ok`)
    } catch (error) {
      // A refusal is a CairnError naming the file; anything else (ELOOP, RangeError, a stack) is a crash.
      if (!(error instanceof CairnError)) throw new Error(`${name} crashed: ${(error as Error).stack}`)
      out.push(`${name}: ${error.code}`)
    }
  }
  const ctx = () => repo.ctx({now: FIXED_NOW})
  const hook = (event: string, payload: object) =>
    step(`hook ${event}`, async () => {
      const r = await feed(repo, 'claude', event, {session_id: SESSION, cwd: repo.dir, ...payload})
      if (r.stdout.trim()) JSON.parse(r.stdout)
      if (r.error) out.push(`hook ${event} failed open: ${r.error.replace(/^\S+ /, '')}`)
    })
  const edit = {
    tool_name: 'Edit',
    tool_input: {file_path: path.join(repo.dir, 'db/migrations/1.sql'), old_string: 'a', new_string: 'b'},
  }
  // With a damaged index, the first prompt starts the background rebuild (its lock and state file).
  await hook('user-prompt-submit', {hook_event_name: 'UserPromptSubmit', prompt: 'the login test is flaky'})
  await settle(repo)
  await hook('session-start', {hook_event_name: 'SessionStart'})
  await hook('user-prompt-submit', {hook_event_name: 'UserPromptSubmit', prompt: 'the login test is flaky'})
  await hook('pre-tool-use', {hook_event_name: 'PreToolUse', ...edit})
  await hook('post-tool-use', {hook_event_name: 'PostToolUse', ...edit, tool_response: {}})
  await step('hook malformed', async () => feed(repo, 'claude', 'stop', '{not json'))
  await hook('stop', {hook_event_name: 'Stop', stop_hook_active: false})
  await step('list', () => list(ctx()))
  await step('lint', () => lint(ctx()))
  await step('maintain', () => maintain(ctx()))
  await step('doctor', () => doctor(ctx()))
  const batch = path.join(repo.home, 'batch.json')
  fs.writeFileSync(batch, JSON.stringify(BATCH))
  await step('board commit', () => boardCommit(ctx(), {file: batch, actor: 'agent', now: FIXED_NOW}))
  await step('board state', () => boardState(ctx(), {now: FIXED_NOW}))
  await step('propose', () => propose(ctx(), {fields: card({slug: 'sweep-proposal-card-one', type: 'guideline'})}))
  await step('install', () => install(ctx(), {agent: 'claude'}))
  await step('uninstall', () => uninstall(ctx(), {agent: 'claude'}))
  await settle(repo)
  return out
}

/** Files and directories under a directory, relative to it, sorted: for finding what cairn made. */
function walk(dir: string, prefix = ''): {files: string[]; dirs: string[]} {
  const out = {files: [] as string[], dirs: [] as string[]}
  for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
    const rel = prefix + e.name
    if (e.isDirectory()) {
      out.dirs.push(rel)
      const inner = walk(path.join(dir, e.name), `${rel}/`)
      out.files.push(...inner.files)
      out.dirs.push(...inner.dirs)
    } else if (!e.name.includes('.cairn-tmp-')) out.files.push(rel)
  }
  return {files: out.files.sort(), dirs: out.dirs.sort()}
}

/** The victim outside the repository, as bytes and names, to compare after. */
function snapshotOf(dir: string): string {
  return JSON.stringify(walk(dir).files.map(f => [f, fs.readFileSync(path.join(dir, f), 'base64')]))
}

/**
 * A store in use: a broken card (so the hooks log a skipped card) and a recall index. `cold`: the
 * index is cut short, which a hook never repairs itself: the first prompt starts the background
 * rebuild (its lock and state file), as a large library's first prompt in a fresh clone does.
 */
const sweepTemplate = templateRepo(async repo => {
  await init(repo.ctx())
  // The default 1.5 s is the client's budget, not a bound a loaded test machine always meets.
  hookDeadline(repo, 60_000)
  plant(repo, 'flaky-login-test', {
    title: 'The login test is flaky under load',
    summary: 'The login e2e test times out under parallel load; run it alone.',
    recall: {triggers: ['flaky login test']},
  })
  plant(repo, 'backup-before-migration', {
    title: 'Back up before a migration',
    summary: 'Take a database backup before running any migration.',
    policy: 'must',
    risk: 'high',
    scope: {level: 'project', project_key: null, module_path: null, paths: ['db/migrations/**']},
  })
  repo.write('.cairn/cards/guideline/broken-card-for-sweep.md', '---\nschema: cairn/card@1\nid: [\n---\n')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'cards, one broken')
  await promptRecall(repo.ctx(), {prompt: 'the login test is flaky'})
  const index = path.join(repo.dir, '.cairn/.cache/recall-index')
  fs.copyFileSync(index, `${index}.whole`)
  // Cut short, it is corrupt wherever it is copied: the check fails before the index's own paths are compared.
  fs.truncateSync(index, Math.floor(fs.statSync(index).size / 2))
})

async function sweepRepo(cold: boolean): Promise<Repo> {
  const repo = await sweepTemplate()
  const index = path.join(repo.dir, '.cairn/.cache/recall-index')
  if (!cold) fs.renameSync(`${index}.whole`, index)
  else fs.rmSync(`${index}.whole`)
  return repo
}

/** Names cairn uses only for a moment (locks) or in states the exercise does not reach every time. */
const TRANSIENT = [
  '.cache/recall-index.lock',
  '.local/events.jsonl.rotating',
  '.local/events.1.jsonl',
  `.local/sessions/${SESSION}.json.lock`,
  '.local/.pending-fix',
  '.local/hook-errors.log',
  '.local/hook-errors.log.1',
  '.local/hook-skipped-logged',
]
/** Committed names cairn reads: settings, and the directories cards and batch records live in. */
const COMMITTED_FILES = ['config.yaml', 'signals.yaml', 'lexicon.yaml', '.gitignore']
const COMMITTED_DIRS = ['board', 'board/batches', 'pending', 'pending/guideline', 'cards', 'cards/guideline', 'archive']

describe('issue 27: a link at every name cairn reads or writes under .cairn/', () => {
  it(
    'is never followed: files outside stay as they were, /dev/zero is never read, and no command crashes',
    {timeout: 600_000},
    async () => {
      // First, what a store in use holds: every file and directory cairn made under .cache/ and .local/.
      // Once, so the in-process hooks do not pay for loading their modules inside the 1.5 s deadline.
      await exercise(await sweepRepo(true))
      const clean = await sweepRepo(true)
      const baseline = await exercise(clean)
      expect(baseline.filter(l => !l.endsWith(': ok'))).toEqual([
        expect.stringMatching(/^hook user-prompt-submit failed open: .*the recall index is corrupt .*; it is rebuilt/),
      ])
      const made = {
        cache: walk(path.join(clean.dir, '.cairn/.cache')),
        local: walk(path.join(clean.dir, '.cairn/.local')),
      }
      const files = [
        ...new Set([
          ...made.cache.files.map(f => `.cache/${f}`),
          ...made.local.files.map(f => `.local/${f}`),
          ...TRANSIENT,
          ...COMMITTED_FILES,
        ]),
      ].sort()
      const dirs = [
        '.cache',
        '.local',
        ...made.cache.dirs.map(d => `.cache/${d}`),
        ...made.local.dirs.map(d => `.local/${d}`),
        ...COMMITTED_DIRS,
      ]
      // The exercise reached what the issue names: the rebuild's state, the board's cache, the ledger, sessions, digests, install records.
      expect(files).toEqual(
        expect.arrayContaining([
          '.cache/recall-index',
          '.cache/recall-index.state',
          '.cache/board-committed',
          '.cache/board.json',
          '.cache/cards.json',
          '.local/events.jsonl',
          `.local/sessions/${SESSION}.json`,
          `.local/digests/${SESSION}.md`,
          '.local/hook-skipped-logged',
        ]),
      )
      expect(dirs).toEqual(expect.arrayContaining(['.local/sessions', '.local/digests', '.local/install']))

      const victims = tempDir('cairn-victim-')
      const plants: [string, 'file' | 'zero' | 'dir'][] = [
        ...files.map((f): [string, 'file'] => [f, 'file']),
        ...files.map((f): [string, 'zero'] => [f, 'zero']),
        ...dirs.map((d): [string, 'dir'] => [d, 'dir']),
      ]
      const plantOne = async ([name, kind]: [string, 'file' | 'zero' | 'dir']) => {
        // Only the rebuild's own files need the cold start that makes the first prompt start one.
        const repo = await sweepRepo(/^\.cache(\/recall-index|$)/.test(name) || kind === 'dir')
        const victim = path.join(victims, `${kind}-${name.replace(/\//g, '_')}`)
        if (kind === 'dir') {
          fs.mkdirSync(path.join(victim, 'inner'), {recursive: true})
          fs.writeFileSync(path.join(victim, 'inner/keep'), 'keep\n')
        } else {
          fs.mkdirSync(victim)
          fs.writeFileSync(path.join(victim, 'target'), 'victim\n')
        }
        const before = snapshotOf(victim)
        const at = path.join(repo.dir, '.cairn', name)
        fs.rmSync(at, {recursive: true, force: true})
        fs.mkdirSync(path.dirname(at), {recursive: true})
        fs.symlinkSync(kind === 'zero' ? '/dev/zero' : kind === 'dir' ? victim : path.join(victim, 'target'), at)
        const outcome = await exercise(repo)
        expect(snapshotOf(victim), `${kind} link at .cairn/${name}: ${outcome.join('; ')}`).toBe(before)
      }
      // Three at a time: most of each run waits on git and on the rebuild process.
      const queue = [...plants]
      await Promise.all(
        [1, 2, 3].map(async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await plantOne(next)
        }),
      )
    },
  )
})
