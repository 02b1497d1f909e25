import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {reviewSession} from '../src/app/review-session.js'
import {parseCard} from '../src/domain/card/format.js'
import {formatIssue} from '../src/domain/errors.js'
import {card, type Repo, snapshot, templateRepo} from './helpers.js'
import {scripted} from './review-helpers.js'

/** The first three pending cards, in the order review shows them. */
const CARDS = [
  card({
    slug: 'browser-validation-user-path',
    type: 'guideline',
    title: 'Check the user path in a browser',
    summary: 'When a UI change affects the user path, check it in a real browser.',
  }),
  card(),
  card({
    slug: 'quote-shell-variables-always',
    title: 'Quote shell variables',
    summary: 'Unquoted variables split on spaces.',
  }),
]
const PENDING = {
  c1: '.cairn/pending/guideline/browser-validation-user-path.md',
  c2: '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
  c3: '.cairn/pending/pitfall/quote-shell-variables-always.md',
}

const english = templateRepo(async repo => {
  await init(repo.ctx())
  for (const fields of CARDS) await propose(repo.ctx(), {fields})
})

const subjects = (repo: Repo, since: string) =>
  repo.git('log', '--format=%s', `${since}..HEAD`).trim().split('\n').reverse()
const exists = (repo: Repo, rel: string) => fs.existsSync(path.join(repo.dir, rel))

describe('interactive review session', () => {
  it("approve, reject (an empty reason is asked again) and skip: each decision is the command's own commit", async () => {
    const repo = await english()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {asker, log, unanswered} = scripted(['a', 'r', '  ', 'covered by config-merge-rules', 's'])
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 1, rejected: 1, deferred: 0, modified: 0, skipped: 1})
    expect([r.quit, r.left, r.text]).toEqual([false, 0, 'Approved 1, rejected 1, deferred 0, modified 0, skipped 1.'])
    expect(subjects(repo, head)).toEqual([
      'cairn(approve): browser-validation-user-path',
      'cairn(reject): deepmerge-array-replace-trap',
    ])
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      'cairn(reject): deepmerge-array-replace-trap\n\nReason: covered by ' +
        'config-merge-rules\n\nCairn-Op: reject\nCairn-Card: deepmerge-array-replace-trap\nCairn-Actor: tester\nCairn-Format: 1\n\n',
    )
    expect(r.done).toEqual([
      {op: 'approve', id: 'browser-validation-user-path', commit: repo.git('rev-parse', 'HEAD~1').trim()},
      {op: 'reject', id: 'deepmerge-array-replace-trap', commit: repo.git('rev-parse', 'HEAD').trim()},
    ])
    expect([exists(repo, PENDING.c1), exists(repo, '.cairn/cards/guideline/browser-validation-user-path.md')]).toEqual([
      false,
      true,
    ])
    expect([exists(repo, PENDING.c2), exists(repo, PENDING.c3)]).toEqual([false, true])
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(log.slice(0, 2)).toEqual([
      'Card Review — 3 pending cards\n',
      'C1 [type=guideline] [layer=team] [load=recall] [relevance_scope=broad] slug=browser-validation-user-path\n' +
        'Title: Check the user path in a browser\n' +
        'Summary: When a UI change affects the user path, check it in a real browser.\n' +
        'Rule: the same as the summary.\n' +
        'Proposed by: tester · session session-1 · via cli · 2026-11-29T10:00:00Z\n' +
        'Scope: project\n' +
        'Layer reasoning: team — the default: the card was proposed into the project store, where this review catches a ' +
        'wrong choice; a card wrongly made personal would never reach the team.\n' +
        'Scope reasoning: broad — no path patterns: it applies wherever the agent works in this project.\n' +
        'relevance_paths: []\n' +
        'recall: policy=may risk=medium\n' +
        'derived_triggers: ["user path","browser","ui change affects"] — derived by cairn from the title, ' +
        'summary and rule, not chosen by a person; replace them with ' +
        '"cairn review modify browser-validation-user-path --set triggers=<phrase>,<phrase>"\n' +
        `pending_path: ${PENDING.c1}\n`,
    ])
    expect(log.slice(2, 9)).toEqual([
      '? C1/3 browser-validation-user-path: [a]pprove [r]eject [m]odify [d]efer [s]kip [q]uit — type a key, then Enter:',
      '  a) approve: make it active and move it to cards/',
      '  r) reject: remove it, with the reason in the commit message',
      '  m) modify: change one field, then decide again',
      '  d) defer: hide it from review until a date',
      '  s) skip: leave it pending for now',
      '  q) quit: stop here; what is done stays committed',
    ])
    const approved = repo.git('rev-parse', 'HEAD~1').trim().slice(0, 7)
    expect(log).toContain(
      `Approved browser-validation-user-path: .cairn/cards/guideline/browser-validation-user-path.md (commit ${approved}).\n`,
    )
    const reason = log.indexOf('? Reason for rejecting (it goes into the commit message):')
    expect(log[reason + 1]).toBe('! Give a reason: it goes into the commit message, so the card can be found again.')
    expect(log).toContain(
      `Rejected deepmerge-array-replace-trap: removed; the reason is in commit ${repo.git('rev-parse', '--short=7', 'HEAD').trim()}.\n`,
    )
  })

  it('a refused modify is shown and the same card asked again; an accepted one shows the card as it now is', async () => {
    const repo = await english()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {asker, log, unanswered} = scripted([
      'm',
      'load',
      'sometimes',
      'm',
      'slug',
      'check-user-path-in-browser',
      'a',
      'q',
    ])
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 1, rejected: 0, deferred: 0, modified: 1, skipped: 0})
    expect([r.quit, r.left]).toEqual([true, 2])
    expect(r.text).toBe(
      'Approved 1, rejected 0, deferred 0, modified 1, skipped 0.\n2 cards left for later: run "cairn review" again to decide them.',
    )
    expect(subjects(repo, head)).toEqual([
      'cairn(modify): browser-validation-user-path (slug)',
      'cairn(approve): check-user-path-in-browser',
    ])
    expect(exists(repo, '.cairn/cards/guideline/check-user-path-in-browser.md')).toBe(true)
    expect(log).toContain('? New value of load (now recall):')
    const refused = log.find(l => l.startsWith('Not done: '))!
    expect(refused).toBe(
      `Not done: Invalid input:\n  - ${PENDING.c1}: load: "sometimes" is not a load tier. Fix: use core or recall.\n`,
    )
    const labels = log.filter(l => l.startsWith('C1 ')).map(l => l.split('\n')[0])
    expect(labels).toEqual([
      'C1 [type=guideline] [layer=team] [load=recall] [relevance_scope=broad] slug=browser-validation-user-path',
      'C1 [type=guideline] [layer=team] [load=recall] [relevance_scope=broad] slug=browser-validation-user-path',
      'C1 [type=guideline] [layer=team] [load=recall] [relevance_scope=broad] slug=check-user-path-in-browser',
    ])
    expect(log.filter(l => l.startsWith('? Which field?'))).toHaveLength(2)
    expect(log[log.indexOf('? Which field?') + 1]).toBe('  type')
  })

  it('a list field is asked for as comma-separated; the text fields can be modified too', async () => {
    const repo = await english()
    const {asker, log, unanswered} = scripted([
      'm',
      'triggers',
      'user path,real browser',
      'm',
      'policy',
      'must',
      'm',
      'title',
      'Walk the user path in a real browser',
      's',
      'q',
    ])
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts.modified).toBe(3)
    expect(log.filter(l => l.startsWith('? New value'))).toEqual([
      '? New value of triggers, comma-separated:',
      '? New value of policy (now may):',
      '? New value of title (now Check the user path in a browser):',
    ])
    const c = parseCard(repo.read(PENDING.c1), PENDING.c1)
    expect([c.recall.triggers, c.recall.policy, c.title]).toEqual([
      ['user path', 'real browser'],
      'must',
      'Walk the user path in a real browser',
    ])
  })

  it('defer refuses a date that is not a future date at the prompt and asks again; Ctrl-C then quits', async () => {
    const repo = await english()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const {asker, log, unanswered} = scripted(['d', '2020-01-01', 'next week', '2026-12-31', null])
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 0, rejected: 0, deferred: 1, modified: 0, skipped: 0})
    expect([r.quit, r.left]).toEqual([true, 2])
    expect(subjects(repo, head)).toEqual(['cairn(defer): browser-validation-user-path until 2026-12-31T00:00:00Z'])
    expect(repo.read(PENDING.c1)).toContain('\ndeferred_until: 2026-12-31T00:00:00Z\n')
    expect(log.filter(l => l.startsWith('! '))).toEqual([
      '! That date is already past (now is 2026-11-29T10:00:00Z): give a later one.',
      '! Not a date: type it as YYYY-MM-DD, such as 2026-12-31.',
    ])
    expect(log).toContain(
      `Deferred browser-validation-user-path until 2026-12-31T00:00:00Z (commit ${repo.git('rev-parse', '--short=7', 'HEAD').trim()}).\n`,
    )
    expect(log.at(-1)).toMatch(/^ {2}q\) quit/)
  })

  it('leaving in the middle of a decision (Ctrl-C at the reason, or at the field) writes nothing', async () => {
    for (const script of [
      ['r', null],
      ['m', null],
      ['m', 'load', null],
      ['d', null],
    ]) {
      const repo = await english()
      const before = snapshot(repo)
      const r = await reviewSession(repo.ctx(), scripted(script).asker)
      expect([r.quit, r.left, r.counts.approved + r.counts.rejected + r.counts.deferred + r.counts.modified]).toEqual([
        true,
        3,
        0,
      ])
      expect(snapshot(repo)).toEqual(before)
    }
  })

  it('a card another command decided meanwhile is reported, and can be skipped', async () => {
    const repo = await english()
    const {asker, log, unanswered} = scripted(['s', 'a', 's', 's'])
    const say = asker.say
    asker.say = text => {
      say(text)
      // The card is removed behind the session's back while it is shown.
      if (text.startsWith('C2 ')) fs.rmSync(path.join(repo.dir, PENDING.c2), {force: true})
    }
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 0, rejected: 0, deferred: 0, modified: 0, skipped: 3})
    expect(log.filter(l => l.startsWith('Not done: '))).toEqual([
      expect.stringContaining('deepmerge-array-replace-trap'),
    ])
  })

  it('a card modified out of the review (into the personal store, with --since) is said to be gone; the next comes', async () => {
    const repo = await english()
    const since = repo.git('rev-parse', 'HEAD~2').trim()
    const {asker, log, unanswered} = scripted(['m', 'layer', 'personal', 's'])
    const r = await reviewSession(repo.ctx(), asker, {since})
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 0, rejected: 0, deferred: 0, modified: 1, skipped: 1})
    expect(log).toContain('deepmerge-array-replace-trap is no longer in this review; going on to the next card.\n')
    expect(log.filter(l => /^C\d /.test(l)).map(l => l.slice(0, 3))).toEqual(['C1 ', 'C2 '])
    expect(log[0]).toBe('Card Review — 2 pending cards\n')
    expect(fs.existsSync(path.join(repo.home, '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'))).toBe(true)
  })

  it('with nothing pending, it says so and asks nothing', async () => {
    const repo = await english()
    const {asker, log, unanswered} = scripted(['a', 'a', 'a'])
    await reviewSession(repo.ctx(), asker)
    expect([unanswered, log.filter(l => l.startsWith('? ')).length]).toEqual([[], 3])
    // The script is empty: a question would throw "the script ran out of answers".
    const empty = await reviewSession(repo.ctx(), scripted([]).asker)
    expect(empty).toEqual({
      language: 'en',
      counts: {approved: 0, rejected: 0, deferred: 0, modified: 0, skipped: 0},
      left: 0,
      quit: false,
      unreadable: [],
      done: [],
      text: 'No pending cards to review.',
    })
  })

  it('a pending card that does not parse is shown as a problem before the first question; the others are asked', async () => {
    const repo = await english()
    repo.write(PENDING.c2, repo.read(PENDING.c2).replace('title: deepMerge replaces arrays', 'title: "deepMerge'))
    const {asker, log, unanswered} = scripted(['a', 's'])
    const r = await reviewSession(repo.ctx(), asker)
    expect(unanswered).toEqual([])
    expect(r.counts).toEqual({approved: 1, rejected: 0, deferred: 0, modified: 0, skipped: 1})
    expect(r.unreadable.map(i => i.file)).toEqual([PENDING.c2])
    expect(log[1]).toBe(
      'This pending card cannot be read, so the review leaves it out; mend the file as each line says, then run ' +
        `"cairn review" again:\n- ${formatIssue(r.unreadable[0])}\n`,
    )
    expect(log.filter(l => l.startsWith('? C'))).toHaveLength(2)
    expect(log.filter(l => /^C\d /.test(l)).map(l => l.split('\n')[0].split(' ').at(-1))).toEqual([
      'slug=browser-validation-user-path',
      'slug=quote-shell-variables-always',
    ])
  })
})
