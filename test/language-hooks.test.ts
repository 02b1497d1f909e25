import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {renderCatalog} from '../src/domain/catalog.js'
import {fitCore, renderEnforced} from '../src/app/hooks/session-start.js'
import {stopReason} from '../src/app/hooks/signals.js'
import {denyReason, renderPathCards} from '../src/app/hooks/tool.js'
import {HOOK_TEXT} from '../src/domain/messages/hooks.js'
import {withoutOwnText} from '../src/recall/match/own-text.js'
import {feed, hookRepo, plant, settle} from './hook-helpers.js'
import {FIXED_NOW, type Repo} from './helpers.js'
import {commit} from './board/helpers.js'
import {cliInProcess} from './cli-in-process.js'

/**
 * A zh-CN store: every hook speaks Chinese to the agent, and `cairn recall` to the person, while ids, paths, commands,
 * skills, policies and field names stay as they are. The English side is test/hooks.test.ts and test/hook-stop.test.ts.
 */

const base = (repo: {dir: string}, event: string, extra: object = {}) => ({
  session_id: 'sess-zh',
  transcript_path: null,
  cwd: repo.dir,
  hook_event_name: event,
  ...extra,
})

async function chinese(config: (text: string) => string = text => text): Promise<Repo> {
  const repo = await hookRepo()
  const text = repo.read('.cairn/config.yaml').replace('knowledge_language: en', 'knowledge_language: zh-CN')
  repo.write('.cairn/config.yaml', config(text))
  repo.git('commit', '-qam', 'zh-CN')
  return repo
}

const context = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext

/** What is left of text once the values it names and the protected tokens are taken out: no English word. */
function englishWords(text: string, verbatim: readonly string[]): string[] {
  let rest = text
  for (const token of [...verbatim].filter(Boolean).sort((a, b) => b.length - a.length))
    rest = rest.split(token).join(' ')
  return rest.match(/[A-Za-z]+/g) ?? []
}

/** Every card's own text in the hook repository, and what the hooks name verbatim: ids, commands, skills, fields. */
const VERBATIM = [
  'cairn show ID --section rule',
  'cairn show ID',
  'cairn show',
  '--section rule',
  '`cairn review --format text`',
  'cairn maintain --dry-run',
  'cairn maintain --apply',
  'cairn propose',
  'cairn list --category NAME',
  'cairn-review',
  'cairn-archive',
  'cairn-enrich',
  'cairn enrich --json',
  'recall',
  'cairn',
  'must',
  'should',
  'may',
  'project',
  'global',
  'run-tests-before-push',
  'flaky-login-test',
  'backup-before-migration',
  'second-core-rule',
  'Run the tests before pushing',
  'Run npm test before every git push.',
  'The login test is flaky under load',
  'The login e2e test times out under parallel load; run it alone.',
  'Back up before a migration',
  'Take a database backup before running any migration.',
  'Run scripts/backup.sh and check the dump before you change a migration.',
  'db/migrations/**',
  'db/migrations/002.sql',
  'flaky login test',
  'login test timeout',
  'Title second-core-rule',
  'Rule of second-core-rule.',
]

describe('a zh-CN store: the hooks speak Chinese', () => {
  it('session-start: the enforced rules, core rules, over-budget notice, review reminder and catalog', async () => {
    const repo = await chinese(text =>
      text.replace('core_budget: 8000', 'core_budget: 100').replace('enforce_must: false', 'enforce_must: true'),
    )
    plant(repo, 'second-core-rule', {load: 'core'}, 'x'.repeat(60))
    repo.write(
      '.cairn/pending/pitfall/waiting-card-one.md',
      repo.read('.cairn/cards/guideline/flaky-login-test.md').replace('status: active', 'status: draft'),
    )
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const text = context((await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))).stdout)
    expect(text.split('\n\n')).toEqual([
      'cairn 强制规则（应用规则之前，对这些路径的第一次写入会被拒绝）：\n' +
        '- Back up before a migration（backup-before-migration）适用于 db/migrations/**：' +
        'Take a database backup before running any migration.',
      'cairn 核心规则（在本项目中始终适用）：',
      '### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.',
      'cairn：核心卡片超出预算（200 > 100 字符），因此 second-core-rule 没有加载。' +
        '运行 `cairn maintain --dry-run`，再运行 `cairn maintain --apply`，把最少使用的卡片降级。',
      'cairn：有 1 张待评审的卡片：运行 cairn-review 技能（`cairn review --format text`）。',
      'cairn 卡片目录（recall 卡片；`cairn show ID` 读取一张，`cairn show ID --section rule` 只读取其规则）：\n' +
        '- backup-before-migration：Back up before a migration。Take a database backup before running any migration.\n' +
        '- flaky-login-test：The login test is flaky under load。The login e2e test times out under parallel load; run it alone.',
    ])
    expect(englishWords(text, VERBATIM)).toEqual([])
  })

  it('session-start: the board brief in Chinese, its item ids, kinds and summaries as they are', async () => {
    const repo = await chinese()
    const batch = {
      batch_id: 'run-20261129-backup',
      declarations: [
        {op: 'new', id: 'ship-backup', kind: 'result', weight: 4, summary: 'Back up the migration database.'},
      ],
    }
    await commit(repo, batch, FIXED_NOW)
    const text = context((await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))).stdout)
    expect(text.split('\n\n').find(p => p.startsWith('cairn 看板简报：'))).toBe(
      [
        'cairn 看板简报：',
        '看板（2026-11-29T10:00:00Z）：事件 1，修订 1，从未检查。',
        '根层：1 个进行中的条目用了 100 中的 20。',
        '1. ship-backup · result · 权重 4 · 份额 20 · 0m前更新',
        '   Back up the migration database.',
      ].join('\n'),
    )
    await settle(repo)
  })

  it('user-prompt-submit: the light index, its labels in Chinese, the card and its id as they are', async () => {
    const repo = await chinese()
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const prompt = base(repo, 'UserPromptSubmit', {prompt: 'the flaky login test failed again in CI'})
    const text = context((await feed(repo, 'claude', 'user-prompt-submit', prompt)).stdout)
    expect(text).toBe(
      [
        'cairn：可能适用于本任务的卡片。只有确实适用时，才读取卡片的完整规则：',
        '- The login test is flaky under load（flaky-login-test）[may]',
        '  The login e2e test times out under parallel load; run it alone.',
        '  范围：project',
        '  匹配原因："flaky login test"（触发短语）',
        '  完整规则：cairn show flaky-login-test --section rule',
      ].join('\n'),
    )
    expect(englishWords(text, VERBATIM)).toEqual([])
    // Echoed back into the next prompt, none of it is matched as the user's words.
    expect(withoutOwnText(`${text}\nrename the settings page title`)).toBe('\nrename the settings page title')
  })

  it('pre-tool-use: the path cards, and an enforced card denies the first write in Chinese', async () => {
    const repo = await chinese(text => text.replace('enforce_must: false', 'enforce_must: true'))
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const write = base(repo, 'PreToolUse', {
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/002.sql'), content: 'x'},
    })
    const denied = JSON.parse((await feed(repo, 'claude', 'pre-tool-use', write)).stdout).hookSpecificOutput
    expect(denied.permissionDecisionReason).toBe(
      'cairn：Back up before a migration（backup-before-migration）是 db/migrations/002.sql 必须遵守的规则：\n' +
        'Run scripts/backup.sh and check the dump before you change a migration.\n' +
        '先应用这条规则，再重试写入；重试会被允许。',
    )
    expect(englishWords(denied.permissionDecisionReason, VERBATIM)).toEqual([])

    const other = await chinese()
    await feed(other, 'claude', 'session-start', base(other, 'SessionStart'))
    await settle(other)
    const edit = base(other, 'PreToolUse', {
      tool_name: 'Edit',
      tool_input: {file_path: path.join(other.dir, 'db/migrations/001_init.sql'), old_string: 'a', new_string: 'b'},
    })
    expect(context((await feed(other, 'claude', 'pre-tool-use', edit)).stdout)).toBe(
      'cairn：db/migrations/001_init.sql 的卡片（用 `cairn show ID --section rule` 读取规则）：\n' +
        '- [must] Back up before a migration（backup-before-migration）：Take a database backup before running any migration.',
    )
  })

  it('post-tool-use: an edited card with a problem is reported in Chinese, its file and field as they are', async () => {
    const repo = await chinese()
    const cardFile = path.join(repo.dir, '.cairn/cards/guideline/flaky-login-test.md')
    fs.writeFileSync(cardFile, fs.readFileSync(cardFile, 'utf8').replace('status: active', 'status: bogus'))
    const edit = base(repo, 'PostToolUse', {tool_name: 'Edit', tool_input: {file_path: cardFile}})
    const text = context((await feed(repo, 'claude', 'post-tool-use', edit)).stdout)
    expect(text).toBe(
      [
        'cairn：你编辑的卡片有 1 个错误、0 个警告：',
        '- .cairn/cards/guideline/flaky-login-test.md: status："bogus" 不是 "pending"、"active"、"deprecated"、"superseded" 之一（修复：' +
          '改用 "pending"、"active"、"deprecated"、"superseded" 之一）',
      ].join('\n'),
    )
    await settle(repo)
  })

  it('stop: the reason names each signal, its skill and command, in Chinese; the digest too', async () => {
    const repo = await chinese()
    for (const prompt of ['one', 'two', 'three', 'four'])
      await feed(repo, 'claude', 'user-prompt-submit', base(repo, 'UserPromptSubmit', {prompt}))
    const write = {tool_name: 'Write', tool_input: {file_path: path.join(repo.dir, 'db/migrations/003.sql')}}
    await feed(repo, 'claude', 'post-tool-use', base(repo, 'PostToolUse', write))
    await settle(repo)
    repo.write('.cairn/.local/.pending-fix', '{"reasons":["core-over-budget"]}\n')
    const transcript = path.join(repo.dir, '..', 'transcript.jsonl')
    const said = {type: 'user', message: {role: 'user', content: 'Add an index on users.email'}}
    fs.writeFileSync(transcript, JSON.stringify(said))
    const stop = base(repo, 'Stop', {
      transcript_path: transcript,
      stop_hook_active: false,
      last_assistant_message: 'Migration added.',
    })
    const reason: string = JSON.parse((await feed(repo, 'claude', 'stop', stop)).stdout).reason
    expect(reason).toBe(
      [
        'cairn：结束之前，有 2 件事需要处理：',
        '- archive：自上次提议卡片以来已有 5 次提示和编辑；' +
          '运行 cairn-archive 技能：它读取会话摘要，并用 `cairn propose` 提议卡片。',
        '- maintain：卡片库需要维护（.cairn/.local/.pending-fix）；' +
          '运行 `cairn maintain --dry-run`，再运行 `cairn maintain --apply`（cairn-review 技能包含这一步）。',
        '如果现在都不值得做，用一句话说明后停止。',
      ].join('\n'),
    )
    expect(englishWords(reason, [...VERBATIM, 'archive', 'maintain', '.cairn/.local/.pending-fix'])).toEqual([])
    expect(repo.read('.cairn/.local/digests/sess-zh.md')).toBe(
      [
        '# Add an index on users.email',
        '',
        '会话：sess-zh · 代理：claude · 2026-11-29T10:00:00.000Z',
        '',
        '## 用户的前几条消息',
        '',
        '1. Add an index on users.email',
        '',
        '## 编辑过的路径',
        '',
        '- db/migrations/003.sql',
        '',
        '## 助手的最后一条消息',
        '',
        'Migration added.',
        '',
      ].join('\n'),
    )
  })

  it('cairn recall: the light index in Chinese, and "no card applies" in Chinese', async () => {
    const repo = await chinese()
    const hit = await cliInProcess(['recall', 'the flaky login test failed again in CI'], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect(hit.stdout.split('\n').slice(0, 2)).toEqual([
      'cairn：可能适用于本任务的卡片。只有确实适用时，才读取卡片的完整规则：',
      '- The login test is flaky under load（flaky-login-test）[may]',
    ])
    const miss = await cliInProcess(['recall', 'rename the settings page title'], {cwd: repo.dir, env: repo.env})
    expect([miss.code, miss.stdout.trim()]).toEqual([0, '没有适用的卡片（不确定时不召回）。'])
    const explained = await cliInProcess(['recall', 'flaky login test', '--explain'], {cwd: repo.dir, env: repo.env})
    // The frame is Chinese; the matcher's own verdicts and gate details are its diagnostics, in English.
    for (const line of [
      '\n说明：在 3 张卡片中考察了 2 张。\n词典扩展：',
      '\n触发的信号：无\n',
      '\n  gate scope        通过  ',
      '\n  准入 1 = 证据 1 - 近似排除 0（阈值 0.5）；排名（BM25F）',
      '\n    精确 triggers  "flaky login test" 覆盖率 1 → 1\n',
      '\n    查询中的每个词都出现在卡片中\n',
    ])
      expect(explained.stdout).toContain(line)
  })
})

describe("a zh-CN store's hook text, echoed into a prompt, is not the user's words", () => {
  it('takes out each Chinese block as the hooks render it', () => {
    const zh = 'zh-CN' as const
    const place = {
      store: 'project' as const,
      path: '.cairn/cards/x.md',
      scope: {level: 'project' as const, project_key: null},
    }
    const backup = {
      ...place,
      id: 'backup-before-migration',
      title: '迁移前先备份',
      summary: '运行迁移之前先备份数据库。',
      policy: 'must' as const,
      risk: 'high' as const,
      module_path: null,
      paths: ['db/migrations/**'],
      rule: '运行 scripts/backup.sh。\n\n然后检查备份。',
      cited: ['db/migrations'],
    }
    const lines = Array.from({length: 40}, (_, i) => ({
      id: `card-${i}`,
      title: `卡片 ${i}`,
      category: i < 30 ? 'general' : 'ci',
      policy: 'may' as const,
      when: '处理合并冲突时',
      useWhen: true,
    }))
    const core = fitCore([{id: 'a', text: '### 先跑测试 (a)\n推送前运行 npm test。\n'}] as never, 2000, zh).text
    const blocks = [
      renderCatalog(lines.slice(0, 2), 3000, zh),
      renderCatalog(lines, 200, zh),
      renderPathCards([backup], ['db/migrations/003.sql'], () => '可能已过时：db/migrations 已删除', zh),
      renderEnforced([backup], zh),
      HOOK_TEXT[zh].review(3),
      stopReason([{signal: 'archive', why: '5 次提示', action: '运行 cairn-archive 技能'}], zh),
    ]
    expect(blocks[0].split('\n')[1]).toBe('- card-0：卡片 0。适用场景：处理合并冲突时')
    expect(blocks[1]).toBe(
      'cairn 卡片目录：共 40 张 recall 卡片，太多无法逐一列出，按类别列出' +
        '（`cairn list --category NAME` 列出一个类别；`cairn show ID` 读取一张卡片）：\ngeneral (30), ci (10)',
    )
    for (const b of blocks) expect(withoutOwnText(`${b}\n下一步做什么`), b.slice(0, 30)).toBe('\n下一步做什么')
    const deny = denyReason(backup, ['db/migrations/003.sql'], zh)
    const notice = HOOK_TEXT[zh].overBudget(3000, 2000, 'a, b')
    const brief = `${HOOK_TEXT[zh].boardHead}\nBoard at 2026-11-29T10:00:00Z: event 3.`
    for (const b of [core, deny, notice, brief])
      expect(withoutOwnText(`${b}\n\n下一步做什么`).trim(), b.slice(0, 30)).toBe('下一步做什么')
  })
})
