import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {archive} from '../src/app/archive.js'
import {boardCommit} from '../src/app/board/commit.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {search, type SearchInput} from '../src/app/search.js'
import {paletteFor} from '../src/cli/colour.js'
import {renderSearch} from '../src/cli/render-search.js'
import {card, cli, type Repo, refusal, repoCopy, templateRepo} from './helpers.js'

/**
 * cairn search on a real store: every state (pending, active, superseded, archived), both stores, board records;
 * ripgrep and the search in Node (CAIRN_RG=off) giving the same hits; links never followed, oversized cards skipped.
 */

const seeded = templateRepo(async repo => {
  await init(repo.ctx())
  const cards = [
    card({
      slug: 'retry-budget-resets-on-deploy',
      title: 'Retry budget resets on deploy',
      summary: 'The retry budget in the queue worker resets after each deploy; persist it in the ledger.',
    }),
    card({
      slug: 'queue-worker-owns-retries',
      type: 'decision',
      title: 'Queue worker owns retries',
      summary: 'Retries live in the queue worker, never in callers.',
    }),
    card({
      slug: 'ledger-records-each-attempt',
      type: 'guideline',
      title: 'Ledger records each attempt',
      summary: 'Write one ledger row per retry attempt, with its cause.',
    }),
    card({
      slug: 'old-backoff-policy-card',
      type: 'decision',
      title: 'Old backoff',
      summary: 'Retry at once, then stop.',
    }),
  ]
  for (const fields of cards)
    await propose(repo.ctx(), {
      fields,
      phrases: fields.slug === 'retry-budget-resets-on-deploy' ? {triggers: ['retry budget', '重试预算']} : undefined,
    })
  await approve(repo.ctx(), {
    ids: ['retry-budget-resets-on-deploy', 'ledger-records-each-attempt', 'old-backoff-policy-card'],
  })
  await archive(repo.ctx(), {ids: ['ledger-records-each-attempt']})
  await propose(repo.ctx(), {
    fields: card({
      slug: 'new-backoff-policy-card',
      type: 'decision',
      title: 'New backoff',
      summary: 'Back off exponentially between retry attempts.',
    }),
  })
  await approve(repo.ctx(), {ids: ['new-backoff-policy-card']})
  // A superseded card, as approving its successor with supersedes leaves it.
  const old = '.cairn/cards/decision/old-backoff-policy-card.md'
  repo.write(old, repo.read(old).replace('status: active', 'status: superseded'))
  repo.git('commit', '-q', '-am', 'supersede the old backoff card')
  await propose(repo.ctx(), {
    fields: {
      ...card({slug: 'personal-retry-habit-note', title: 'My retry habit', summary: 'I retry flaky tests once.'}),
      layer: 'personal',
    },
  })
})

const off = (repo: Repo) => repo.ctx({env: {...(repo.env as Record<string, string>), CAIRN_RG: 'off'}})
const find = (repo: Repo, input: SearchInput) => search(repo.ctx(), input)
/** What a hit says in one line: store, state, id, line and field. */
const brief = (r: Awaited<ReturnType<typeof search>>) =>
  r.hits.map(h => `${h.store} ${h.state} ${h.id}:${h.line} ${h.field}`)

describe('cairn search: ripgrep over every card', () => {
  it('finds a regex across pending, active, superseded and archived cards and both stores, in one order', async () => {
    const repo = await seeded()
    const r = await find(repo, {pattern: 'retr(y|ies) (budget|attempts?)'})
    expect(r.engine).toBe('ripgrep')
    expect(brief(r)).toEqual([
      'project active new-backoff-policy-card:8 summary',
      'project active new-backoff-policy-card:22 recall.derived_triggers',
      'project active new-backoff-policy-card:58 body',
      'project active new-backoff-policy-card:68 body',
      'project active retry-budget-resets-on-deploy:8 summary',
      'project active retry-budget-resets-on-deploy:21 recall.triggers',
      'project active retry-budget-resets-on-deploy:57 body',
      'project active retry-budget-resets-on-deploy:67 body',
      'project archived ledger-records-each-attempt:8 summary',
      'project archived ledger-records-each-attempt:58 body',
      'project archived ledger-records-each-attempt:68 body',
    ])
    const states = await find(repo, {pattern: '(?i)retr(y|ies)', states: ['pending', 'superseded']})
    expect([...new Set(states.hits.map(h => `${h.store} ${h.state} ${h.id}`))]).toEqual([
      'project pending queue-worker-owns-retries',
      'project superseded old-backoff-policy-card',
      'personal pending personal-retry-habit-note',
    ])
    const hit = r.hits[4]
    expect(hit).toEqual({
      id: 'retry-budget-resets-on-deploy',
      store: 'project',
      state: 'active',
      type: 'pitfall',
      file: '.cairn/cards/pitfall/retry-budget-resets-on-deploy.md',
      field: 'summary',
      line: 8,
      text: 'summary: The retry budget in the queue worker resets after each deploy; persist it in the ledger.',
      matches: [{text: 'retry budget', start: 13, end: 25}],
    })
  })

  it('finds a Chinese phrase in the field it sits in, with its position in characters', async () => {
    const r = await find(await seeded(), {pattern: '重试预算'})
    expect(r.hits.map(h => [h.id, h.field, h.text, h.matches])).toEqual([
      [
        'retry-budget-resets-on-deploy',
        'recall.triggers',
        '  triggers: [retry budget, 重试预算]',
        [{text: '重试预算', start: 27, end: 31}],
      ],
    ])
  })

  it('answers a pattern that matches nothing with no hits and a plain sentence', async () => {
    const r = await find(await seeded(), {pattern: 'no-such-words-anywhere'})
    expect([r.hits, r.files]).toEqual([[], 0])
    expect(renderSearch(r)).toBe('No card matched "no-such-words-anywhere".')
    expect(renderSearch({...r, board: true})).toBe('No card or board record matched "no-such-words-anywhere".')
  })

  it('refuses a pattern ripgrep refuses with its reason and the fix, exit 2, in both engines', async () => {
    const repo = await seeded()
    const rg = await refusal(() => find(repo, {pattern: 'a(b'}))
    expect([rg.code, rg.message]).toEqual([
      'usage',
      'The pattern "a(b" is not one ripgrep accepts: unclosed group. Fix: put a backslash before each special ' +
        'character to search for it as it is, or pass --fixed-strings.',
    ])
    const node = await refusal(() => search(off(repo), {pattern: 'a(b'}))
    expect([node.code, node.message]).toEqual([
      'usage',
      'The search without ripgrep cannot run the pattern "a(b": unterminated group. Fix: rewrite the pattern without ' +
        'it, or pass --fixed-strings to search for the text as it is; with ripgrep installed, cairn runs every ' +
        'pattern ripgrep takes.',
    ])
    for (const pattern of ['(?=retry)', '(a)\\1', '[[:alpha:]', 'a{,3']) {
      expect((await refusal(() => find(repo, {pattern}))).code).toBe('usage')
      expect((await refusal(() => search(off(repo), {pattern}))).code).toBe('usage')
    }
    const literal = await find(repo, {pattern: 'a(b', fixedStrings: true})
    expect(literal.hits).toEqual([])
    // With no card folder at all, rg still reads the pattern.
    const empty = await refusal(() => find(repo, {pattern: 'a(b', store: 'project', types: ['process']}))
    expect(empty.code).toBe('usage')
    expect((await refusal(() => find(repo, {pattern: ''}))).message).toMatch(/^The search pattern is empty/)
    expect((await refusal(() => find(repo, {pattern: 'a\nb'}))).message).toMatch(/holds a line break/)
  })

  it('filters by state, type, case and fixed strings', async () => {
    const repo = await seeded()
    const ids = async (input: SearchInput) => [...new Set((await find(repo, input)).hits.map(h => h.id))]
    expect(await ids({pattern: 'Retries', states: ['active', 'pending']})).toEqual(['queue-worker-owns-retries'])
    expect(await ids({pattern: 'retries', ignoreCase: true, states: ['active']})).toEqual([])
    expect(await ids({pattern: 'retries', ignoreCase: true, states: ['pending']})).toEqual([
      'queue-worker-owns-retries',
    ])
    expect(await ids({pattern: 'backoff', types: ['decision'], states: ['superseded']})).toEqual([
      'old-backoff-policy-card',
    ])
    expect(await ids({pattern: 'retry', types: ['guideline']})).toEqual(['ledger-records-each-attempt'])
    expect(await ids({pattern: 'retry.budget', fixedStrings: true})).toEqual([])
    expect(await ids({pattern: 'retry.budget'})).toEqual(['retry-budget-resets-on-deploy'])
    expect(await ids({pattern: 'at once, then', fixedStrings: true})).toEqual(['old-backoff-policy-card'])
    expect(await ids({pattern: '-policy-card', store: 'personal'})).toEqual([])
    expect(await ids({pattern: 'flaky', store: 'personal'})).toEqual(['personal-retry-habit-note'])
  })

  it('never follows a linked card or type folder, and skips a card over the size cap', async () => {
    const repo = await seeded()
    const outside = path.join(path.dirname(repo.dir), 'outside')
    fs.mkdirSync(path.join(outside, 'linked'), {recursive: true})
    const text = fs.readFileSync(path.join(repo.dir, '.cairn/cards/pitfall/retry-budget-resets-on-deploy.md'), 'utf8')
    const secret = text.replace(/retry budget/g, 'linked secret phrase')
    fs.writeFileSync(path.join(outside, 'secret.md'), secret)
    fs.writeFileSync(path.join(outside, 'linked', 'linked-folder-card.md'), secret)
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(repo.dir, '.cairn/cards/pitfall/linked-card-file.md'))
    fs.symlinkSync(path.join(outside, 'linked'), path.join(repo.dir, '.cairn/cards/model'))
    fs.symlinkSync(path.join(outside, 'linked'), path.join(repo.dir, '.cairn/pending/model'))
    const big = `${text.replace(/retry budget/g, 'oversized phrase')}\n${'x'.repeat(300 * 1024)}\n`
    repo.write('.cairn/cards/pitfall/oversized-card-here.md', big)
    repo.write('.cairn/.cache/leftover-card.md', secret)
    repo.write('.cairn/cards/pitfall/.hidden-card.md', secret)
    repo.write('.cairn/cards/pitfall/notes.txt', secret)
    fs.mkdirSync(path.join(outside, 'board', 'batches'), {recursive: true})
    fs.writeFileSync(path.join(outside, 'board', 'batches', 'run-1-abcd.json'), '{"linked secret phrase": 1}\n')
    fs.symlinkSync(path.join(outside, 'board'), path.join(repo.dir, '.cairn/board'))
    for (const ctx of [repo.ctx(), off(repo)]) {
      const r = await search(ctx, {pattern: 'linked secret phrase|oversized phrase', board: true})
      expect(r.hits).toEqual([])
    }
    repo.write('.cairn/cards/pitfall/oversized-card-here.md', big.slice(0, 200 * 1024))
    const kept = await find(repo, {pattern: 'oversized phrase'})
    expect(kept.hits.map(h => h.id)).toContain('oversized-card-here')
  })

  it('searches board records only with board', async () => {
    const repo = await seeded()
    const batch = {
      batch_id: 'run-20261008-setup',
      declarations: [{op: 'new', id: 'trip', kind: 'topic', weight: 4, summary: 'Business trip to Berlin.'}],
    }
    await boardCommit(repo.ctx({stdin: JSON.stringify(batch)}), {
      file: '-',
      actor: 'agent-1',
      now: '2026-10-08T08:00:00Z',
    })
    expect((await find(repo, {pattern: 'Berlin'})).hits).toEqual([])
    const r = await find(repo, {pattern: 'Berlin', board: true})
    expect(r.hits.map(h => [h.store, h.state, h.type, h.field, h.file.replace(/-[^-/]+\.json$/, '-*.json')])).toEqual([
      ['project', 'board', null, 'request', '.cairn/board/batches/run-20261008-setup-*.json'],
    ])
    expect(r.hits[0].id).toBe(path.basename(r.hits[0].file, '.json'))
    expect((await search(off(repo), {pattern: 'Berlin', board: true})).hits).toEqual(r.hits)
  })
})

describe('cairn search: its text', () => {
  it('paints the matches on a terminal, with no caret line, and cuts a long line around its first match', async () => {
    const repo = await seeded()
    const r = await find(repo, {pattern: 'ledger\\.$', states: ['active'], types: ['pitfall']})
    const colour = paletteFor({isTTY: true}, {})
    expect(renderSearch(r, {paint: colour, width: 60}).split('\n').slice(0, 4)).toEqual([
      '\x1b[1mretry-budget-resets-on-deploy\x1b[22m  pitfall, active, project store',
      '.cairn/cards/pitfall/retry-budget-resets-on-deploy.md',
      '   8  summary  …after each deploy; persist it in the \x1b[31m\x1b[1mledger.\x1b[22m\x1b[39m',
      '  57  body     …after each deploy; persist it in the \x1b[31m\x1b[1mledger.\x1b[22m\x1b[39m',
    ])
  })

  it('speaks Chinese in a zh-CN store', async () => {
    const repo = repoCopy(await seeded())
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('knowledge_language: en', 'knowledge_language: zh-CN'),
    )
    const none = await find(repo, {pattern: '没有的词'})
    expect(renderSearch(none)).toBe('没有卡片匹配 "没有的词"。')
    const some = await find(repo, {pattern: '重试预算', board: true})
    expect(renderSearch(some).split('\n')).toEqual([
      'retry-budget-resets-on-deploy  pitfall, active, 项目存储',
      '.cairn/cards/pitfall/retry-budget-resets-on-deploy.md',
      '  21  recall.triggers    triggers: [retry budget, 重试预算]',
      '                                                  ^^^^^^^^',
      '',
      '1 个卡片或看板记录中有 1 行匹配。',
    ])
    expect((await refusal(() => find(repo, {pattern: 'a(b'}))).message).toBe(
      '模式 "a(b" 不是 ripgrep 接受的模式：unclosed group。修复：在每个特殊字符前加反斜杠以按原样搜索它，或者使用 --fixed-strings',
    )
  })
})

describe('cairn search without ripgrep (CAIRN_RG=off)', () => {
  it('gives the same hits, in the same order, as ripgrep for a set of patterns', async () => {
    const repo = repoCopy(await seeded())
    // Line endings, a BOM, invalid UTF-8, a folded summary, Chinese and a line separator inside a line.
    const text = repo.read('.cairn/cards/pitfall/retry-budget-resets-on-deploy.md')
    const odd = text
      .replace('id: retry-budget-resets-on-deploy', 'id: odd-bytes-card-here')
      .replace(/^summary: .*$/m, 'summary: >-\n  Folded über line one,\n  line two ſ KELVIN K 42 ٤٢ retry')
    repo.write(
      '.cairn/cards/model/odd-bytes-card-here.md',
      Buffer.concat([
        Buffer.from('\ufeff'),
        Buffer.from(odd.replace(/\n/g, '\r\n')),
        Buffer.from('bad \xff byte retry\r\nmid\rline retry\u2028sep\r\n', 'latin1'),
      ]),
    )
    const cases: SearchInput[] = [
      {pattern: 'retr(y|ies)'},
      {pattern: '\\bretry\\b'},
      {pattern: '\\Bet'},
      {pattern: '^title:'},
      {pattern: 'retry$'},
      {pattern: '^line'},
      {pattern: '\\w+-\\w+-\\w+'},
      {pattern: '\\d+'},
      {pattern: '\\s{2,}\\S'},
      {pattern: '[^\\x00-\\x7f]+'},
      {pattern: '\\p{Han}+'},
      {pattern: '\\pL{12,}'},
      {pattern: '重试'},
      {pattern: 'x*'},
      {pattern: 'e.r'},
      {pattern: '(?P<word>queue) worker'},
      {pattern: '(?i)QUEUE'},
      {pattern: 'kelvin|SUMMARY|ÜBER', ignoreCase: true},
      {pattern: 's', ignoreCase: true, states: ['active'], types: ['model']},
      {pattern: 'a(b', fixedStrings: true},
      {pattern: '-policy', fixedStrings: true},
      {pattern: '[]\\-]'},
      {pattern: '\\#|\\{|\\.\\.'},
      {pattern: '\\x{5F}|\\u0040'},
      {pattern: 'Berlin', board: true},
    ]
    for (const input of cases) {
      const rg = await find(repo, input)
      const node = await search(off(repo), input)
      expect(rg.engine).toBe('ripgrep')
      expect(node.engine).toBe('node')
      expect({input, hits: node.hits}).toEqual({input, hits: rg.hits})
    }
    const odd8 = await find(repo, {pattern: 'line two'})
    expect(odd8.hits.map(h => [h.id, h.field, h.line])).toEqual([['odd-bytes-card-here', 'summary', 10]])
  })

  it('says once that CAIRN_RG turned rg off or names none, with the fix', async () => {
    const ctx = off(await seeded())
    await search(ctx, {pattern: 'retry'})
    expect(ctx.warnings).toEqual([
      'CAIRN_RG is "off", which names no ripgrep binary, so cairn searched in Node, which is slower; the hits are ' +
        'the same. Fix: unset CAIRN_RG to use the ripgrep that comes with cairn, or set it to the path of an rg binary.',
    ])
  })

  it('refuses a line break or NUL asked for by an escape, the same with rg and without', async () => {
    const repo = await seeded()
    for (const pattern of ['\\r', 'retry\\n', '\\x0Ab', '\\x{d}', '\\x00', '\\0']) {
      const escape = /\\(?:x\{[^}]*\}|x..|.)/.exec(pattern)![0]
      for (const ctx of [repo.ctx(), off(repo)]) {
        const e = await refusal(() => search(ctx, {pattern}))
        expect([e.code, e.message]).toEqual([
          'usage',
          `The search pattern "${pattern}" asks for ${escape}, a line break or NUL character, but the search reads ` +
            'one line of text at a time. Fix: search for the text on each side of it on its own.',
        ])
      }
    }
    // Escaped backslashes and other escapes are no line end; as fixed strings they are text.
    for (const pattern of ['\\\\n', '\\xab', '\\d', '[^\\x00-\\x7f]+'])
      expect((await find(repo, {pattern})).pattern).toBe(pattern)
    expect((await find(repo, {pattern: '\\n', fixedStrings: true})).hits).toEqual([])
  })
})

describe('cairn search: the CLI', () => {
  it('prints hits grouped per card with the matches marked, and exits 0 on no match', async () => {
    const repo = await seeded()
    const env = {...repo.env, COLUMNS: '100'}
    const r = await cli(['search', 'retry budget', '--state', 'active'], {cwd: repo.dir, env})
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout).toBe(
      [
        'retry-budget-resets-on-deploy  pitfall, active, project store',
        '.cairn/cards/pitfall/retry-budget-resets-on-deploy.md',
        '   8  summary          summary: The retry budget in the queue worker resets after each deploy; pers…',
        '                                    ^^^^^^^^^^^^',
        '  21  recall.triggers    triggers: [retry budget, 重试预算]',
        '                                    ^^^^^^^^^^^^',
        '  57  body             The retry budget in the queue worker resets after each deploy; persist it in…',
        '                           ^^^^^^^^^^^^',
        '  67  body             The retry budget in the queue worker resets after each deploy; persist it in…',
        '                           ^^^^^^^^^^^^',
        '',
        '4 matching line(s) in 1 card(s).',
        '',
      ].join('\n'),
    )
    const none = await cli(['search', 'nothing matches this', '--json'], {cwd: repo.dir, env: repo.env})
    expect([none.code, none.json().data.hits]).toEqual([0, []])
    const dash = await cli(['search', '-F', '--state', 'superseded', '--', '-policy-card'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect([dash.code, dash.stdout.split('\n')[0]]).toEqual([
      0,
      'old-backoff-policy-card  decision, superseded, project store',
    ])
  })

  it('exits 2 for a pattern ripgrep refuses, and warns once without rg', async () => {
    const repo = await seeded()
    const bad = await cli(['search', 'a(b'], {cwd: repo.dir, env: repo.env})
    expect([bad.code, bad.stdout]).toEqual([2, ''])
    expect(bad.stderr).toBe(
      'cairn: The pattern "a(b" is not one ripgrep accepts: unclosed group. Fix: put a backslash before each ' +
        'special character to search for it as it is, or pass --fixed-strings.\n',
    )
    // The search in Node runs in a worker thread, stopped at the time limit: a JavaScript regex can backtrack for
    // minutes on one line where Rust's (rg's) never does.
    repo.write('.cairn/cards/pitfall/backtracking-trap-card.md', `---\nid: x\n---\n${'a'.repeat(40)}b\n`)
    const slow = await cli(['search', '(a+)+$'], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_RG: 'off', CAIRN_SEARCH_TIMEOUT_MS: '1000'},
    })
    expect([slow.code, slow.stdout, slow.stderr.split('\n').slice(1)]).toEqual([
      2,
      '',
      [
        'cairn: The search ran longer than 1 s and was stopped. Fix: narrow it with --state or --type, or give a more ' +
          'specific pattern.',
        '',
      ],
    ])
    expect((await cli(['search', '(a+)+$'], {cwd: repo.dir, env: repo.env})).code).toBe(0)
    const fallback = await cli(['search', 'flaky', '--json'], {cwd: repo.dir, env: {...repo.env, CAIRN_RG: 'off'}})
    const envelope = fallback.json()
    expect([fallback.code, envelope.data.engine, envelope.warnings.length]).toEqual([0, 'node', 1])
    expect([...new Set(envelope.data.hits.map((h: {id: string}) => h.id))]).toEqual(['personal-retry-habit-note'])
  })
})
