import {describe, expect, it} from 'vitest'
import {deriveTriggers, type DeriveInput, ruleHeadings} from '../../src/domain/derive.js'

const en = (title: string, summary: string, rule?: string): DeriveInput => ({title, summary, rule, language: 'en'})
const zh = (title: string, summary: string, rule?: string): DeriveInput => ({title, summary, rule, language: 'zh'})

describe('deriveTriggers: English', () => {
  it("keeps code-like tokens whole and prefers the title's multi-word runs", () => {
    expect(
      deriveTriggers(
        en(
          'deepMerge replaces arrays',
          'When merging hook config, deepMerge replaces arrays; append and dedupe instead.',
        ),
      ),
    ).toEqual(['deepMerge', 'replaces arrays', 'merging hook config'])
    expect(
      deriveTriggers(
        en(
          'Use path.join for Windows paths',
          'String concatenation with "/" breaks on Windows backslashes; build paths with path.join.',
        ),
      ),
    ).toEqual(['path.join', 'windows paths', 'string concatenation', 'windows backslashes', 'build paths'])
  })

  it('keeps a flag with the command before it, drops a leading generic verb, and treats plurals as one phrase', () => {
    expect(
      deriveTriggers(
        en(
          'Never run git push --force on shared branches',
          'Force-pushing a shared branch rewrites history other people built on; use --force-with-lease on your own branch.',
        ),
      ),
    ).toEqual(['shared branches', 'git push --force', 'rewrites history', 'people built', '--force-with-lease'])
    expect(
      deriveTriggers(
        en(
          'Prefer `git rebase --onto` for stacked branches',
          'When the base branch was squash-merged, `git rebase --onto main old-base` replays only your commits.',
        ),
      ),
    ).toEqual(['git rebase --onto', 'stacked branches', 'base branch'])
  })

  it("cuts a long run at its generic words, and reads the rule's first sentence", () => {
    expect(
      deriveTriggers(
        en(
          'Regenerate package-lock.json after editing dependencies by hand',
          'A hand-edited package.json without a matching lock makes npm ci fail in CI.',
        ),
      ),
    ).toEqual(['package-lock.json', 'editing dependencies', 'regenerate', 'npm ci fail', 'package.json'])
    expect(
      deriveTriggers(
        en(
          'Close file handles in the watcher',
          'fs.watch leaks descriptors when the watcher is not closed on shutdown.',
        ),
      ),
    ).toEqual(['close file handles', 'watcher', 'fs.watch', 'leaks descriptors'])
    expect(
      deriveTriggers(
        en('Graceful shutdown', 'It matters.', 'Call watcher.close() in the SIGTERM handler. Then await it.'),
      ),
    ).toEqual(['graceful shutdown', 'watcher.close'])
    expect(
      deriveTriggers(
        en(
          'Quote shell variables in CI scripts',
          'Unquoted $VAR splits on spaces and globs; write "$VAR" in every bash step of the workflow.',
        ),
      ),
    ).toEqual(['quote shell variables', 'ci scripts', '$VAR', 'bash step'])
  })

  it('never keeps a single generic or short word, and returns nothing when nothing is left', () => {
    expect(deriveTriggers(en('Fix the code', 'Update the file and add a test.'))).toEqual([])
    expect(deriveTriggers(en('The and of it', 'It is what it is.'))).toEqual([])
    expect(
      deriveTriggers(en('Keep the changelog up to date', 'Add an entry to CHANGELOG.md for every user-facing change.')),
    ).toEqual(['changelog', 'CHANGELOG.md', 'user-facing change'])
  })
})

describe('deriveTriggers: Chinese', () => {
  it('joins ICU words between function words: 合并|冲突 is one phrase', () => {
    expect(
      deriveTriggers(zh('合并冲突必须先解决再提交', '合并时出现冲突，要先解决冲突再提交，否则会丢失改动。')),
    ).toEqual(['合并冲突', '提交', '出现冲突', '解决冲突', '丢失改动'])
    expect(deriveTriggers(zh('数据库迁移必须可回滚', '每个迁移都要有回滚步骤，部署失败时才能恢复。'))).toEqual([
      '数据库迁移',
      '回滚',
      '部署失败',
    ])
    expect(deriveTriggers(zh('缓存键要包含用户语言', '缓存键缺少语言时，中文用户会看到英文页面。'))).toEqual([
      '包含用户语言',
      '缓存键',
      '看到英文页面',
      '中文用户',
    ])
  })

  it('keeps ASCII tokens inside Chinese text as their own phrases', () => {
    expect(deriveTriggers(zh('提交前先运行 git push --force 的检查', '强制推送会覆盖别人的提交。'))).toEqual([
      'git push --force',
      '提交',
      '强制推送',
      '覆盖别人',
    ])
    expect(
      deriveTriggers(zh('Windows 上路径分隔符要用 path.join 拼接', '直接用字符串拼接路径会在 Windows 上出错。')),
    ).toEqual(['路径分隔符', 'path.join', 'windows', '拼接'])
  })

  it('keeps a word ICU split into characters after a place or time character (时|区)', () => {
    expect(
      deriveTriggers(zh('时区必须统一用 UTC 存储', '数据库里的时间戳如果按本地时区保存，跨地区查询会错位。')),
    ).toEqual(['UTC', '时区', '统一', '存储', '跨地区查询'])
  })
})

describe('deriveTriggers: Chinese words, never clauses', () => {
  it('cuts a clause into terms: a prohibition is a function word, and a phrase holds at most three words', () => {
    expect(deriveTriggers(zh('不许随意新建文件', '新功能写进已有模块，不许随意新建文件。'))).toEqual([
      '新建文件',
      '新功能写进',
      '已有模块',
    ])
  })

  it('joins what ICU split apart: characters in a row (回|滚), a noun suffix (错误|码), never four characters or more', () => {
    expect(deriveTriggers(zh('接口错误码一经发布，含义不可更改', '改变已有错误码的含义会让旧客户端出错。'))).toEqual([
      '接口错误码',
      '一经发布',
      '改变已有错误码',
      '旧客户端出错',
    ])
    // 写|明|回|滚: four characters ICU did not know, with no word bound to cut at: no phrase.
    const rollback = deriveTriggers(zh('发布前必须准备回滚方案', '每次上线前写明回滚步骤和判断回滚的指标。'))
    expect(rollback).toEqual(['准备回滚方案', '发布', '判断回滚'])
    // Four in a row, an even number: words of two (网|关|回|调 is 网关 and 回调).
    expect(deriveTriggers(zh('支付网关回调要做幂等', '支付网关可能重复回调。'))[0]).toBe('支付网关回调')
    // A modal ICU joined to its verb (要|写) ends the phrase before it; a word that only starts like one stays whole.
    expect(deriveTriggers(zh('就业数据接口要加缓存', '就业数据接口很慢。'))[0]).toBe('就业数据接口')
    expect(deriveTriggers(zh('提交信息要写清为什么改', '提交信息第一行概括改动。'))[0]).toBe('提交信息')
  })
})

describe("deriveTriggers: the rule's body", () => {
  it('past its first sentence, the body fills the minimum when the title and summary give too little', () => {
    const body = 'Do it right. Close the kafka consumer on SIGTERM, then flush the outbox.'
    expect(deriveTriggers(en('Graceful shutdown', 'Do it right.', body))).toEqual([
      'graceful shutdown',
      'kafka consumer',
    ])
    // Weighing least, it never crowds out what the title and summary say.
    expect(deriveTriggers(en('Graceful shutdown', 'Drain the outbox queue before exit.', body))).toEqual([
      'graceful shutdown',
      'outbox queue',
    ])
  })
})

describe("deriveTriggers: the rule's own headings", () => {
  it('name the topics of a long rule file: up to eight phrases, marks and numbering left out, code blocks not read', () => {
    const rule = [
      'Standards for the test suites of every package.',
      '',
      '## 🚨 Diff Baseline Testing',
      '',
      'Update baselines with the snapshot script only.',
      '',
      '```sh',
      '# not a heading: a shell comment',
      '```',
      '',
      '### 2. Mocking AWS clients',
      '',
      'Use aws-sdk-client-mock.',
    ].join('\n')
    expect(ruleHeadings(rule)).toEqual(['Diff Baseline Testing', 'Mocking AWS clients'])
    const got = deriveTriggers(en('Testing standards', 'Standards for the test suites of every package.', rule))
    expect(got).toEqual(['testing standards', 'AWS', 'diff baseline testing', 'test suites', 'mocking', 'clients'])
    // Without headings, the same text gives at most five.
    expect(
      deriveTriggers(en('Testing standards', 'Standards for the test suites.', 'Update baselines.')).length,
    ).toBeLessThanOrEqual(5)
  })
})

describe('deriveTriggers: limits', () => {
  const inputs = [
    en(
      'Run the full test suite before tagging a release',
      'A release tag triggers publish; run the tests first so a broken build never reaches npm.',
    ),
    en(
      'Database migrations must be reversible',
      'Every migration ships with a down step so a failed deploy can roll back without data loss.',
    ),
    zh('发布前检查 CHANGELOG.md', '每次发布都要在 CHANGELOG.md 写明破坏性变更。'),
    zh('在持续集成流水线里缓存依赖目录以缩短构建时间', '流水线每次都重新安装依赖，构建要十分钟。'),
  ]

  it('2 to 5 phrases of at most 80 characters, the same every time, never the whole of a long title', () => {
    for (const input of inputs) {
      const phrases = deriveTriggers(input)
      expect(phrases.length).toBeGreaterThanOrEqual(2)
      expect(phrases.length).toBeLessThanOrEqual(5)
      expect(phrases.every(p => p.length > 0 && p.length <= 80)).toBe(true)
      expect(phrases.map(p => p.toLowerCase())).not.toContain(input.title.toLowerCase())
      expect(deriveTriggers(input)).toEqual(phrases)
    }
    expect(deriveTriggers(inputs[3])).toEqual(['持续集成流水线', '缓存依赖目录', '缩短构建时间', '重新安装依赖'])
  })
})

describe('deriveTriggers: what is no phrase', () => {
  it('a link, "and/or", a number, and a token over 80 characters', () => {
    const long = `src/${'a'.repeat(90)}.ts`
    expect(
      deriveTriggers(en('Pin dependencies and/or lockfiles', `See https://example.com/pinning and ${long}, 42 times.`)),
    ).toEqual(['pin dependencies', 'lockfiles'])
  })

  it('a key, hash or token: nobody types one, and a secret must not be copied', () => {
    expect(
      deriveTriggers(
        en(
          'Rotate leaked deploy keys',
          'The key AKIAABCDEFGH23456712 and token=Xk7pQ2mZ9rT4 leaked; sha256 ' +
            'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 confirms it.',
        ),
      ),
    ).toEqual(['rotate leaked', 'deploy keys', 'sha256'])
    expect(deriveTriggers(en('Set NODE_OPTIONS for es2022 builds', 'Pass --max-old-space-size=4096 to node.'))).toEqual(
      ['NODE_OPTIONS', 'es2022', '--max-old-space-size=4096'],
    )
  })
})
