import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {getRule, getSection} from '../src/domain/card/sections.js'
import {cliInProcess} from './cli-in-process.js'
import {card, refusal, type Repo, snapshot, templateRepo} from './helpers.js'

/** review modify of a card's text: title, summary, rule, use_when, ignore_when, aliases, policy and risk. */

const ID = 'deepmerge-array-replace-trap'
const PENDING = `.cairn/pending/pitfall/${ID}.md`
const ZH = '.cairn/pending/guideline/browser-validation-user-path.md'

const cards = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card({criteria: {use_when: ['merging hook config']}})})
  await propose(repo.ctx(), {
    fields: card({
      slug: 'browser-validation-user-path',
      type: 'guideline',
      title: '浏览器验证用户路径',
      summary: '当 UI 可见改动会影响用户路径时，应在真实浏览器验证。',
      language: 'zh',
    }),
  })
})

const read = (repo: Repo, file = PENDING) => parseCard(repo.read(file), file)

describe('review modify of the text fields', () => {
  it('title, summary, rule, use_when, ignore_when, aliases, policy and risk in one commit; the body follows', async () => {
    const repo = await cards()
    const head = repo.git('rev-parse', 'HEAD').trim()
    const r = await modify(repo.ctx(), {
      id: ID,
      sets: [
        'title=deepMerge drops hook arrays',
        'summary=When deepMerge merges hook config it replaces arrays; append and dedupe instead.',
        'rule=Append hook arrays, then dedupe by command.\nNever let deepMerge replace them.',
        'use_when=installing hooks, merging config',
        'ignore_when=reading docs only',
        'aliases=deep merge,深度合并，合并数组',
        'policy=must',
        'risk=high',
      ],
    })
    expect(r.changed).toEqual(['title', 'summary', 'rule', 'use_when', 'ignore_when', 'aliases', 'policy', 'risk'])
    expect(repo.git('rev-list', '--count', `${head}..HEAD`).trim()).toBe('1')
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(
      `cairn(modify): ${ID} (title, summary, rule, use_when, ignore_when, aliases, policy, risk)`,
    )
    const c = read(repo)
    expect([c.title, c.summary, c.recall.policy, c.recall.risk]).toEqual([
      'deepMerge drops hook arrays',
      'When deepMerge merges hook config it replaces arrays; append and dedupe instead.',
      'must',
      'high',
    ])
    expect(c.criteria).toEqual({use_when: ['installing hooks', 'merging config'], ignore_when: ['reading docs only']})
    expect(c.recall.aliases).toEqual({en: ['deep merge'], zh: ['深度合并', '合并数组']})
    expect(repo.read(PENDING)).toContain('\n  aliases:\n    en: [deep merge]\n    zh: [深度合并, 合并数组]\n')
    expect(getRule(c.body)).toBe('Append hook arrays, then dedupe by command.\nNever let deepMerge replace them.')
    // The Problem section repeated the summary and follows it; the Criteria section is cairn's and is written again.
    expect(getSection(c.body, 'problem')).toBe(c.summary)
    expect(getSection(c.body, 'criteria')).toBe(
      'Use when:\n- installing hooks\n- merging config\n\nIgnore when:\n- reading docs only\n\n' +
        'Recall policy: must.\nRisk: high.',
    )
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('a rule that repeated the summary follows a new summary; a Chinese card keeps the sections its body is written in', async () => {
    const repo = await cards()
    const before = read(repo, ZH)
    expect(getRule(before.body)).toBe(before.summary)
    await modify(repo.ctx(), {
      id: 'browser-validation-user-path',
      sets: ['summary=界面改动影响用户路径时，在真实浏览器里走一遍。', 'use_when=改动界面，修改路由', 'policy=should'],
    })
    const c = read(repo, ZH)
    expect(getRule(c.body)).toBe('界面改动影响用户路径时，在真实浏览器里走一遍。')
    expect(getSection(c.body, 'problem')).toBe(c.summary)
    // An en store writes English headings whatever the title's script, and an edit keeps them.
    expect(getSection(c.body, 'criteria')).toBe(
      'Use when:\n- 改动界面\n- 修改路由\n\nRecall policy: should.\nRisk: medium.',
    )
    expect(c.body).toContain('\n## Rule\n')
    expect(c.criteria.use_when).toEqual(['改动界面', '修改路由'])
  })

  it('text a person wrote differently is left alone: only the Rule section changes', async () => {
    const repo = await cards()
    const text = repo.read(PENDING)
    const body = text.slice(text.indexOf('\n---\n') + 5)
    const own = body
      .replace(/## Problem\n\n[^\n]+\n/, '## Problem\n\nArrays vanish after install.\n')
      .replace('Recall policy: may.', 'Recall policy: may, for now.')
    repo.write(PENDING, text.replace(body, own))
    repo.git('commit', '-qam', 'hand edit')
    await modify(repo.ctx(), {id: ID, sets: ['summary=Arrays vanish.', 'policy=must', 'rule=Append, never replace.']})
    const c = read(repo)
    expect(getSection(c.body, 'problem')).toBe('Arrays vanish after install.')
    expect(getSection(c.body, 'criteria')).toContain('Recall policy: may, for now.')
    expect(getRule(c.body)).toBe('Append, never replace.')
    expect(c.body.replace(/## Rule\n[\s\S]*?\n## Evidence/, '')).toBe(own.replace(/## Rule\n[\s\S]*?\n## Evidence/, ''))
  })

  it('an active card is modified in place, and stays active', async () => {
    const repo = await cards()
    await approve(repo.ctx(), {ids: [ID]})
    const r = await modify(repo.ctx(), {id: ID, sets: ['risk=low', 'aliases=']})
    expect(r.to.path).toBe(`.cairn/cards/pitfall/${ID}.md`)
    const c = read(repo, r.to.path)
    expect([c.status, c.recall.risk, c.recall.aliases]).toEqual(['active', 'low', {en: [], zh: []}])
  })

  it('a bad value exits 6 naming the field, the value and the fix; nothing is written', async () => {
    const repo = await cards()
    const before = snapshot(repo)
    const cases: [string, string][] = [
      ['policy=sometimes', 'policy: "sometimes" is not a policy. Fix: use must, should or may.'],
      ['risk=huge', 'risk: "huge" is not a risk. Fix: use high, medium or low.'],
      ['title=', 'title: "" must not be empty. Fix: give a short title.'],
      [
        `title=${'t'.repeat(201)}`,
        `title: "${'t'.repeat(59)}…" must be at most 200 characters. Fix: give a short title.`,
      ],
      ['rule=  ', 'rule: "" must not be empty. Fix: give the full reusable rule.'],
      [
        'use_when=installing hooks,bad\u0007bell',
        'use_when[1]: "bad\\u0007bell" contains the control character U+0007 at position 4. Fix: remove it; only tab ' +
          'and line breaks are allowed.',
      ],
    ]
    for (const [set, message] of cases) {
      const e = await refusal(() => modify(repo.ctx(), {id: ID, sets: ['policy=must', set]}))
      expect([e.exitCode, e.message]).toEqual([6, `Invalid input:\n  - ${PENDING}: ${message}`])
    }
    const secret = await refusal(() =>
      modify(repo.ctx(), {id: ID, sets: [`rule=Call the API with ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A'}.`]}),
    )
    expect(secret.exitCode).toBe(6)
    expect(secret.message).not.toContain('aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A')
    expect(snapshot(repo)).toEqual(before)
  })

  it('on the command line: list fields are comma-separated, and the help says so', async () => {
    const repo = await cards()
    const r = await cliInProcess(
      ['review', 'modify', ID, '--set', 'use_when=installing hooks,merging config', '--set', 'policy=should', '--json'],
      {cwd: repo.dir, env: repo.env},
    )
    expect([r.code, r.json().data.changed]).toEqual([0, ['use_when', 'policy']])
    expect(read(repo).criteria.use_when).toEqual(['installing hooks', 'merging config'])
    const bad = await cliInProcess(['review', 'modify', ID, '--set', 'risk=huge'], {cwd: repo.dir, env: repo.env})
    expect([bad.code, bad.stderr]).toEqual([
      6,
      `cairn: Invalid input:\n  - ${PENDING}: risk: "huge" is not a risk. Fix: use high, medium or low.\n`,
    ])
    const help = await cliInProcess(['review', 'modify', '--help'], {cwd: repo.dir, env: repo.env})
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'List fields (paths, triggers, symbols, evidence_paths, supersedes, use_when, ignore_when, aliases) take ' +
        'comma-separated values.',
    )
  })
})
