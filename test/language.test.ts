import {describe, expect, it} from 'vitest'
import {importRules} from '../src/app/import.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import type {CairnError} from '../src/domain/errors.js'
import fs from 'node:fs'
import path from 'node:path'
import {card, cli, type Repo, refusal, ROOT, tempDir, templateRepo} from './helpers.js'
import {cliInProcess} from './cli-in-process.js'

/**
 * A zh-CN store speaks Chinese in lint, doctor and propose's errors, with the file, the field, the id, the value and
 * the command as they are; an `en` store speaks English whatever a card's own text is written in. The hooks and recall:
 * test/language-hooks.test.ts. The review: test/review-language.test.ts.
 */

const storeIn = (language: 'en' | 'zh-CN') =>
  templateRepo(async (repo: Repo) => {
    await init(repo.ctx())
    const config = repo.read('.cairn/config.yaml').replace('knowledge_language: en', `knowledge_language: ${language}`)
    repo.write('.cairn/config.yaml', config)
    repo.git('commit', '-q', '--allow-empty', '-am', 'language')
  })
const chinese = storeIn('zh-CN')
const english = storeIn('en')

/** What is left of text once the values it names and the protected tokens are taken out: no English word. */
function englishWords(text: string, verbatim: readonly string[]): string[] {
  let rest = text
  for (const token of [...verbatim].filter(Boolean).sort((a, b) => b.length - a.length))
    rest = rest.split(token).join(' ')
  return rest.match(/[A-Za-z]+/g) ?? []
}

describe('a zh-CN store: propose refuses in Chinese', () => {
  it('names each field, value and command as it is, and says what is wrong and the fix in Chinese', async () => {
    const repo = await chinese()
    const error = (await refusal(() =>
      propose(repo.ctx(), {
        fields: {
          slug: 'the-thing',
          type: 'pitfalls-and-more',
          title: '合并数组',
          summary: '深度合并会替换数组。',
          load: 'sometimes',
        },
      }),
    )) as CairnError
    expect(error.code).toBe('validation')
    expect(error.message).toBe(
      [
        '输入无效（3 个问题）：',
        '  - (flags): load："sometimes" 不是 "core"、"recall" 之一。修复：改用 "core"、"recall" 之一。',
        '  - (flags): slug：slug "the-thing" 违反规则 4（只保留语义核心：去掉 "the"、"thing"）。' +
          '修复：选 2–5 个用连字符连接的小写单词，共 20–40 个字符。',
        '  - (flags): type："pitfalls-and-more" 不是卡片类型。' +
          '修复：改用 model、decision、guideline、pitfall、process 之一（也接受复数形式）。',
      ].join('\n'),
    )
    // The issues in the error's data are said the same way; their field names stay.
    expect((error.data as {issues: {field: string}[]}).issues.map(i => i.field)).toEqual(['load', 'slug', 'type'])
    const verbatim = ['(flags)', 'load', 'sometimes', 'slug', 'type', 'the-thing', 'the', 'thing', 'core', 'recall']
    const types = ['pitfalls-and-more', 'model', 'decision', 'guideline', 'pitfall', 'process']
    expect(englishWords(error.message, [...verbatim, ...types])).toEqual([])
  })

  it('an unknown field suggests the known one, and a secret is refused with its fingerprint and the config key', async () => {
    const repo = await chinese()
    const unknown = (await refusal(() =>
      propose(repo.ctx(), {file: '-', records: {data: [{...card(), titel: 'x'}], label: 'in.json'}}),
    )) as CairnError
    expect(unknown.message).toBe(
      ['输入无效：', '  - in.json: [0].titel：未知字段。修复：删除 "titel"，或检查拼写。你是不是想写 "title"？'].join(
        '\n',
      ),
    )
    const aws = 'AKIA' + 'Q7VN3MRZ5TPLX2HD'
    const secret = (await refusal(() =>
      propose(repo.ctx(), {fields: {...card(), summary: `Use the key ${aws} for the bucket.`}}),
    )) as CairnError
    const print = /指纹 ([0-9a-f]{16})/.exec(secret.message)![1]
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    const refused = (field: string) =>
      `  - ${file}: ${field}：含有 AWS access key ID（指纹 ${print}）。` +
      `修复：删除它，如果是真的就立即轮换；如果不是机密，把 "${print}" 列在 .cairn/config.yaml 的 secrets: allow: 下。`
    expect(secret.message).toBe(['输入无效（2 个问题）：', refused('summary'), refused('body')].join('\n'))
    expect(secret.message).not.toContain(aws)
  })

  it('a slug another proposal holds is refused in Chinese, its slug and path as they are', async () => {
    const repo = await chinese()
    await propose(repo.ctx(), {fields: card()})
    const taken = (await refusal(() =>
      propose(repo.ctx(), {fields: card({source_sessions: ['session-2']})}),
    )) as CairnError
    expect([taken.code, taken.message]).toEqual([
      'conflict',
      'slug "deepmerge-array-replace-trap" 已被另一个提案 .cairn/pending/pitfall/deepmerge-array-replace-trap.md 占用。' +
        'slug 在一个仓库内必须唯一（规则 5）：加一个区分词，不要加数字。',
    ])
    expect(taken.data).toEqual({
      id: 'deepmerge-array-replace-trap',
      path: '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    })
  })

  it('a repeated proposal that changes the text says, in Chinese, that the pending card kept its own', async () => {
    const repo = await chinese()
    const flags = (title: string) => [
      'propose',
      '--type',
      'pitfall',
      '--slug',
      'deepmerge-array-replace-trap',
      '--title',
      title,
      '--summary',
      'When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
    ]
    expect((await cliInProcess(flags('deepMerge replaces arrays'), {cwd: repo.dir, env: repo.env})).code).toBe(0)
    const again = await cliInProcess(flags('deepMerge drops arrays'), {cwd: repo.dir, env: repo.env})
    expect(again.code).toBe(0)
    expect(again.stdout.trim().split('\n').slice(2)).toEqual([
      'project 提交：无',
      '',
      '待评审的卡片 deepmerge-array-replace-trap 保留了原有文本，没有写入任何内容。这次提议有 1 个字段不同：',
      '  title: "deepMerge replaces arrays" → "deepMerge drops arrays"',
      '要替换文本，加上 --replace 再提议一次。',
    ])
  })

  it('propose --edit: the refusal and where the card is kept, in Chinese', async () => {
    const repo = await chinese()
    const tmp = tempDir('cairn-edit-tmp-')
    const editor = [process.execPath, path.join(ROOT, 'test/fixtures/edit-card.mjs'), 'no-summary']
      .map(a => `'${a}'`)
      .join(' ')
    const env = {...repo.env, VISUAL: '', EDITOR: editor, TMPDIR: tmp, EDIT_SEEN: path.join(tempDir(), 'seen.md')}
    const r = await cli(['propose', '--edit'], {cwd: repo.dir, env})
    const [dir] = fs.readdirSync(tmp)
    const kept = path.join(tmp, dir, fs.readdirSync(path.join(tmp, dir))[0])
    expect([r.code, r.stdout]).toEqual([6, ''])
    expect(r.stderr).toBe(
      [
        'cairn: 输入无效：',
        `  - ${kept}: summary：必须是文本（实际是空值）。修复：给出文本。`,
        `你的卡片保留在 ${kept}：修改后运行 "cairn propose ${kept}"。`,
        '',
      ].join('\n'),
    )
  })
})

describe('a zh-CN store: lint and doctor speak Chinese', () => {
  it('cairn lint: each problem in Chinese, its file, field and rule as they are; the count and the failure too', async () => {
    const repo = await chinese()
    await propose(repo.ctx(), {fields: card()})
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    repo.write(
      file,
      repo.read(file).replace('status: pending', 'status: active').replace('links: []', 'links: [nowhere-card-at-all]'),
    )
    const r = await cliInProcess(['lint'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(6)
    expect(r.stdout.trim().split('\n')).toEqual([
      `错误 ${file}: status：待评审的卡片不能是 active：它还没有经过评审` +
        '（修复：用 "cairn review approve" 批准它，或设置 status: pending） [lifecycle]',
      `错误 ${file}: links：指向 "nowhere-card-at-all" 的链接找不到任何卡片（修复：修正 id，或删除这个链接） [broken-link]`,
      '检查了 1 个卡片文件：2 个错误，0 个警告。',
    ])
    expect(r.stderr).toContain('lint 发现 2 个错误')
    const verbatim = [file, 'status', 'active', 'pending', 'links', 'nowhere-card-at-all', 'cairn review approve', 'id']
    expect(englishWords(r.stdout, [...verbatim, 'lifecycle', 'broken-link'])).toEqual([])
  })

  it('cairn doctor: every check in Chinese, the check names, marks, paths and commands as they are', async () => {
    const repo = await chinese()
    repo.write('.cairn/config.yaml', `${repo.read('.cairn/config.yaml')}\n`)
    const r = await cliInProcess(['doctor'], {cwd: repo.dir, env: repo.env})
    const lines = r.stdout.trim().split('\n')
    expect(lines.filter(l => !l.includes(' exists '))).toEqual([
      'ok    project  config        .cairn/config.yaml 有效',
      'ok    project  gitignore     派生文件和本地文件都已被忽略',
      'ok    project  gitattributes .cairn/.gitattributes 让卡片在每次检出时都保持 LF',
      'ok    project  repo-state    没有进行中的 merge、rebase 或 cherry-pick',
      'ok    project  journal       没有中断的写入',
      'ok    project  lock          没有持有的锁',
      'ok    project  temp-files    没有中断的写入',
      'warn  project  uncommitted   仓库中有 1 处未提交的改动',
      '                               修复：提交它们，或不带 --no-commit 再运行一次该 cairn 命令',
      'ok    project  cards         0 个卡片文件，0 个错误，0 个警告',
      'ok    project  triggers      每张 active 和待评审的卡片都有 triggers',
      'ok    project  evidence      每张 active 卡片都记录了它提到的代码',
      '仓库状态良好。',
    ])
    expect(lines.find(l => l.includes(' exists '))).toMatch(
      /^ok {4}personal exists {8}\S+ 处没有个人仓库（第一次使用时创建）$/,
    )
    const verbatim = ['ok', 'warn', 'project', 'personal', 'merge', 'rebase', 'cherry-pick', 'active', 'triggers', 'LF']
    const checks = ['config', 'gitignore', 'gitattributes', 'repo-state', 'journal', 'lock', 'temp-files', 'exists']
    const commands = ['cairn', '--no-commit', 'uncommitted', 'cards', 'evidence']
    const paths = ['.cairn/config.yaml', '.cairn/.gitattributes', ...lines.filter(l => l.includes(' exists '))]
    expect(englishWords(r.stdout, [...verbatim, ...checks, ...commands, ...paths])).toEqual([])
  })
})

/** A card's body headings, in order. */
const headings = (text: string) => text.split('\n').filter(l => l.startsWith('## '))

describe("a card's headings and an import's reason follow the store's language", () => {
  it('an en store gives a card with a Chinese title English headings; a zh-CN store Chinese ones', async () => {
    const fields = card({title: '深度合并会替换数组', summary: '合并钩子配置时，深度合并会替换数组；应追加并去重。'})
    const en = await english()
    const [made] = (await propose(en.ctx(), {fields})).cards
    const enText = en.read(made.path)
    expect(enText).toContain('language: zh\n')
    expect(headings(enText)).toEqual(['## Problem', '## Criteria', '## Rule', '## Evidence'])
    const zh = await chinese()
    const [zhMade] = (await propose(zh.ctx(), {fields: card()})).cards
    const zhText = zh.read(zhMade.path)
    expect(zhText).toContain('title: deepMerge replaces arrays\n')
    expect(headings(zhText)).toEqual(['## 这张卡解决什么问题', '## 使用标准', '## 完整规则', '## 证据'])
  })

  it("an imported card's reason is in the store's language whole: no Chinese label before an English reason", async () => {
    const adr = '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nStore orders in Postgres.\n'
    const zh = await chinese()
    zh.write('docs/adr/0001-use-postgres.md', adr)
    const [zhCard] = (await importRules(zh.ctx(), {kind: 'adr'})).cards
    const zhText = zh.read(zhCard.path!)
    expect(zhText).toContain(
      'proposed_reason: 导入自 docs/adr/0001-use-postgres.md 第 1 行（cairn import adr）；ADR 状态：accepted\n',
    )
    expect(zhText).toContain(
      '\n- 提出原因: 导入自 docs/adr/0001-use-postgres.md 第 1 行（cairn import adr）；ADR 状态：accepted\n',
    )
    const en = await english()
    en.write('docs/adr/0001-use-postgres.md', adr)
    const [enCard] = (await importRules(en.ctx(), {kind: 'adr'})).cards
    const enText = en.read(enCard.path!)
    expect(enText).toContain(
      '\n- Proposed reason: imported from docs/adr/0001-use-postgres.md line 1 (cairn import adr); ADR status: accepted\n',
    )
  })
})
