import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {receipts, stats} from '../src/app/receipts.js'
import {renderCard, validateFrontmatter} from '../src/domain/card/format.js'
import {renderBody} from '../src/domain/card/sections.js'
import {openStores} from '../src/store/stores.js'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'
import {cli, FIXED_NOW, type Repo} from './helpers.js'

const TS = FIXED_NOW
const RECEIPTS = '.cairn/.local/receipts.jsonl'
const lines = (repo: Repo): string[] =>
  fs.existsSync(path.join(repo.dir, RECEIPTS)) ? repo.read(RECEIPTS).split('\n').filter(Boolean) : []
const chars = (s: string) => [...s].length
const context = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext

const payload = (repo: Repo, event: string, extra: object = {}) => ({
  session_id: 'sess-1',
  cwd: repo.dir,
  hook_event_name: event,
  ...extra,
})
const prompt = (repo: Repo, text: string, session = 'sess-1') =>
  feed(repo, 'claude', 'user-prompt-submit', payload(repo, 'UserPromptSubmit', {prompt: text, session_id: session}))

/** The hook repo with a second card the login prompt finds, indexed by a session start. */
async function twoCardRepo(): Promise<Repo> {
  const repo = await hookRepo()
  plant(repo, 'login-test-retries', {
    title: 'Retry the login test before calling it broken',
    summary: 'The login test fails once in ten runs; retry it before you debug.',
    recall: {triggers: ['login test fails', 'retry the login test']},
  })
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'a second login card')
  return repo
}

const TWO_CARDS = 'the flaky login test fails again, retry the login test'

/** The light index's entries by id: from an entry's first line to the line before the next entry. */
function entries(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const block of text
    .split('\n')
    .slice(1)
    .join('\n')
    .split(/\n(?=- )/)) {
    out.set(/\(([a-z0-9-]+)\) \[/.exec(block)![1], block)
  }
  return out
}

describe('receipts: what the hooks injected', () => {
  it('acceptance: a prompt that injects two cards leaves one line; receipts --json lists them with why and size, stats --json counts them', async () => {
    const repo = await twoCardRepo()
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    const before = lines(repo).length
    const r = await prompt(repo, TWO_CARDS)
    const given = context(r.stdout)
    const entry = entries(given)
    expect([...entry.keys()]).toEqual(['login-test-retries', 'flaky-login-test'])
    expect(lines(repo)).toHaveLength(before + 1)
    const line = JSON.parse(lines(repo).at(-1)!)
    const expected = {
      ts: TS,
      session: 'sess-1',
      client: 'claude',
      event: 'user-prompt-submit',
      cards: [
        {id: 'login-test-retries', why: 'trigger "login test fails"', chars: 287},
        {id: 'flaky-login-test', why: 'trigger "flaky login test"', chars: 236},
      ],
      chars: 610,
    }
    expect(line).toEqual(expected)
    // The sizes are the entries as the client got them, and the total is all it got.
    expect([chars(entry.get('login-test-retries')!), chars(entry.get('flaky-login-test')!), chars(given)]).toEqual([
      287, 236, 610,
    ])

    const listed = await cli(['receipts', '--session', 'sess-1', '--json'], {cwd: repo.dir, env: repo.env})
    expect([listed.code, listed.stderr]).toEqual([0, ''])
    const data = listed.json().data
    expect(data.receipts.at(-1)).toEqual(expected)
    expect(data.receipts.map((x: {event: string}) => x.event)).toEqual(['session-start', 'user-prompt-submit'])

    const counted = await cli(['stats', '--json'], {cwd: repo.dir, env: repo.env})
    expect([counted.code, counted.stderr]).toEqual([0, ''])
    const s = counted.json().data
    expect([s.store, s.receipts, s.kept]).toEqual(['project', 2, 2])
    const byId = Object.fromEntries(s.cards.map((c: {id: string}) => [c.id, c]))
    expect(byId['login-test-retries']).toEqual({
      id: 'login-test-retries',
      store: 'project',
      injections: 2,
      matched: 1,
      sessions: 1,
      last: TS,
      last_matched: TS,
      // Its catalog line at session start (134) and its light-index entry (287), of 609 + 610 characters.
      chars: 134 + 287,
      share: 0.3454,
    })
    expect(s.chars).toBe(609 + 610)
    expect([byId['flaky-login-test'].injections, byId['flaky-login-test'].matched]).toEqual([2, 1])
    expect(s.sessions).toEqual([
      {session: 'sess-1', client: 'claude', injections: 2, cards: 4, chars: s.chars, first: TS, last: TS},
    ])
  })

  it('session start: core cards, then catalog lines, each with its size; the total is what the client got', async () => {
    const repo = await hookRepo()
    const r = await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    const given = context(r.stdout)
    const catalog = given.split('\n').filter(l => /^- [a-z-]+: /.test(l))
    expect(lines(repo).map(l => JSON.parse(l))).toEqual([
      {
        ts: TS,
        session: 'sess-1',
        client: 'claude',
        event: 'session-start',
        cards: [
          {id: 'run-tests-before-push', why: 'core', chars: 92},
          {id: 'backup-before-migration', why: 'catalog', chars: chars(catalog[0])},
          {id: 'flaky-login-test', why: 'catalog', chars: chars(catalog[1])},
        ],
        chars: chars(given),
      },
    ])
    expect(chars('### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.')).toBe(
      92,
    )
    await settle(repo)
  })

  it('one short line per injecting call, none for a call that injects nothing', async () => {
    const repo = await twoCardRepo()
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    expect(lines(repo)).toHaveLength(1)
    await prompt(repo, 'rename the quarterly spreadsheet colours')
    expect(lines(repo)).toHaveLength(1)
    for (let i = 1; i <= 3; i++) {
      await prompt(repo, TWO_CARDS, `sess-${i}`)
      expect(lines(repo)).toHaveLength(1 + i)
    }
    for (const l of lines(repo)) expect(Buffer.byteLength(l)).toBeLessThan(600)
    const r = await stats(repo.ctx())
    // Most injected first; on a tie, the larger first.
    expect(r.cards.map(c => [c.id, c.injections, c.matched, c.sessions])).toEqual([
      ['login-test-retries', 4, 3, 3],
      ['flaky-login-test', 4, 3, 3],
      ['backup-before-migration', 1, 0, 1],
      ['run-tests-before-push', 1, 1, 1],
    ])
  })

  it('path cards name the glob; an enforced deny is a receipt of the rule it gave', async () => {
    const repo = await hookRepo()
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('enforce_must: false', 'enforce_must: true'),
    )
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    const edit = (file: string, session: string) =>
      feed(
        repo,
        'claude',
        'pre-tool-use',
        payload(repo, 'PreToolUse', {
          session_id: session,
          tool_name: 'Write',
          tool_input: {file_path: path.join(repo.dir, file), content: 'x'},
        }),
      )
    const denied = await edit('db/migrations/002.sql', 'sess-2')
    const reason: string = JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason
    expect(JSON.parse(lines(repo).at(-1)!)).toEqual({
      ts: TS,
      session: 'sess-2',
      client: 'claude',
      event: 'pre-tool-use',
      cards: [{id: 'backup-before-migration', why: 'enforced path db/migrations/**', chars: chars(reason)}],
      chars: chars(reason),
    })
    const count = lines(repo).length
    expect((await edit('db/migrations/002.sql', 'sess-2')).stdout).toBe('')
    expect(lines(repo)).toHaveLength(count)

    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('enforce_must: true', 'enforce_must: false'),
    )
    const shown = await edit('db/migrations/003.sql', 'sess-3')
    const text = context(shown.stdout)
    expect(JSON.parse(lines(repo).at(-1)!).cards).toEqual([
      {id: 'backup-before-migration', why: 'path db/migrations/**', chars: chars(text.split('\n')[1])},
    ])
  })

  it('a client that cannot show prompt context (Cursor) leaves no receipt for the prompt', async () => {
    const repo = await twoCardRepo()
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    const before = lines(repo).length
    const r = await feed(repo, 'cursor', 'user-prompt-submit', {
      conversation_id: 'c-1',
      workspace_roots: [repo.dir],
      hook_event_name: 'beforeSubmitPrompt',
      prompt: TWO_CARDS,
    })
    expect(r.stdout).toBe('')
    expect(lines(repo)).toHaveLength(before)
  })

  it("a card the client's size limit cut off is not in the receipt", async () => {
    const repo = await hookRepo()
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('core_budget: 8000', 'core_budget: 9600'))
    // About 450 characters of Claude Code's 10,000 are left for the catalog: its first lines, then the cut.
    plant(repo, 'a-long-core-rule', {load: 'core', title: 'A long core rule'}, 'Long. '.repeat(1560).trim())
    for (let i = 0; i < 8; i++)
      plant(repo, `catalog-card-number-${i}`, {title: `Catalog card number ${i}`, summary: `Summary ${i}.`})
    const r = await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    const given = context(r.stdout)
    expect(given.endsWith('… (cut to fit the hook size limit)')).toBe(true)
    const printed = given.split('\n').filter(l => /^- [a-z0-9-]+: /.test(l))
    const ids = printed.map(l => /^- ([a-z0-9-]+):/.exec(l)![1])
    expect(ids.length).toBeGreaterThan(0)
    expect(ids.length).toBeLessThan(10)
    const line = JSON.parse(lines(repo).at(-1)!)
    expect(line.cards.filter((c: {why: string}) => c.why === 'catalog')).toEqual(
      printed.map((l, i) => ({id: ids[i], why: 'catalog', chars: chars(l)})),
    )
    expect(line.chars).toBe(chars(given))
    await settle(repo)
  })

  it('a receipt that cannot be written changes nothing the hook prints, and is logged', async () => {
    const repo = await twoCardRepo()
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    const good = await prompt(repo, TWO_CARDS)
    fs.rmSync(path.join(repo.dir, RECEIPTS))
    fs.mkdirSync(path.join(repo.dir, RECEIPTS))
    const r = await prompt(repo, TWO_CARDS, 'sess-9')
    expect(r.stdout).toBe(good.stdout)
    expect(r.error).toBeUndefined()
    expect(errorLog(repo)).toEqual([expect.stringMatching(/ claude user-prompt-submit: receipt not written: /)])
  })

  it("a personal card given in a project is in both stores' receipts, marked in the project's", async () => {
    const repo = await hookRepo()
    const personal = await openStores(repo.ctx()).ensurePersonal()
    const fm = validateFrontmatter({
      schema: 'cairn/card@1',
      id: 'my-own-login-habit',
      type: 'guideline',
      status: 'active',
      title: 'My own login habit',
      summary: 'I rerun the flaky login test alone.',
      scope: {level: 'global'},
      recall: {triggers: ['flaky login test']},
    })
    const body = renderBody(
      {
        problem: fm.summary,
        use_when: [],
        ignore_when: [],
        policy: 'may',
        risk: 'low',
        rule: 'Rerun it.',
        evidence: '-',
      },
      'en',
    )
    fs.mkdirSync(path.join(personal.root, 'cards/guideline'), {recursive: true})
    fs.writeFileSync(path.join(personal.root, 'cards/guideline/my-own-login-habit.md'), renderCard({...fm, body}))
    await feed(repo, 'claude', 'session-start', payload(repo, 'SessionStart'))
    await settle(repo)
    await prompt(repo, 'the flaky login test again')
    const project = JSON.parse(lines(repo).at(-1)!)
    expect(project.cards.map((c: object) => ({...c, chars: 0}))).toEqual([
      {id: 'flaky-login-test', why: 'trigger "flaky login test"', chars: 0},
      {id: 'my-own-login-habit', why: 'trigger "flaky login test"', chars: 0, store: 'personal'},
    ])
    const mine = (await receipts(repo.ctx(), {store: 'personal'})).receipts
    expect(mine.map(x => [x.event, x.cards.map(c => c.id), x.chars])).toEqual([
      ['session-start', ['my-own-login-habit'], expect.any(Number)],
      ['user-prompt-submit', ['my-own-login-habit'], project.chars],
    ])
    expect(mine[1].cards).toEqual([
      {id: 'my-own-login-habit', why: project.cards[1].why, chars: project.cards[1].chars},
    ])
    const s = await stats(repo.ctx())
    expect(s.cards.find(c => c.id === 'my-own-login-habit')?.store).toBe('personal')
  })
})
