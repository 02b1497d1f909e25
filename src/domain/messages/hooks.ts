import {formatIssue} from '../errors.js'
import type {Catalog} from './language.js'

/**
 * What the hooks put in front of the agent, in the store's language: session start's core rules, catalog, enforced
 * rules, notices and board brief; the prompt's light index; the tool hooks' path cards, denials and lint notice; the
 * stop hook's reason; the note a cut context ends with; the session digest. Card text (titles, summaries, rules) is
 * the card's own, in whatever language it was written. Ids, paths, commands, skills, policies and field names stay
 * verbatim: they are what the agent types or matches.
 */

interface Enforced {
  id: string
  title: string
  summary: string
  paths: readonly string[]
}

const s = (n: number, one: string, many: string) => (n === 1 ? one : many)

const en = {
  // Session start.
  coreHead: 'cairn core rules (always apply in this project):',
  overBudgetHead: 'cairn: the core cards are over budget (',
  overBudget: (total: number, budget: number, ids: string) =>
    `${en.overBudgetHead}${total} > ${budget} chars), so ${ids} did not load. ` +
    'Run `cairn maintain --dry-run`, then `cairn maintain --apply` to demote the least used.',
  /** The first few ids of a list, then how many more. */
  someIds: (shown: string, more: number) => `${shown} and ${more} more`,
  review: (n: number) =>
    `cairn: ${n === 1 ? '1 pending card waits' : `${n} pending cards wait`} for review: ` +
    'run the cairn-review skill (`cairn review --format text`).',
  boardHead: 'cairn board brief:',
  boardUnreadable: '(the board cannot be read; run `cairn board state` for the details)',
  boardUnreadableWhy: (first: string) =>
    `(the board cannot be read: ${first}; run \`cairn board state\` for the details)`,
  enforcedHead: 'cairn enforced rules (the first write to these paths is denied until the rule is applied):',
  enforcedLine: (c: Enforced) => `- ${c.title} (${c.id}) on ${c.paths.join(', ')}: ${c.summary}`,

  // The session-start catalog (domain/catalog.ts).
  catalogHead: 'cairn catalog (recall cards; `cairn show ID` reads one, `cairn show ID --section rule` just its rule):',
  catalogByCategory: (n: number) =>
    `cairn catalog: ${n} recall card${s(n, '', 's')}, too many to list, by category ` +
    '(`cairn list --category NAME` lists one; `cairn show ID` reads a card):',
  catalogMore: (n: number) => `…and ${n} more`,
  catalogUseWhen: (phrase: string) => `Use when: ${phrase}`,
  /** A title that does not end a sentence gets a full stop before what follows it. */
  catalogLine: (id: string, title: string, when: string) =>
    `- ${id}: ${title}${/[.!?。！？]$/u.test(title) ? '' : '.'} ${when}`,

  // The prompt's light index (recall/match/render.ts).
  lightHead: "cairn: cards that may apply to this task. Read a card's full rule only if it applies:",
  lightEntry: (title: string, id: string, policy: string, highRisk: boolean) =>
    `- ${title} (${id}) [${policy}${highRisk ? ', high risk' : ''}]`,
  fullRule: (id: string) => `  Full rule: cairn show ${id} --section rule`,
  useWhen: (phrases: string) => `Use when: ${phrases}`,
  ignoreWhen: (phrases: string) => `Ignore when: ${phrases}`,
  criteriaSep: ' | ',
  listSep: '; ',
  scope: (text: string) => `  Scope: ${text}`,
  scopeModule: (path: string) => `module ${path}`,
  scopePaths: (paths: string) => `paths ${paths}`,
  why: (text: string) => `  Why: ${text}`,
  matched: (text: string, field: string, exact: boolean) => `${exact ? '' : 'partly '}"${text}" (${field})`,
  fields: {
    triggers: 'trigger',
    derived: 'derived trigger',
    aliases: 'alias',
    use_when: 'use when',
    title: 'title',
    topics: 'topic',
    keywords: 'keyword',
  } as Record<string, string>,
  everyWord: 'every query word is in the card',
  taskShape: (description: string) => `task shape: ${description.replace(/\.$/, '').toLowerCase()}`,

  // The tool hooks (app/hooks/tool.ts).
  pathCardsHead: (files: string) => `cairn: cards for ${files} (read a rule with \`cairn show ID --section rule\`):`,
  pathCardLine: (policy: string, title: string, id: string, summary: string) =>
    `- [${policy}] ${title} (${id}): ${summary}`,
  moreFiles: (shown: string, more: number) => `${shown} and ${more} more`,
  denial: (title: string, id: string, files: string) => `cairn: ${title} (${id}) is a must-follow rule for ${files}:`,
  denialTail: 'Apply the rule, then retry the write; the retry is allowed.',
  pathCardsTail: 'Read these cards and follow them, then retry the write; the retry is allowed.',
  lintHead: (errors: number, warnings: number) =>
    `cairn: the card you edited has ${errors} error(s) and ${warnings} warning(s):`,
  lintLine: (file: string, field: string, message: string, fix: string | undefined) =>
    `- ${formatIssue({file, field, message, fix})}`,
  staleNote: (note: string) => `${note[0].toUpperCase()}${note.slice(1)}`,

  // The stop hook's reason (app/hooks/signals.ts).
  reviewMany: (n: number, max: number) => `${n} pending cards wait for review (the limit is ${max})`,
  reviewOld: (days: number, max: number) => `the oldest pending card has waited ${days} days (the limit is ${max})`,
  reviewAction: 'run the cairn-review skill (`cairn review --format text`)',
  maintainWhy: 'the library needs upkeep (.cairn/.local/.pending-fix)',
  maintainAction: 'run `cairn maintain --dry-run`, then `cairn maintain --apply` (the cairn-review skill covers it)',
  archiveEvents: (n: number) => `${n} prompts and edits since the last proposed card`,
  archiveHours: (n: number) => `${n} hours since the last proposed card`,
  archiveAction: 'run the cairn-archive skill: it reads the session digests and proposes cards with `cairn propose`',
  enrichWhy: (n: number, min: number) =>
    `${n} recall card${s(n, ' has', 's have')} no triggers, aliases or use_when (the limit is ${min}), ` +
    `so prompts in people's own words miss ${s(n, 'it', 'them')}`,
  enrichAction:
    'run the cairn-enrich skill (`cairn enrich --json`): it writes their phrases in one commit the team reviews',
  stopHead: (n: number) => `cairn: before you finish, ${n === 1 ? 'one thing is' : `${n} things are`} due:`,
  stopLine: (signal: string, why: string, action: string) => `- ${signal}: ${why}; ${action}.`,
  stopTail: 'If none of it is worth doing now, say so in one line and stop.',

  // What a context cut to the client's size cap ends with (agents/fit.ts).
  cut: '… (cut to fit the hook size limit)',

  // The session digest the cairn-archive skill reads (app/hooks/digest.ts).
  digestUntitled: 'session',
  digestMeta: (session: string, agent: string, at: string) =>
    `session: ${session || '(none)'} · agent: ${agent} · ${at}`,
  digestMessages: '## First user messages',
  digestPaths: '## Edited paths',
  digestLast: '## Last assistant message',
  digestCut: (max: number) => `… (cut at ${max} bytes)`,
}

export type HookText = typeof en

const zh: HookText = {
  coreHead: 'cairn 核心规则（在本项目中始终适用）：',
  overBudgetHead: 'cairn：核心卡片超出预算（',
  overBudget: (total, budget, ids) =>
    `${zh.overBudgetHead}${total} > ${budget} 字符），因此 ${ids} 没有加载。` +
    '运行 `cairn maintain --dry-run`，再运行 `cairn maintain --apply`，把最少使用的卡片降级。',
  someIds: (shown, more) => `${shown} 等（另有 ${more} 张）`,
  review: n => `cairn：有 ${n} 张待评审的卡片：运行 cairn-review 技能（\`cairn review --format text\`）。`,
  boardHead: 'cairn 看板简报：',
  boardUnreadable: '（看板无法读取；运行 `cairn board state` 查看详情）',
  boardUnreadableWhy: first => `（看板无法读取：${first}；运行 \`cairn board state\` 查看详情）`,
  enforcedHead: 'cairn 强制规则（应用规则之前，对这些路径的第一次写入会被拒绝）：',
  enforcedLine: c => `- ${c.title}（${c.id}）适用于 ${c.paths.join(', ')}：${c.summary}`,

  catalogHead: 'cairn 卡片目录（recall 卡片；`cairn show ID` 读取一张，`cairn show ID --section rule` 只读取其规则）：',
  catalogByCategory: n =>
    `cairn 卡片目录：共 ${n} 张 recall 卡片，太多无法逐一列出，按类别列出` +
    '（`cairn list --category NAME` 列出一个类别；`cairn show ID` 读取一张卡片）：',
  catalogMore: n => `…另有 ${n} 个类别`,
  catalogUseWhen: phrase => `适用场景：${phrase}`,
  catalogLine: (id, title, when) => `- ${id}：${title}${/[.!?。！？]$/u.test(title) ? '' : '。'}${when}`,

  lightHead: 'cairn：可能适用于本任务的卡片。只有确实适用时，才读取卡片的完整规则：',
  lightEntry: (title, id, policy, highRisk) => `- ${title}（${id}）[${policy}${highRisk ? '，高风险' : ''}]`,
  fullRule: id => `  完整规则：cairn show ${id} --section rule`,
  useWhen: phrases => `适用场景：${phrases}`,
  ignoreWhen: phrases => `不适用场景：${phrases}`,
  criteriaSep: ' | ',
  listSep: '；',
  scope: text => `  范围：${text}`,
  scopeModule: path => `模块 ${path}`,
  scopePaths: paths => `路径 ${paths}`,
  why: text => `  匹配原因：${text}`,
  matched: (text, field, exact) => `${exact ? '' : '部分匹配 '}"${text}"（${field}）`,
  fields: {
    triggers: '触发短语',
    derived: '派生触发短语',
    aliases: '别名',
    use_when: '适用场景',
    title: '标题',
    topics: '主题',
    keywords: '关键词',
  },
  everyWord: '查询中的每个词都出现在卡片中',
  taskShape: description => `任务类型：${description.replace(/[.。]$/u, '')}`,

  pathCardsHead: files => `cairn：${files} 的卡片（用 \`cairn show ID --section rule\` 读取规则）：`,
  pathCardLine: (policy, title, id, summary) => `- [${policy}] ${title}（${id}）：${summary}`,
  moreFiles: (shown, more) => `${shown} 等（另有 ${more} 个文件）`,
  denial: (title, id, files) => `cairn：${title}（${id}）是 ${files} 必须遵守的规则：`,
  denialTail: '先应用这条规则，再重试写入；重试会被允许。',
  pathCardsTail: '先阅读并遵守这些卡片，再重试写入；重试会被允许。',
  lintHead: (errors, warnings) => `cairn：你编辑的卡片有 ${errors} 个错误、${warnings} 个警告：`,
  lintLine: (file, field, message, fix) => `- ${file}: ${field}：${message}${fix ? `（修复：${fix}）` : ''}`,
  staleNote: note => note,

  reviewMany: (n, max) => `${n} 张卡片等待评审（上限为 ${max}）`,
  reviewOld: (days, max) => `最早的待评审卡片已等待 ${days} 天（上限为 ${max}）`,
  reviewAction: '运行 cairn-review 技能（`cairn review --format text`）',
  maintainWhy: '卡片库需要维护（.cairn/.local/.pending-fix）',
  maintainAction: '运行 `cairn maintain --dry-run`，再运行 `cairn maintain --apply`（cairn-review 技能包含这一步）',
  archiveEvents: n => `自上次提议卡片以来已有 ${n} 次提示和编辑`,
  archiveHours: n => `自上次提议卡片以来已过 ${n} 小时`,
  archiveAction: '运行 cairn-archive 技能：它读取会话摘要，并用 `cairn propose` 提议卡片',
  enrichWhy: (n, min) =>
    `${n} 张 recall 卡片没有 triggers、aliases 或 use_when（上限为 ${min}），用户用自己的话写的提示找不到它们`,
  enrichAction: '运行 cairn-enrich 技能（`cairn enrich --json`）：它在一次提交中写入这些短语，由团队评审',
  stopHead: n => `cairn：结束之前，有 ${n} 件事需要处理：`,
  stopLine: (signal, why, action) => `- ${signal}：${why}；${action}。`,
  stopTail: '如果现在都不值得做，用一句话说明后停止。',

  cut: '…（已截断，以符合钩子的大小上限）',

  digestUntitled: '会话',
  digestMeta: (session, agent, at) => `会话：${session || '（无）'} · 代理：${agent} · ${at}`,
  digestMessages: '## 用户的前几条消息',
  digestPaths: '## 编辑过的路径',
  digestLast: '## 助手的最后一条消息',
  digestCut: max => `…（在 ${max} 字节处截断）`,
}

export const HOOK_TEXT: Catalog<HookText> = {en, 'zh-CN': zh}

/**
 * How each language's hook text is found again in a prompt a client echoed it into (recall/match/own-text.ts): the
 * heads of the blocks the hooks write, from the text above, so a change to a head changes what is taken out with it.
 */
export interface OwnText {
  /** Lines that open a block of entries ("- " lines or indented ones). */
  heads: readonly ((line: string) => boolean)[]
  /** Lines that open a paragraph of free text, to the next blank line. */
  paragraphs: readonly ((line: string) => boolean)[]
  /** The first line of a denied write, to its fixed last line. */
  denial: RegExp
  denialTail: string
  pathCardsTail: string
  coreHead: string
  /** Lines of a block that are neither entries nor indented: the stop reason's last line, the catalog's categories. */
  tails: readonly RegExp[]
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A message with its arguments as wildcards: `(\d+)` for a number, `.+` for text. */
const shape = (text: string, holes: Record<string, string>): RegExp => {
  let source = escape(text)
  for (const [hole, pattern] of Object.entries(holes)) source = source.split(escape(hole)).join(pattern)
  return new RegExp(`^${source}$`)
}
const ID = '[a-z0-9][a-z0-9-]*'

function ownText(t: HookText, legacy: readonly ((line: string) => boolean)[]): OwnText {
  const categories = shape(t.catalogByCategory(7), {'7': '\\d+', ' cards': ' cards?'})
  const pathCards = shape(t.pathCardsHead('\u0001'), {'\u0001': '.+'})
  // One card and several are said differently.
  const review = [shape(t.review(1), {'1': '\\d+'}), shape(t.review(7), {'7': '\\d+'})]
  const more = escape(t.catalogMore(7)).replace('7', '\\d+')
  return {
    heads: [
      line => line === t.lightHead,
      line => line === t.catalogHead,
      line => categories.test(line),
      line => pathCards.test(line),
      line => line === t.enforcedHead,
      line => review.some(r => r.test(line)),
      line => line.startsWith(t.stopHead(7).split('7')[0]),
      ...legacy,
    ],
    paragraphs: [line => line === t.boardHead, line => line.startsWith(t.overBudgetHead)],
    denial: shape(t.denial('\u0001', '\u0002', '\u0003'), {'\u0001': '.+', '\u0002': ID, '\u0003': '.+'}),
    denialTail: t.denialTail,
    pathCardsTail: t.pathCardsTail,
    coreHead: t.coreHead,
    tails: [
      new RegExp(`^${escape(t.stopTail)}$`),
      new RegExp(`^[^,]+ \\(\\d+\\)(?:, [^,]+ \\(\\d+\\))*(?:, ${more})?$|^${more}$`),
    ],
  }
}

export const OWN_TEXT: Catalog<OwnText> = {
  en: ownText(en, [
    // An older cairn named the id <id>, which Gemini CLI echoes as &lt;id&gt;; a heading of an older catalog too.
    line => /^cairn: cards for .+ \(read a rule with `cairn show (?:<id>|&lt;id&gt;) --section rule`\):$/.test(line),
    line => line.startsWith('cairn enforced rules ('),
    // An older cairn's review reminder.
    line => /^cairn: \d+ proposed card\(s\) wait for review: /.test(line),
  ]),
  'zh-CN': ownText(zh, []),
}
