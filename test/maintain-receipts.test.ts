import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {maintain} from '../src/app/maintain.js'
import {renderMaintain} from '../src/cli/render-lifecycle.js'
import {plant} from './hook-helpers.js'
import {cliInProcess} from './cli-in-process.js'
import {type Repo, templateRepo} from './helpers.js'

/** Old enough for a 90-day window: approved long before it, updated within stale_days. */
const OLD = {created: '2026-01-01T00:00:00Z', approved: {by: 'tester', at: '2026-01-02T00:00:00Z'}}
const RICH = {recall: {triggers: ['rotate the signing keys']}}

const store = templateRepo(async repo => {
  await init(repo.ctx())
  // The cards were last confirmed long ago: cairn stale's verify_days would list them all, which is not what is tested.
  repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('verify_days: 180', 'verify_days: 0'))
  const ids = [
    'never-matched-card',
    'matched-long-ago-card',
    'matched-lately-card',
    'read-lately-card',
    'thin-rarely-card',
    'thin-often-card',
  ]
  for (const id of ids) plant(repo, id, OLD)
  plant(repo, 'rich-often-card', {...OLD, ...RICH})
  plant(repo, 'core-never-matched', {...OLD, load: 'core'})
  plant(repo, 'protected-never-matched', {...OLD, protected: true})
  // Approved 58 days ago: younger than the window, so not judged yet.
  plant(repo, 'young-card-never-matched')
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'cards')
})

interface Injected {
  ts: string
  session?: string
  cards: [string, string][]
}

/** Receipts as the hooks would have left them: [id, why] per card, 100 characters each. */
function receipts(repo: Repo, list: Injected[], file = 'receipts.jsonl', event = 'user-prompt-submit'): void {
  const lines = list.map(r =>
    JSON.stringify({
      ts: r.ts,
      session: r.session ?? 's',
      client: event === 'user-prompt-submit' ? 'claude' : 'cursor',
      event,
      cards: r.cards.map(([id, why]) => ({id, why, chars: 100})),
      chars: 100 * r.cards.length + 80,
    }),
  )
  repo.write(`.cairn/.local/${file}`, `${lines.join('\n')}\n`)
}

const times = (n: number, ts: string, id: string): Injected[] =>
  Array.from({length: n}, (_, i) => ({ts, session: `s${i}`, cards: [[id, 'title "x"']]}))

/** 120 days of receipts: every card listed in the catalog on the first day, and the matches each test case needs. */
function history(repo: Repo): void {
  const catalog = ['never-matched-card', 'read-lately-card', 'core-never-matched', 'protected-never-matched']
  receipts(repo, [
    {ts: '2026-08-01T09:00:00Z', cards: catalog.map(id => [id, 'catalog'])},
    {ts: '2026-08-10T09:00:00Z', cards: [['matched-long-ago-card', 'trigger "x"']]},
    {ts: '2026-11-19T09:00:00Z', cards: [['matched-lately-card', 'alias "y"']]},
    ...times(3, '2026-11-20T09:00:00Z', 'thin-rarely-card'),
    ...times(12, '2026-11-21T09:00:00Z', 'thin-often-card'),
    ...times(12, '2026-11-22T09:00:00Z', 'rich-often-card'),
  ])
  repo.write(
    '.cairn/.local/events.jsonl',
    `${JSON.stringify({ts: '2026-11-24T08:00:00.000Z', event: 'card_read', card: 'read-lately-card'})}\n`,
  )
}

const planOf = async (repo: Repo) => {
  const r = await maintain(repo.ctx(), {dryRun: true})
  return {r, actions: r.actions.map(a => [a.action, a.id, a.reasons, a.detail])}
}

describe('maintain reads the receipts', () => {
  it('a fresh install (no receipts) archives nothing for want of use, and says so', async () => {
    const repo = await store()
    const {r, actions} = await planOf(repo)
    expect(actions).toEqual([])
    expect(r.suggestions).toEqual([])
    expect(r.injections).toEqual({
      receipts: 0,
      from: null,
      to: null,
      prompts_from: null,
      days: 0,
      unused_days: 90,
      cards: 0,
      top: [],
    })
    expect(renderMaintain(r)).toBe(
      [
        'Nothing to maintain.',
        'core: 78 -> 78 of 8000 chars',
        'injections: no receipts in this store on this machine (the hooks write .local/receipts.jsonl where they run), ' +
          'so no card is judged unused.',
      ].join('\n'),
    )
  })

  it("a machine whose receipts hold no prompt's matching (Cursor: session start only) judges no card unused", async () => {
    const repo = await store()
    receipts(
      repo,
      [
        {ts: '2026-08-01T09:00:00Z', cards: [['never-matched-card', 'catalog']]},
        {ts: '2026-11-20T09:00:00Z', cards: [['core-never-matched', 'core']]},
      ],
      'receipts.jsonl',
      'session-start',
    )
    const {r, actions} = await planOf(repo)
    expect(actions.filter(a => a[2] && (a[2] as string[]).includes('unused'))).toEqual([])
    expect([r.injections.from, r.injections.prompts_from, r.injections.days]).toEqual(['2026-08-01T09:00:00Z', null, 0])
  })

  it('receipts that go back fewer days than unused_days judge no card unused; the plan says when they will', async () => {
    const repo = await store()
    receipts(repo, [
      {ts: '2026-10-30T09:00:00Z', cards: [['never-matched-card', 'catalog']]},
      {ts: '2026-11-28T09:00:00Z', session: 't', cards: [['matched-lately-card', 'trigger "x"']]},
    ])
    const {r, actions} = await planOf(repo)
    expect(actions).toEqual([])
    expect(renderMaintain(r)).toBe(
      [
        'Nothing to maintain.',
        'core: 78 -> 78 of 8000 chars',
        'injections: 2 receipt(s) from 2026-10-30 to 2026-11-28 (30 day(s); cards no hook matched are judged once ' +
          'they cover maintain.unused_days (90)); per card:',
        'CARD                 INJECTIONS  MATCHED  SESSIONS  LAST                  CHARS  SHARE',
        'matched-lately-card  1           1        1         2026-11-28T09:00:00Z  100    27.8%',
        'never-matched-card   1           0        1         2026-10-30T09:00:00Z  100    27.8%',
      ].join('\n'),
    )
  })

  it('over 90 days of receipts: a recall card unmatched and unread for 90 days is archived; core, protected, young, used and read cards stay', async () => {
    const repo = await store()
    history(repo)
    const {r, actions} = await planOf(repo)
    expect(actions).toEqual([
      [
        'archive',
        'matched-long-ago-card',
        ['unused'],
        'no hook matched it and nobody read it for 90 days; last matched or read on 2026-08-10',
      ],
      [
        'archive',
        'never-matched-card',
        ['unused'],
        'no hook matched it and nobody read it for 90 days; never matched or read since the receipts began on 2026-08-01',
      ],
    ])
    expect(r.skipped).toEqual([])
    expect(r.injections.days).toBe(120)
    // Injected often and thin: suggested for enrich, never a fix, so no marker asks for maintain --apply for it.
    expect(r.suggestions).toEqual([
      {
        action: 'enrich',
        id: 'thin-often-card',
        path: '.cairn/cards/guideline/thin-often-card.md',
        detail:
          'injected 12 times in 12 session(s) with no triggers, aliases or use_when; "cairn enrich" gives the brief to write them',
      },
    ])
    const applied = await maintain(repo.ctx(), {apply: true})
    expect(applied.archive).toBe('20261129T100000Z')
    expect(fs.existsSync(path.join(repo.dir, '.cairn/cards/guideline/never-matched-card.md'))).toBe(false)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/cards/guideline/core-never-matched.md'))).toBe(true)
  })

  it('an older generation counts towards the span; unused_days 0 and enrich_min_injections 0 turn both off', async () => {
    const repo = await store()
    history(repo)
    const current = repo.read('.cairn/.local/receipts.jsonl').split('\n')
    repo.write('.cairn/.local/receipts.2.jsonl', `${current[0]}\n`)
    repo.write('.cairn/.local/receipts.jsonl', current.slice(1).join('\n'))
    expect((await planOf(repo)).actions.map(a => a[1])).toEqual(['matched-long-ago-card', 'never-matched-card'])
    const config = repo.read('.cairn/config.yaml')
    repo.write(
      '.cairn/config.yaml',
      config
        .replace('unused_days: 90', 'unused_days: 0')
        .replace('enrich_min_injections: 10', 'enrich_min_injections: 0'),
    )
    const off = await planOf(repo)
    expect([off.actions, off.r.suggestions]).toEqual([[], []])
    // Without the oldest generation the receipts begin on 2026-08-10: 111 days, still enough to judge both.
    repo.write('.cairn/config.yaml', config)
    fs.rmSync(path.join(repo.dir, '.cairn/.local/receipts.2.jsonl'))
    const later = await planOf(repo)
    expect([later.r.injections.from, later.actions.map(a => a[3])]).toEqual([
      '2026-08-10T09:00:00Z',
      [
        'no hook matched it and nobody read it for 90 days; last matched or read on 2026-08-10',
        'no hook matched it and nobody read it for 90 days; never matched or read since the receipts began on 2026-08-10',
      ],
    ])
  })

  it('cairn maintain --dry-run ends with the table the weekly pull request body carries', async () => {
    const repo = await store()
    history(repo)
    const r = await cliInProcess(['maintain', '--dry-run'], {cwd: repo.dir, env: repo.env})
    // How to apply it goes to stderr: the plan on stdout is what the pull request shows.
    expect([r.code, r.stderr]).toEqual([
      0,
      'Dry run: nothing was written. Run "cairn maintain --apply" to carry out this plan.\n',
    ])
    const tail = r.stdout.split('\n').slice(-13)
    expect(tail).toEqual([
      'enrich  thin-often-card  injected 12 times in 12 session(s) with no triggers, aliases or use_when; "cairn enrich" gives the brief to write them',
      'injections: 30 receipt(s) from 2026-08-01 to 2026-11-22 (120 day(s)); per card:',
      'CARD                     INJECTIONS  MATCHED  SESSIONS  LAST                  CHARS  SHARE',
      // Shares are of every character injected: 30 receipts of 100 per card and 80 around them, 5,700 in all.
      'rich-often-card          12          12       12        2026-11-22T09:00:00Z  1200   21.1%',
      'thin-often-card          12          12       12        2026-11-21T09:00:00Z  1200   21.1%',
      'thin-rarely-card         3           3        3         2026-11-20T09:00:00Z  300    5.3%',
      'core-never-matched       1           0        1         2026-08-01T09:00:00Z  100    1.8%',
      'matched-lately-card      1           1        1         2026-11-19T09:00:00Z  100    1.8%',
      'matched-long-ago-card    1           1        1         2026-08-10T09:00:00Z  100    1.8%',
      'never-matched-card       1           0        1         2026-08-01T09:00:00Z  100    1.8%',
      'protected-never-matched  1           0        1         2026-08-01T09:00:00Z  100    1.8%',
      'read-lately-card         1           0        1         2026-08-01T09:00:00Z  100    1.8%',
      '',
    ])
  })
})
