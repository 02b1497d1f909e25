// Synthetic card libraries for the recall benchmarks: valid cairn card files written straight into
// .cairn/cards/<type>/, from a fixed vocabulary and a seeded PRNG, so every run sees the same library.
// A few "target" cards are planted so the benchmark prompt has real answers at every size.
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES} from './lib.js'

const EN = (
  'cache index query parser schema migration config deploy release build test fixture mock browser page layout ' +
  'button form modal router state store reducer hook provider adapter runtime worker queue lease capacity retry timeout ' +
  'network request response header token session cookie auth login logout permission role audit log trace metric alert ' +
  'dashboard report export import csv json yaml markdown template render compile bundle minify lint format type check ' +
  'error exception panic crash stack memory leak profile benchmark latency throughput batch stream pipeline job cron ' +
  'schedule backup restore snapshot replica shard partition table column row key value map list set tree graph node ' +
  'edge path file folder directory symlink permission owner group user admin tenant billing invoice payment refund ' +
  'order cart checkout product catalog search filter sort page cursor offset limit rate quota throttle circuit breaker ' +
  'fallback feature flag rollout canary rollback hotfix patch version semver changelog tag branch merge rebase conflict ' +
  'review approve comment label issue ticket sprint estimate deadline owner doc readme guide tutorial example diagram'
).split(' ')
const ZH = (
  '缓存 索引 查询 解析 迁移 配置 部署 发布 构建 测试 页面 布局 按钮 表单 路由 状态 存储 适配 运行 队列 重试 超时 ' +
  '网络 请求 响应 会话 登录 权限 角色 审计 日志 指标 告警 报表 导出 导入 模板 渲染 编译 打包 格式 检查 错误 异常 内存 ' +
  '性能 延迟 批量 任务 定时 备份 恢复 快照 副本 分片 分区 字段 用户 租户 账单 发票 支付 退款 订单 商品 搜索 过滤 排序 ' +
  '分页 限流 熔断 降级 灰度 回滚 补丁 版本 分支 合并 冲突 评审 审批 评论 标签 文档 示例 图表 数据 目录 文件 权重 预算'
).split(' ')

function prng(seed) {
  let x = seed >>> 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

const TARGETS = [
  {
    id: 'bench-git-commit-scope-safety',
    title: 'Keep unrelated changes out of a commit',
    summary: 'Before a commit, check git status and stage only the task files.',
    triggers: ['git status', 'staged diff', 'dirty worktree'],
    use_when: ['commit scope'],
    topics: ['git'],
    hints: '{positive: [worktree_diff_operation]}',
    lang: 'en',
  },
  {
    id: 'bench-browser-real-path-check',
    title: '前端改动必须做真实浏览器验收',
    summary: '前端 UI 改动必须在真实浏览器里按用户路径验收。',
    triggers: ['真实浏览器', 'browser validation'],
    use_when: ['前端验收'],
    topics: ['frontend'],
    hints: '{positive: [ui_surface]}',
    lang: 'zh',
  },
]

/** The prompts the benchmarks send: each one has one planted answer. */
export const PROMPTS = [
  {
    text: 'Before commit, run git status and keep unrelated dirty files out of the staged diff.',
    expect: 'bench-git-commit-scope-safety',
  },
  {text: '修复前端页面的布局问题，然后在真实浏览器里验收用户路径。', expect: 'bench-browser-real-path-check'},
]

const yamlList = xs => `[${xs.map(x => JSON.stringify(x)).join(', ')}]`

function cardText(c, type) {
  return `---
schema: cairn/card@1
id: ${c.id}
type: ${type}
status: active
title: ${JSON.stringify(c.title)}
category: general
summary: ${JSON.stringify(c.summary)}
load: ${c.load ?? 'recall'}
criteria:
  use_when: ${yamlList(c.use_when)}
  ignore_when: ${yamlList(c.ignore_when ?? [])}
engine_hints: ${c.hints ?? '{positive: [], required_all: [], negative: []}'}
recall:
  policy: ${c.policy ?? 'should'}
  risk: medium
  confidence: medium
  triggers: ${yamlList(c.triggers)}
  topics: ${yamlList(c.topics)}
  aliases: {en: [], zh: []}
scope: ${c.paths ? `{level: project, project_key: null, module_path: null, paths: ${yamlList(c.paths)}}` : '{level: global, project_key: null, module_path: null, paths: []}'}
language: ${c.lang}
keywords: ${yamlList(c.keywords ?? [])}
created: 2026-01-01T00:00:00Z
updated: 2026-01-01T00:00:00Z
approved: {by: bench, at: 2026-01-01T00:00:00Z}
---
${bodyText(c)}`
}

/**
 * A team's own words, shared by hundreds of its cards: with the `team` option a word is one of these
 * that often (per word drawn), in every field, so a prompt made of them meets thousands of postings
 * and hundreds of cards it could admit, as a real library's everyday vocabulary does.
 */
export const TEAM_WORDS = {
  en: [
    'retry',
    'queue',
    'deploy',
    'worker',
    'timeout',
    'job',
    'lease',
    'rollback',
    'release',
    'cache',
    'pipeline',
    'batch',
  ],
  zh: ['重试', '队列', '部署', '任务', '超时', '缓存', '发布', '回滚'],
}

const NULLS = ['superseded_by', 'deferred_until']
const PROVENANCE =
  '  source_sessions: []\n  proposed_reason: null\n  session_context: null\n  recent_paths: []\n  user_messages_summary: null\n  idempotency_key: null\n'

/** A list as renderFrontmatter writes it: flow when short (under 72 characters with separators), else a block. */
const canonicalList = (xs, indent) =>
  xs.reduce((w, x) => w + x.length + 2, 0) < 72
    ? ` [${xs.join(', ')}]`
    : `\n${xs.map(x => `${indent}- ${x}`).join('\n')}`

/**
 * A random card in the layout cairn itself writes (renderCard: plain scalars, every field, short
 * lists in flow style), byte for byte: the scenario that uses it checks a sample against renderCard.
 * Its words need no quoting (no YAML indicator, no number or boolean).
 */
function canonicalText(c, type) {
  return `---
schema: cairn/card@1
id: ${c.id}
type: ${type}
status: active
title: ${c.title}
category: general
summary: ${c.summary}
load: ${c.load ?? 'recall'}
criteria:
  use_when:${canonicalList(c.use_when, '    ')}
  ignore_when:${canonicalList(c.ignore_when, '    ')}
engine_hints:
  positive: []
  required_all: []
  negative: []
recall:
  policy: should
  risk: medium
  confidence: medium
  triggers:${canonicalList(c.triggers, '    ')}
  topics:${canonicalList(c.topics, '    ')}
  aliases:
    en: []
    zh: []
scope:
  level: global
  project_key: null
  module_path: null
  paths: []
language: ${c.lang}
keywords:${canonicalList(c.keywords, '  ')}
links: []
protected: false
supersedes: []
${NULLS.map(k => `${k}: null`).join('\n')}
provenance:
${PROVENANCE}created: 2026-01-01T00:00:00Z
updated: 2026-01-01T00:00:00Z
approved:
  by: bench
  at: 2026-01-01T00:00:00Z
---
${bodyText(c)}`
}

const bodyText = c => `
## ${c.lang === 'zh' ? '这张卡解决什么问题' : 'Problem'}

${c.summary}

## ${c.lang === 'zh' ? '完整规则' : 'Rule'}

\`\`\`text
${c.rule ?? c.summary}
\`\`\`
`

const block = (xs, indent) =>
  xs.length ? `\n${xs.map((x, i) => `${indent}- ${i % 2 ? `'${x}'` : x}`).join('\n')}` : ' []'

/**
 * Layouts people leave when they edit a card by hand, all valid cards: (0) every string quoted and
 * maps in flow style (cardText); (1) keys in another order, comments, block lists, `~` for null, a
 * folded summary and fields left to their defaults; (2) the canonical layout with CRLF line ends, as
 * an editor on Windows may save it.
 */
function handEditedText(c, type, style) {
  if (style === 0) return cardText(c, type)
  if (style === 2) return canonicalText(c, type).replace(/\n/g, '\r\n')
  const words = c.summary.split(c.lang === 'zh' ? '' : ' ')
  const half = Math.ceil(words.length / 2)
  const sep = c.lang === 'zh' ? '' : ' '
  return `---
# reworded by hand after the review
id: ${c.id}
title: '${c.title}'
schema: cairn/card@1
type: ${type}
status: active
category: general
language: ${c.lang}
summary: >-
  ${words.slice(0, half).join(sep)}
  ${words.slice(half).join(sep)}
recall:
  triggers:${block(c.triggers, '    ')}
  topics:${block(c.topics, '    ')}
  policy: should   # was must; too loud
  risk: medium
  confidence: medium
criteria:
  use_when:${block(c.use_when, '  ')}
  ignore_when:${block(c.ignore_when, '  ')}
scope:
  level: global
  project_key: ~
keywords:${block(c.keywords, '  ')}
created: 2026-01-01T00:00:00Z
updated: "2026-01-01T00:00:00Z"
approved:
  by: bench
  at: 2026-01-01T00:00:00Z
---
${bodyText(c)}`
}

function randomCard(i, rnd, team = 0) {
  const zh = rnd() < 0.3
  const words = zh ? ZH : EN
  const common = zh ? TEAM_WORDS.zh : TEAM_WORDS.en
  const word = () => {
    const from = team > 0 && rnd() < team ? common : words
    return from[Math.floor(rnd() * from.length)]
  }
  const pick = n => Array.from({length: n}, word)
  const join = xs => xs.join(zh ? '' : ' ')
  const phrase = () => join(pick(2 + Math.floor(rnd() * 2)))
  return {
    id: `bench-recall-card-${String(i).padStart(6, '0')}`,
    title: join(pick(4)),
    summary: `${join(pick(14))}${zh ? '。' : '.'}`,
    triggers: [phrase(), phrase(), phrase()],
    use_when: [phrase(), phrase()],
    ignore_when: [phrase()],
    topics: pick(2),
    keywords: pick(2),
    rule: `${join(pick(30))}${zh ? '。' : '.'}`,
    lang: zh ? 'zh' : 'en',
  }
}

/** Narrow cards per area: each file under src/<area>/ matches this many of them. */
export const NARROW_PER_AREA = 4
const AREA_WORDS = [...new Set(EN)]
/** The k-th area a narrow card is scoped to: src/<area>/. */
export const areaName = k =>
  `${AREA_WORDS[k % AREA_WORDS.length]}${k >= AREA_WORDS.length ? `-${Math.floor(k / AREA_WORDS.length)}` : ''}`
// The glob shapes a team writes for one area; a file src/<area>/x.ts matches all of them.
const AREA_GLOBS = [a => `src/${a}/**`, a => `src/${a}/**/*.ts`, a => `src/${a}/*.ts`, a => `**/${a}/**`]

/**
 * Writes n card files (the planted targets included) into repoDir/.cairn/cards/<type>/.
 * Options (all off by default, which keeps the library byte-identical for the other scenarios):
 * `core` random cards get `load: core`; a `narrow` share (0..1) of them get `scope.paths` globs on
 * src/<area>/, NARROW_PER_AREA cards per area; `team` (0..1) is the share of words drawn from
 * TEAM_WORDS; `canonical` writes the random cards in the layout cairn writes, and a `handEdited`
 * share (0..1) of them in one of three hand-edited layouts (handEditedText). Returns {core, narrow,
 * handEdited}: the ids, narrow[k] being area k's.
 */
export function writeLibrary(
  repoDir,
  n,
  seed = 42,
  {core = 0, narrow = 0, team = 0, canonical = false, handEdited = 0} = {},
) {
  if (canonical && narrow) throw new Error('writeLibrary: canonical cards have no scope.paths (narrow)')
  const rnd = prng(seed)
  const dirs = CARD_TYPES.map(t => path.join(repoDir, '.cairn', 'cards', t))
  for (const d of dirs) fs.mkdirSync(d, {recursive: true})
  TARGETS.forEach((c, i) =>
    fs.writeFileSync(path.join(dirs[i % dirs.length], `${c.id}.md`), cardText(c, CARD_TYPES[i % dirs.length])),
  )
  const step = narrow > 0 ? Math.max(1, Math.round(1 / narrow)) : 0
  const handStep = handEdited > 0 ? Math.max(1, Math.round(1 / handEdited)) : 0
  const out = {core: [], narrow: [], handEdited: []}
  let narrowCount = 0
  for (let i = TARGETS.length; i < n; i++) {
    const c = randomCard(i, rnd, team)
    if (i - TARGETS.length < core) {
      c.load = 'core'
      out.core.push(c.id)
    } else if (step && i % step === 0) {
      const k = Math.floor(narrowCount / NARROW_PER_AREA)
      c.paths = [AREA_GLOBS[narrowCount % NARROW_PER_AREA](areaName(k))]
      ;(out.narrow[k] ??= []).push(c.id)
      narrowCount++
    }
    const t = i % CARD_TYPES.length
    let text
    if (!canonical) text = cardText(c, CARD_TYPES[t])
    else if (handStep && i % handStep === 0 && c.load !== 'core') {
      text = handEditedText(c, CARD_TYPES[t], out.handEdited.length % 3)
      out.handEdited.push(`${CARD_TYPES[t]}/${c.id}.md`)
    } else text = canonicalText(c, CARD_TYPES[t])
    fs.writeFileSync(path.join(dirs[t], `${c.id}.md`), text)
  }
  return out
}

/**
 * The worst-case prompt's library (issue 35): a team whose every trigger is three words of one
 * 20-word vocabulary, and whose use_when phrases are two of those words, in English and in Chinese.
 * The prompt holds six of the words, so hundreds of cards match one of their triggers fully and
 * most cards meet some of its words.
 */
export const WORST_WORDS = {
  en: [
    'retry',
    'budget',
    'queue',
    'worker',
    'deploy',
    'ledger',
    'timeout',
    'cache',
    'lease',
    'rollback',
    'release',
    'pipeline',
    'batch',
    'job',
    'migration',
    'shard',
    'replica',
    'token',
    'quota',
    'alert',
  ],
  zh: [
    '重试',
    '预算',
    '队列',
    '工作',
    '部署',
    '账本',
    '超时',
    '缓存',
    '租约',
    '回滚',
    '发布',
    '流水线',
    '批量',
    '任务',
    '迁移',
    '分片',
    '副本',
    '令牌',
    '配额',
    '告警',
  ],
}

/** The worst-case prompt: six of WORST_WORDS.en (retry twice). */
export const WORST_PROMPT =
  'The retry budget in the queue worker keeps failing after the deploy; fix the retry logic and check the ledger.'

/**
 * A short prompt (three words or fewer) with one of those words: a card may be found by any of its
 * wording, and hardly any holds every word, so few or none is admitted.
 */
export const WORST_SHORT_PROMPT = 'fix the retry logic'

/** Distinct indexes into WORST_WORDS, k of them. */
function distinct(rnd, k) {
  const out = []
  while (out.length < k) {
    const j = Math.floor(rnd() * WORST_WORDS.en.length)
    if (!out.includes(j)) out.push(j)
  }
  return out
}

function worstCard(i, rnd) {
  const zh = rnd() < 0.3
  const words = zh ? ZH : EN
  const pick = k => Array.from({length: k}, () => words[Math.floor(rnd() * words.length)])
  const join = xs => xs.join(zh ? '' : ' ')
  const en = js => js.map(j => WORST_WORDS.en[j]).join(' ')
  const triggers = [distinct(rnd, 3), distinct(rnd, 3), distinct(rnd, 3)].map(en)
  const [a, b] = distinct(rnd, 2)
  const [c, d] = distinct(rnd, 2)
  return {
    id: `bench-worst-card-${String(i).padStart(6, '0')}`,
    title: join(pick(4)),
    summary: `${join(pick(12))}${zh ? '。' : '.'}`,
    triggers,
    use_when: [en([a, b]), `${WORST_WORDS.zh[c]}${WORST_WORDS.zh[d]}`],
    ignore_when: [join(pick(2))],
    topics: distinct(rnd, 2).map(j => WORST_WORDS.en[j]),
    keywords: pick(2),
    rule: `${join(pick(24))}${zh ? '。' : '.'}`,
    lang: zh ? 'zh' : 'en',
  }
}

/**
 * Writes n worst-case cards (worstCard) into repoDir/.cairn/cards/<type>/, in the layout cairn
 * writes. Returns {full}: how many cards have a trigger made only of the prompt's words.
 */
export function writeWorstLibrary(repoDir, n, seed = 35) {
  const rnd = prng(seed)
  const asked = new Set(WORST_PROMPT.toLowerCase().split(/[^a-z]+/))
  let full = 0
  const dirs = CARD_TYPES.map(t => path.join(repoDir, '.cairn', 'cards', t))
  for (const d of dirs) fs.mkdirSync(d, {recursive: true})
  for (let i = 0; i < n; i++) {
    const t = i % CARD_TYPES.length
    const c = worstCard(i, rnd)
    fs.writeFileSync(path.join(dirs[t], `${c.id}.md`), canonicalText(c, CARD_TYPES[t]))
    if (c.triggers.some(x => x.split(' ').every(w => asked.has(w)))) full++
  }
  return {full}
}
