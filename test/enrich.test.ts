import {describe, expect, it} from 'vitest'
import {enrichApply, enrichList} from '../src/app/enrich.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve} from '../src/app/review.js'
import {useIndex} from '../src/recall/open.js'
import {storesOf} from './recall-index-helpers.js'
import {card, cli, refusal, type Repo, snapshot, templateRepo} from './helpers.js'

const THIN = card({
  slug: 'lockfile-drift-after-rebase',
  type: 'pitfall',
  title: 'Lockfile drift after rebase',
  summary: 'Run npm ci after a rebase that touched package-lock.json.',
})
const RICH = card({
  slug: 'quote-shell-variables-always',
  type: 'guideline',
  title: 'Quote shell variables',
  summary: 'Unquoted variables split on spaces.',
  recall: {
    triggers: ['word splitting in bash', 'spaces in file names break the script'],
    aliases: {en: ['unquoted expansion'], zh: ['变量加引号']},
  },
  criteria: {use_when: ['writing a shell script']},
})
const PENDING = card({slug: 'pending-thin-card-here', title: 'Pending thin card', summary: 'Waits for review.'})
const CORE = card({
  slug: 'always-run-tests-first',
  title: 'Run the tests first',
  summary: 'Before a push.',
  load: 'core',
})

/** Three active cards (one thin, one rich, one core) and a thin pending one. */
const enrichRepo = templateRepo(async (repo: Repo) => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: THIN})
  await propose(repo.ctx(), {fields: RICH})
  await propose(repo.ctx(), {fields: CORE})
  await approve(repo.ctx(), {all: true})
  await propose(repo.ctx(), {fields: PENDING})
})

const THIN_PATH = '.cairn/cards/pitfall/lockfile-drift-after-rebase.md'
const PHRASES = [
  {
    id: 'lockfile-drift-after-rebase',
    triggers: ['npm ci fails after rebase', 'package-lock conflicts after rebasing'],
    aliases: {en: ['lockfile drift'], zh: ['变基后锁文件冲突', '依赖锁文件']},
    use_when: ['rebasing a branch that changed dependencies'],
  },
]
const applying = (repo: Repo, entries: unknown, extra: {replace?: boolean; noCommit?: boolean} = {}) =>
  enrichApply(repo.ctx({stdin: JSON.stringify(entries)}), {file: '-', ...extra})

describe('cairn enrich: the list', () => {
  it('lists the thin active and pending cards, active first, each with its brief; a rich card is left out', async () => {
    const repo = await enrichRepo()
    const r = await enrichList(repo.ctx())
    expect(r.total).toBe(2)
    expect(r.cards.map(b => [b.id, b.status])).toEqual([
      ['lockfile-drift-after-rebase', 'active'],
      ['pending-thin-card-here', 'pending'],
    ])
    expect(r.cards[0]).toEqual({
      id: 'lockfile-drift-after-rebase',
      store: 'project',
      path: THIN_PATH,
      status: 'active',
      type: 'pitfall',
      language: 'en',
      title: 'Lockfile drift after rebase',
      summary: 'Run npm ci after a rebase that touched package-lock.json.',
      rule: 'Run npm ci after a rebase that touched package-lock.json.',
      has: {
        triggers: [],
        derived_triggers: ['lockfile drift', 'rebase', 'npm ci', 'package-lock.json'],
        aliases: {en: [], zh: []},
        use_when: [],
        ignore_when: [],
      },
      missing: ['triggers', 'aliases', 'use_when', 'en', 'zh'],
    })
    expect(r.rules.join('\n')).toMatch(/Both languages/)
    expect((await enrichList(repo.ctx(), {limit: 1})).cards.map(b => b.id)).toEqual(['lockfile-drift-after-rebase'])
    // A core card is in every session whatever its words: listed only when asked for by id, as any card is.
    const core = await enrichList(repo.ctx(), {ids: ['always-run-tests-first']})
    expect(core.cards.map(b => [b.id, b.missing.length > 0])).toEqual([['always-run-tests-first', true]])
    // An id asked for is briefed, thin or not.
    const asked = await enrichList(repo.ctx(), {ids: ['quote-shell-variables-always']})
    expect(asked.cards.map(b => [b.id, b.missing])).toEqual([['quote-shell-variables-always', []]])
    expect((await refusal(() => enrichList(repo.ctx(), {ids: ['no-such-card-here']}))).code).toBe('not_found')
    expect((await refusal(() => enrichList(repo.ctx(), {limit: 0}))).code).toBe('validation')
  })
})

describe('cairn enrich --apply', () => {
  it('adds the phrases in one commit, after which a paraphrase in the other language recalls the card', async () => {
    const repo = await enrichRepo()
    const prompt = '依赖锁文件又乱了'
    expect((await recall(repo.ctx(), {prompt})).cards).toEqual([])
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await applying(repo, PHRASES)
    expect(r).toEqual({
      cards: [
        {
          id: 'lockfile-drift-after-rebase',
          store: 'project',
          path: THIN_PATH,
          changed: ['triggers', 'aliases.en', 'aliases.zh', 'use_when'],
        },
      ],
      unchanged: [],
      commits: {project: repo.git('rev-parse', 'HEAD').trim()},
    })
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      'cairn(enrich): recall phrases for lockfile-drift-after-rebase\n\n' +
        'Cairn-Op: enrich\nCairn-Card: lockfile-drift-after-rebase\nCairn-Actor: tester\nCairn-Format: 1\n\n',
    )
    expect(repo.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe(THIN_PATH)
    const text = repo.read(THIN_PATH)
    expect(text).toContain('  use_when: [rebasing a branch that changed dependencies]\n')
    expect(text).toContain('  triggers: [npm ci fails after rebase, package-lock conflicts after rebasing]\n')
    expect(text).toContain('    zh: [变基后锁文件冲突, 依赖锁文件]\n')
    // cairn's own guesses stay beside the phrases: they are evidence too.
    expect(text).toContain('  derived_triggers: [lockfile drift, rebase, npm ci, package-lock.json]\n')
    expect((await recall(repo.ctx(), {prompt})).cards.map(c => c.id)).toEqual(['lockfile-drift-after-rebase'])
    expect((await enrichList(repo.ctx())).cards.map(b => b.id)).toEqual(['pending-thin-card-here'])
  })

  it("adds to a card's own phrases without repeats (by normalised text); --replace replaces each field given", async () => {
    const repo = await enrichRepo()
    const id = 'quote-shell-variables-always'
    const same = await applying(repo, [{id, triggers: ['Word  Splitting in BASH'], aliases: {zh: ['变量加引号']}}])
    expect(same).toEqual({cards: [], unchanged: [id], commits: {project: null}})
    const added = await applying(repo, [{id, triggers: ['globbing surprise in a loop', 'word splitting in bash']}])
    expect(added.cards.map(c => c.changed)).toEqual([['triggers']])
    expect(repo.read('.cairn/cards/guideline/quote-shell-variables-always.md')).toContain(
      '  triggers: [word splitting in bash, spaces in file names break the script, globbing surprise in a loop]\n',
    )
    await applying(repo, [{id, triggers: ['quoting bash variables']}], {replace: true})
    const text = repo.read('.cairn/cards/guideline/quote-shell-variables-always.md')
    expect(text).toContain('  triggers: [quoting bash variables]\n')
    expect(text).toContain('    zh: [变量加引号]\n')
  })

  it('a file applied again commits only the cards it still changes, and names them', async () => {
    const repo = await enrichRepo()
    const entries = [...PHRASES, {id: 'pending-thin-card-here', triggers: ['card waiting for review']}]
    await applying(repo, entries)
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('cairn(enrich): recall phrases for 2 cards')
    const head = repo.git('rev-parse', 'HEAD').trim()
    // The same file: nothing to add, no commit.
    expect(await applying(repo, entries)).toEqual({
      cards: [],
      unchanged: ['lockfile-drift-after-rebase', 'pending-thin-card-here'],
      commits: {project: null},
    })
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    // One more phrase on one card: the commit names that card, the other is unchanged.
    const more = [{...entries[0], triggers: [...entries[0].triggers!, 'lockfile out of date after rebase']}, entries[1]]
    const r = await applying(repo, more)
    expect([r.cards.map(c => c.id), r.unchanged]).toEqual([['lockfile-drift-after-rebase'], ['pending-thin-card-here']])
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(
      'cairn(enrich): recall phrases for lockfile-drift-after-rebase',
    )
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
  })

  it('with noCommit writes the card and leaves it unstaged', async () => {
    const repo = await enrichRepo()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await applying(repo, PHRASES, {noCommit: true})
    expect(r.commits).toEqual({project: null})
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe(` M ${THIN_PATH}\n`)
  })

  it('refuses bad entries all at once, by place, id and field, and writes nothing', async () => {
    const repo = await enrichRepo()
    const before = snapshot(repo)
    const error = await refusal(() =>
      applying(repo, [
        {id: 'no-such-card-here', triggers: ['a real phrase here']},
        {id: 'lockfile-drift-after-rebase', triggers: ['test', 'x'.repeat(121)], aliases: {en: ['变基'], fr: []}},
        {id: 'lockfile-drift-after-rebase', use_when: ['rebasing onto main']},
        {triggers: ['no id given here']},
        {id: 'quote-shell-variables-always', extra: 1, aliases: {zh: ['rebase']}},
        {id: 'pending-thin-card-here'},
        {
          id: 'always-run-tests-first',
          triggers: [`${'变'.repeat(59)}😀😀`, `${'变'.repeat(119)}😀😀`],
          ignore_when: ['lockfile', '锁文件', '改文档', 'explain what a lockfile is', '解释锁文件原理', '只改 README'],
        },
      ]),
    )
    expect(error.code).toBe('validation')
    const issues = (error.data as {issues: {field: string; message: string}[]}).issues
    expect(issues.map(i => `${i.field}: ${i.message}`)).toEqual([
      '[1] (lockfile-drift-after-rebase).triggers[0]: "test" is one common word, which a prompt about anything holds',
      '[1] (lockfile-drift-after-rebase).triggers[1]: is 121 characters; a phrase is at most 120',
      '[1] (lockfile-drift-after-rebase).aliases.fr: is not a language enrich takes',
      '[1] (lockfile-drift-after-rebase).aliases.en[0]: is Chinese, under aliases.en',
      '[2].id: "lockfile-drift-after-rebase" is given twice',
      '[3].id: is required: the id of the card',
      '[4] (quote-shell-variables-always).extra: is not a field enrich takes',
      '[4] (quote-shell-variables-always).aliases.zh[0]: has no Chinese, under aliases.zh',
      '[5] (pending-thin-card-here): gives no phrase',
      // Characters as a person counts them: 119 and two emoji are 121, though 123 UTF-16 units.
      '[6] (always-run-tests-first).triggers[1]: is 121 characters; a phrase is at most 120',
      '[6] (always-run-tests-first).ignore_when[0]: "lockfile" is one word: every prompt that says it would rule the card out',
      '[6] (always-run-tests-first).ignore_when[1]: "锁文件" is one word: every prompt that says it would rule the card out',
      '[6] (always-run-tests-first).ignore_when[2]: "改文档" is one word: every prompt that says it would rule the card out',
      '[0].id: no active or pending card "no-such-card-here"',
    ])
    expect(error.message).toMatch(/^Refused \(stdin\); nothing was written/)
    expect(snapshot(repo)).toEqual(before)
    // Places count in the array as given, an entry with no usable id included.
    const shifted = await refusal(() =>
      applying(repo, [
        {triggers: ['a real phrase here']},
        {id: 42},
        {id: 'no-such-card-here', triggers: ['another phrase']},
      ]),
    )
    expect(
      (shifted.data as {issues: {field: string; message: string}[]}).issues.map(i => `${i.field}: ${i.message}`),
    ).toEqual([
      '[0].id: is required: the id of the card',
      '[1].id: must be a string: the id of the card',
      '[2].id: no active or pending card "no-such-card-here"',
    ])
    // A lone surrogate (half a UTF-16 pair, which a JSON escape can make) is no text.
    const half = await refusal(() =>
      applying(repo, [{id: 'lockfile-drift-after-rebase', triggers: ['lock \ud800 file']}]),
    )
    expect((half.data as {issues: {field: string; message: string}[]}).issues.map(i => i.message)).toEqual([
      'holds half of a UTF-16 pair (a lone surrogate), no character',
    ])
    // Thousands of bad entries: the first 50 problems, and how many more.
    const many = Array.from({length: 2000}, (_, i) => ({id: `no-such-card-${i}`, triggers: ['test']}))
    const capped = (await refusal(() => applying(repo, many))).data as {issues: {field: string; message: string}[]}
    expect(capped.issues).toHaveLength(51)
    expect(capped.issues[50]).toMatchObject({field: '(more)', message: 'and 3950 more problem(s)'})
    for (const bad of ['{"id": "x"}', '[]', '[oops', '']) {
      const e = await refusal(() => enrichApply(repo.ctx({stdin: bad}), {file: '-'}))
      expect(e.code).toBe('validation')
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it('refuses more phrases than a field holds, and a secret, writing nothing', async () => {
    const repo = await enrichRepo()
    const before = snapshot(repo)
    const many = Array.from({length: 17}, (_, i) => `lockfile drift case ${i}`)
    const over = await refusal(() => applying(repo, [{id: 'lockfile-drift-after-rebase', triggers: many}]))
    expect((over.data as {issues: {field: string; message: string}[]}).issues).toEqual([
      expect.objectContaining({
        field: '[0] (lockfile-drift-after-rebase).triggers',
        message: 'would hold 17 phrases; at most 16',
      }),
    ])
    const key = 'AKIA' + 'Z7QW4XK2PL9MN3RT'
    const secret = await refusal(() =>
      applying(repo, [{id: 'lockfile-drift-after-rebase', triggers: [`deploy with ${key}`]}]),
    )
    expect(secret.code).toBe('validation')
    expect(secret.message).toContain(THIN_PATH)
    expect(snapshot(repo)).toEqual(before)
  })

  it('two applies at once on one card each keep their phrases, in two commits', async () => {
    const repo = await enrichRepo()
    const id = 'lockfile-drift-after-rebase'
    await Promise.all([
      cli(['enrich', '--apply', '-'], {
        cwd: repo.dir,
        env: repo.env,
        input: JSON.stringify([{id, triggers: ['npm ci fails after rebase']}]),
      }),
      cli(['enrich', '--apply', '-'], {
        cwd: repo.dir,
        env: repo.env,
        input: JSON.stringify([{id, aliases: {zh: ['变基后锁文件冲突']}}]),
      }),
    ]).then(rs => rs.forEach(r => expect([r.code, r.stderr]).toEqual([0, ''])))
    const text = repo.read(THIN_PATH)
    expect(text).toContain('  triggers: [npm ci fails after rebase]\n')
    expect(text).toContain('    zh: [变基后锁文件冲突]\n')
    expect(repo.git('log', '-2', '--format=%s').trim().split('\n')).toEqual([
      `cairn(enrich): recall phrases for ${id}`,
      `cairn(enrich): recall phrases for ${id}`,
    ])
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('killed (SIGKILL) before its commit, leaves the card as it was; the next command finishes or rolls it back', async () => {
    const repo = await enrichRepo()
    const before = repo.read(THIN_PATH)
    const input = JSON.stringify(PHRASES)
    const killed = await cli(['enrich', '--apply', '-'], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_TEST_CRASH: 'before-commit'},
      input,
    })
    expect(killed.code).toBe(-1)
    const ctx = repo.ctx()
    const r = await enrichList(ctx)
    expect(ctx.warnings).toEqual([expect.stringContaining('cairn doctor --fix')])
    expect(r.total).toBeGreaterThan(0)
    const again = await cli(['enrich', '--apply', '-', '--json'], {cwd: repo.dir, env: repo.env, input})
    expect(again.code).toBe(0)
    expect(again.json().warnings).toEqual([expect.stringMatching(/^(rolled back|finished) an interrupted cairn/)])
    expect(repo.read(THIN_PATH)).not.toBe(before)
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('')
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(
      'cairn(enrich): recall phrases for lockfile-drift-after-rebase',
    )
  })
})

describe('the stop hook and cairn enrich count the same cards', () => {
  it("by the card's own fields: an alias that reads like a derived trigger is an alias", async () => {
    const repo = await enrichRepo()
    const bare = () => useIndex(storesOf(repo.ctx()), ix => ix.bareCards())
    // The thin active card has no phrases of its own; the rich one and the core card do not count.
    expect(await bare()).toBe(1)
    await applying(repo, [{id: 'lockfile-drift-after-rebase', aliases: {en: ['lockfile drift']}}])
    expect(repo.read(THIN_PATH)).toContain('derived_triggers: [lockfile drift,')
    expect((await enrichList(repo.ctx(), {ids: ['lockfile-drift-after-rebase']})).cards[0].missing).not.toContain(
      'aliases',
    )
    expect(await bare()).toBe(0)
  })
})

describe('cairn enrich (the command)', () => {
  it('reads --apply - from stdin, gives the JSON envelope, and refuses flags that do not go together', async () => {
    const repo = await enrichRepo()
    const listed = await cli(['enrich', '--json', '--limit', '1'], {cwd: repo.dir, env: repo.env})
    expect(listed.code).toBe(0)
    expect(listed.json().data.cards.map((b: {id: string}) => b.id)).toEqual(['lockfile-drift-after-rebase'])
    const applied = await cli(['enrich', '--apply', '-'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(PHRASES),
    })
    expect([applied.code, applied.stderr]).toEqual([0, ''])
    expect(applied.stdout).toMatch(
      /^Added recall phrases to 1 card\(s\) \(project commit [0-9a-f]{12}\):\n {2}lockfile-drift-after-rebase: triggers, aliases\.en, aliases\.zh, use_when\n$/,
    )
    const both = await cli(['enrich', 'some-id', '--apply', '-'], {cwd: repo.dir, env: repo.env, input: '[]'})
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--apply takes its ids from the file')])
    const bad = await cli(['enrich', '--apply', '-'], {cwd: repo.dir, env: repo.env, input: '[{"id": 1}]'})
    expect(bad.code).toBe(6)
  })
})
