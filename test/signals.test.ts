import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {lint} from '../src/app/lint.js'
import {recall} from '../src/app/recall.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {listSignals, testSignals} from '../src/app/signals.js'
import {renderSignals, renderSignalTest} from '../src/cli/render-recall.js'
import {mentionSpans} from '../src/recall/match/context.js'
import {normText} from '../src/recall/match/phrase.js'
import {compileRe2} from '../src/recall/match/re2-pattern.js'
import {parseSignals} from '../src/recall/match/signal-schema.js'
import {BUILTIN_SIGNALS, buildRegistry, detectSignals, type Signal} from '../src/recall/match/signals.js'
import {parseYaml} from '../src/domain/yaml.js'
import {projectStoreAt} from '../src/store/layout.js'
import {indexPath} from '../src/recall/open.js'
import {refusal, ROOT} from './helpers.js'
import {recallRepo} from './recall-helpers.js'

const GENERIC = [
  'ui_surface',
  'ui_surface_noise',
  'worktree_diff_operation',
  'provider_adapter_boundary',
  'runtime_reference_context',
  'external_model_review',
  'docs_only',
  'explain_only',
  'rename_only',
]

const PAYMENT = `schema: cairn/signals@1
signals:
  - id: payment_flow
    polarity: positive
    description: Work on checkout, payment or refund flows.
    patterns:
      en: ['\\b(checkout|payment|refund)s?\\b']
      zh: ['支付', '退款']
`

describe('signal registry', () => {
  it('has the generic signals of seed 002 and three intents, each with English and Chinese patterns', () => {
    expect(BUILTIN_SIGNALS.map(s => s.id)).toEqual(GENERIC)
    for (const s of BUILTIN_SIGNALS) {
      expect(s.source, s.id).toBe('generic')
      expect(s.patterns.en.length, s.id).toBeGreaterThan(0)
      expect(s.patterns.zh.length, s.id).toBeGreaterThan(0)
      // A negative signal suppresses targets, or is an intent that discounts every card not about it.
      const negative = s.targets.length > 0 || s.discount !== undefined
      expect(s.polarity === 'negative' ? negative : s.targets.length === 0 && s.discount === undefined, s.id).toBe(true)
    }
  })

  it('intent signals fire on what the prompt asks for, in both languages, and not inside a mention', () => {
    const registry = buildRegistry()
    const fired = (prompt: string) =>
      [...detectSignals(registry, normText(prompt), mentionSpans(normText(prompt))).keys()].filter(
        id => registry.signals.get(id)!.discount,
      )
    expect(fired('Fix the typo in the README install section')).toEqual(['docs_only'])
    expect(fired('把部署文档里的错别字改一下')).toEqual(['docs_only'])
    expect(fired('Explain what a database migration is, conceptually')).toEqual(['explain_only'])
    expect(fired('解释一下什么是幂等')).toEqual(['explain_only'])
    expect(fired('Rename the variable cacheKey to depsCacheKey')).toEqual(['rename_only'])
    expect(fired('把 utils 目录重命名为 helpers')).toEqual(['rename_only'])
    expect(fired('Run the migration on staging, this is not a rename')).toEqual([])
    expect(fired('Add an index on events.user_id before the release')).toEqual([])
  })

  it('signals.yaml: discount only on a negative signal, which then needs no targets', async () => {
    const base = (extra: string) =>
      `signals:\n  - id: design_only\n    polarity: ${extra}\n    description: Design talk only.\n    patterns: {en: [design review], zh: []}\n`
    expect(parseSignals(parseYaml(base('negative\n    discount: 0.5'), 's'), 's')[0]).toMatchObject({
      id: 'design_only',
      discount: 0.5,
      targets: [],
    })
    const notNegative = await refusal(() => parseSignals(parseYaml(base('positive\n    discount: 0.5'), 's'), 's'))
    expect((notNegative.data as {issues: unknown[]}).issues[0]).toMatchObject({
      field: 'signals[0].discount',
      fix: 'set polarity: negative, or remove discount',
    })
    const tooBig = await refusal(() => parseSignals(parseYaml(base('negative\n    discount: 1'), 's'), 's'))
    expect((tooBig.data as {issues: unknown[]}).issues[0]).toMatchObject({
      field: 'signals[0].discount',
      message: 'must be below 1: it multiplies the admission score',
    })
  })

  it('cairn signals test fires in English and Chinese, and not inside a mention', async () => {
    const repo = await recallRepo()
    const run = (prompt: string) => testSignals(repo.ctx(), prompt)
    expect((await run('fix the settings page in the browser')).fired.map(f => f.id)).toEqual(['ui_surface'])
    expect((await run('修一下前端页面的布局')).fired.map(f => f.id)).toEqual(['ui_surface'])
    expect((await run('检查工作区再暂存')).fired.map(f => f.id)).toEqual(['worktree_diff_operation'])
    expect((await run('让 Gemini 审查这个方案')).fired.map(f => f.id)).toEqual(['external_model_review'])
    const mention = await run('这不是 Claude hook 的任务')
    expect(mention.fired).toEqual([])
    expect(mention.mentions).toEqual([{kind: 'negated', marker: '不是', text: '不是 claude hook 的任务'}])
    expect(renderSignalTest(await run('UI 词只是文档示例里的噪声'))).toContain('- ui_surface_noise: "')
  })

  it('.cairn/signals.yaml extends the registry: listed, gating recall, and known to lint', async () => {
    const repo = await recallRepo([
      {
        id: 'refund-approval-audit-trail',
        title: 'Keep a refund approval trail',
        summary: 'Record who approved each refund.',
        recall: {triggers: ['approval trail']},
        engine_hints: {positive: ['payment_flow']},
        scope: {level: 'global'},
      },
    ])
    const lintBefore = await lint(repo.ctx())
    expect(lintBefore.errors).toBe(1)
    expect(lintBefore.problems).toContainEqual(
      expect.objectContaining({
        rule: 'unknown-signal',
        field: 'engine_hints.positive',
        severity: 'error',
        message: '"payment_flow" is not a registered signal; it is ignored at match time',
      }),
    )
    // Unknown, so ignored at match time: the card is recalled without the gate.
    expect((await recall(repo.ctx(), {prompt: 'add an approval trail to logins'})).cards.map(c => c.id)).toEqual([
      'refund-approval-audit-trail',
    ])
    repo.write('.cairn/signals.yaml', PAYMENT)
    const list = await listSignals(repo.ctx())
    expect(list.signals.map(s => s.id)).toEqual([...GENERIC, 'payment_flow'])
    expect(list.signals[GENERIC.length]).toMatchObject({polarity: 'positive', gating: true, source: 'project'})
    expect(renderSignals(list.signals)).toMatch(/payment_flow\s+positive\s+yes/)
    expect((await lint(repo.ctx())).errors).toBe(0)
    for (const r of [
      await recall(repo.ctx(), {prompt: 'add an approval trail to logins'}),
      await promptRecall(repo.ctx(), {prompt: 'add an approval trail to logins'}),
    ])
      expect(r.cards).toEqual([])
    for (const r of [
      await recall(repo.ctx(), {prompt: 'add an approval trail to refunds'}),
      await promptRecall(repo.ctx(), {prompt: '给退款加 approval trail'}),
    ])
      expect(r.cards.map(c => c.id)).toEqual(['refund-approval-audit-trail'])
  })

  it('an invalid signals.yaml is a validation error naming the file and the field', async () => {
    const repo = await recallRepo()
    const bad = `signals:\n  - id: ui_surface\n    polarity: positive\n    description: again\n    patterns: {en: ['(unclosed']}\n  - id: quiet_noise\n    polarity: negative\n    description: no targets\n    patterns: {zh: ['噪']}\n  - id: Bad-Id\n    polarity: sideways\n    description: x\n    patterns: {en: [x]}\n`
    repo.write('.cairn/signals.yaml', bad)
    const issues = (e: {data?: unknown}) => (e.data as {issues: {field: string}[]}).issues.map(i => i.field)
    for (const [name, call] of [
      ['signals list', () => listSignals(repo.ctx())],
      ['recall', () => recall(repo.ctx(), {prompt: 'run git status'})],
    ] as const) {
      const e = await refusal(call)
      expect(e.exitCode, name).toBe(6)
      expect(e.message).toContain('.cairn/signals.yaml')
    }
    expect(issues(await refusal(() => listSignals(repo.ctx())))).toEqual(
      expect.arrayContaining(['signals[2].id', 'signals[2].polarity']),
    )
    repo.write('.cairn/signals.yaml', bad.split('  - id: Bad-Id')[0])
    expect(issues(await refusal(() => listSignals(repo.ctx())))).toEqual([
      'signals[0].id',
      'signals[0].patterns.en[0]',
      'signals[1].targets',
    ])
    await expect(promptRecall(repo.ctx(), {prompt: 'run git status'})).rejects.toThrow(/signals\.yaml/)
    expect(fs.existsSync(indexPath(projectStoreAt(repo.dir)))).toBe(false)
  })

  it('the .cairn/signals.yaml example in the README is valid and fires', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const example = /```yaml\n(schema: cairn\/signals@1[\s\S]*?)```/.exec(readme)![1]
    const repo = await recallRepo()
    repo.write('.cairn/signals.yaml', example)
    expect((await testSignals(repo.ctx(), 'Refund the order, then 支付 again')).fired.map(f => f.id)).toEqual([
      'payment_flow',
    ])
  })

  it('every built-in pattern compiles under RE2 and finds what RegExp finds, in English and Chinese', () => {
    const prompts = [
      'Fix the settings page in the browser',
      '修一下前端页面的布局，检查弹窗',
      'é-page ui_x über-button 前端ui',
      'UI 词只是文档示例里的噪声',
      'git status, then git diff --staged before the commit; dirty work tree',
      '检查工作区再暂存，然后提交',
      'the provider-adapter boundary: hook payloads and PreToolUse in Claude Code hooks',
      '适配层和 hook 适配',
      'ask GPT to review it, a second opinion; external model reviews',
      '让 Gemini 审查这个方案，交叉评审',
      'just an example from the docs, for example in the README; a simulated fixture',
      '只是一个文档里的例子',
    ].map(normText)
    const all = (it: Iterable<{index: number; text: string}>) => [...it].map(m => [m.index, m.text])
    let hits = 0
    for (const s of BUILTIN_SIGNALS) {
      for (const source of [...s.patterns.en, ...s.patterns.zh]) {
        const re2 = compileRe2(source)
        for (const text of prompts) {
          const native = [...text.matchAll(new RegExp(source, 'gu'))].map(m => [m.index, m[0]])
          expect(all(re2.matches(text)), `${s.id} ${source} on ${text}`).toEqual(native)
          hits += native.length
        }
      }
    }
    expect(hits).toBeGreaterThan(40)
    // Match positions are UTF-16 indices, as RegExp gives them, so mention spans line up.
    expect(all(compileRe2('支付').matches('🙂给支付'))).toEqual([[3, '支付']])
    expect(all(compileRe2('x*').matches('🙂x'))).toEqual([
      [0, ''],
      [2, 'x'],
      [3, ''],
    ])
  })

  it('a positive signal skips every match inside a mention span, nested or overlapping', () => {
    const signal: Signal = {
      id: 'tagged',
      polarity: 'positive',
      gating: true,
      description: 'x',
      patterns: {en: ['x\\d'], zh: []},
      targets: [],
      source: 'project',
      pack: null,
    }
    const registry = buildRegistry([signal], compileRe2)
    const span = (start: number, end: number) => ({kind: 'negated' as const, marker: 'no', start, end})
    // x1 sits in the outer span after the inner one has ended; x2 is outside both.
    expect(detectSignals(registry, 'aaaaax1aaaax2', [span(0, 10), span(2, 4)]).get('tagged')).toEqual({
      id: 'tagged',
      match: 'x2',
    })
    expect(detectSignals(registry, 'aaaaax1aaaax2', [span(0, 12)]).get('tagged')).toBeUndefined()
  })

  it('a catastrophic pattern in signals.yaml is linted clean and recalled at once: RE2 does not backtrack', async () => {
    const card = {
      id: 'release-notes-label-format',
      title: 'Release notes keep their label',
      summary: 'Each release note line starts with a label and a colon.',
      recall: {triggers: ['release notes']},
      engine_hints: {positive: ['labelled_request']},
      scope: {level: 'global'},
    }
    const repo = await recallRepo([card])
    // On RegExp, this pattern backtracks for minutes over a 16-word prompt without a colon.
    repo.write(
      '.cairn/signals.yaml',
      `signals:\n  - id: labelled_request\n    polarity: positive\n    description: A labelled request.\n    patterns: {en: ['(\\w+\\s?)+:']}\n`,
    )
    // Lint matches the card's title and summary through the pattern at once too; without a colon its
    // gating signal cannot fire, so the card is unreachable from its own words.
    expect((await lint(repo.ctx())).problems.map(p => `${p.rule}:${p.severity}:${p.file}`)).toEqual([
      'unreachable:warning:.cairn/cards/guideline/release-notes-label-format.md',
    ])
    const sixteen = 'please update the release notes so that every line of the changelog reads well for users'
    expect(sixteen.split(' ')).toHaveLength(16)
    for (const run of [recall, promptRecall]) {
      const miss = await run(repo.ctx(), {prompt: sixteen})
      expect([...miss.prompt.signals.keys()], run.name).toEqual([])
      expect(miss.cards).toEqual([])
      const hit = await run(repo.ctx(), {prompt: 'Release notes: add the new flag'})
      expect(hit.prompt.signals.get('labelled_request'), run.name).toEqual({
        id: 'labelled_request',
        match: 'release notes:',
      })
      expect(hit.cards.map(c => c.id)).toEqual(['release-notes-label-format'])
    }
    expect((await testSignals(repo.ctx(), `${sixteen} `.repeat(11_000))).fired).toEqual([]) // 1 MB
  })

  it('project patterns are RE2: Chinese and \\x{...} match, mentions are skipped, lookaround is refused with the fix', async () => {
    const repo = await recallRepo()
    repo.write('.cairn/signals.yaml', PAYMENT.replace("zh: ['支付', '退款']", "zh: ['支付', '\\x{9000}款']"))
    const fired = async (prompt: string) => (await testSignals(repo.ctx(), prompt)).fired.map(f => `${f.id}:${f.match}`)
    expect(await fired('给退款加审计')).toEqual(['payment_flow:退款'])
    expect(await fired('这不是支付的任务，先修退款')).toEqual(['payment_flow:退款'])
    expect(await fired('这不是支付的任务')).toEqual([])
    expect(await fired('Refunds: see 支付宝')).toEqual(['payment_flow:refunds'])
    repo.write('.cairn/signals.yaml', PAYMENT.replace('en: [', "en: ['refund(?!ed)', ").replace("'支付'", "'(支)\\1'"))
    const fix =
      'use RE2 syntax: no lookahead, lookbehind or backreference, \\x{4e2d} rather than \\u4e2d; escape special characters, or write a plain phrase'
    const linted = await lint(repo.ctx())
    expect(
      linted.problems.filter(p => p.rule === 'signals-file').map(p => [p.file, p.field, p.rule, p.severity, p.fix]),
    ).toEqual([
      ['.cairn/signals.yaml', 'signals[0].patterns.en[0]', 'signals-file', 'error', fix],
      ['.cairn/signals.yaml', 'signals[0].patterns.zh[0]', 'signals-file', 'error', fix],
    ])
    expect(linted.problems[0].message).toBe(
      'not a valid RE2 pattern (error parsing regexp: invalid or unsupported Perl syntax: `(?!`)',
    )
    for (const call of [
      () => recall(repo.ctx(), {prompt: 'refund it'}),
      () => promptRecall(repo.ctx(), {prompt: 'refund it'}),
    ]) {
      const e = await refusal(call)
      expect(e.exitCode).toBe(6)
      expect(e.message).toContain(`.cairn/signals.yaml: signals[0].patterns.en[0]: not a valid RE2 pattern`)
      expect(e.message).toContain(`Fix: ${fix}.`)
    }
  })
})
