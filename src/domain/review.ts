import {originLine} from './card/origin.js'
import type {NearCard} from './near-duplicates.js'
import type {SecretHit} from './secrets.js'
import type {Card} from './card/schema.js'
import {codeSpan, inert, markdownText} from './markdown.js'
import {formatIssue, type Issue} from './errors.js'
import {isRetired} from './card/types.js'
import {fence} from './card/sections.js'

/** The batch review of pending cards (seed 000's Batch Review Template), in en or zh-CN. */

export type ReviewLanguage = 'en' | 'zh-CN'
/** How the review is printed; JSON is the envelope of --json, not a rendering. */
export type ReviewFormat = 'text' | 'markdown'

export interface Candidate {
  card: Omit<Card, 'body'>
  layer: 'team' | 'personal'
  path: string
  /** The card's full rule (the Rule section: its fenced block, else its text); none when the card has no Rule section. */
  rule?: string | null
  /** Text in the card that steers an agent (domain/steering.ts): a card written by hand that no write checked yet. */
  steering?: Pick<SecretHit, 'field' | 'kind' | 'fingerprint'>[]
}

export interface ReviewEntry {
  n: number
  id: string
  type: string
  layer: 'team' | 'personal'
  load: string
  relevance_scope: 'narrow' | 'broad'
  relevance_paths: string[]
  scope: {level: string; project_key: string | string[] | null; module_path: string | null}
  title: string
  summary: string
  /** The full rule, as the card has it; the printed review shows its first lines. Null when the card has none. */
  rule: string | null
  /** What brings the card to an agent, for the reviewer to judge: the phrases a prompt must hold, and how hard it is put. */
  recall: {policy: string; risk: string; triggers: string[]; aliases: string[]}
  criteria: {use_when: string[]; ignore_when: string[]}
  /** Phrases cairn derived because the card has no triggers; a reviewer replaces them with triggers. */
  derived_triggers: string[]
  /** The card that replaces this one (a superseded ADR's successor): approving files it as superseded, never recalled. */
  superseded_by?: string
  /** Why it was proposed, as the proposer said (an import names its source and, for an ADR, its status). */
  reason?: string
  /** Who proposed it, from which client and session, through what, when (cards from before cairn recorded it: none). */
  proposed?: string
  /** Active cards of its scope this one is close to: a near duplicate to merge or supersede, or a contradiction. */
  /** Active cards approving this one retires (status: superseded). */
  supersedes?: string[]
  near?: NearCard[]
  steering?: Pick<SecretHit, 'field' | 'kind' | 'fingerprint'>[]
  /** Retired where it came from (a deprecated or superseded ADR): approving files it so, never recalled. */
  retired?: 'deprecated' | 'superseded'
  layer_reasoning: string
  scope_reasoning: string
  pending_path: string
}

/** Tokens that stay verbatim in every language (seed 000): routing keys, field names, commands. */
export const PROTECTED_TOKENS = [
  'relevance_scope',
  'relevance_paths',
  'narrow',
  'broad',
  'layer',
  'team',
  'personal',
  'pending_path',
  'type',
  'load',
  'slug',
  'cairn',
  'review',
  'approve',
  'reject',
  'modify',
  'defer',
  '--all',
  '--reason',
  '--set',
  '--until',
  'id',
  'derived_triggers',
  'triggers',
  'aliases',
  'use_when',
  'ignore_when',
  'recall',
  'policy',
  'risk',
  'must',
  'should',
  'may',
  'high',
  'medium',
  'low',
  'cards/',
  'YYYY-MM-DD',
  'show',
  '--section',
  'rule',
]

const T = {
  en: {
    heading: (n: number) => `Card Review — ${n} pending card${n === 1 ? '' : 's'}`,
    none: 'No pending cards to review.',
    unreadable: (n: number) =>
      `${n === 1 ? 'This pending card cannot be read' : `These ${n} pending cards cannot be read`}, so the review ` +
      `leaves ${n === 1 ? 'it' : 'them'} out; mend the file as each line says, then run "cairn review" again:`,
    title: 'Title',
    summary: 'Summary',
    rule: 'Rule',
    ruleIsSummary: 'the same as the summary.',
    ruleMore: (n: number, id: string) =>
      `…${n ? ` ${n} more line${n === 1 ? '' : 's'};` : ''} "cairn show ${id} --section rule" prints the whole rule.`,
    reason: 'Proposed because',
    proposed: 'Proposed by',
    nearDuplicate: 'Near duplicate of',
    supersedes: 'approving this card retires them (status: superseded) in the same commit',
    steers: 'Steers the agent',
    steersFix:
      'every write refuses it, approving included: mend the text, or list the fingerprint under secrets: allow: if it is meant',
    contradicts: 'May contradict',
    overlap: 'word overlap',
    sharedPhrases: 'shared phrases',
    nearFix: (id: string, other: string) =>
      `merge what is new into it and reject this one, or replace it: "cairn review modify ${id} --set supersedes=${other}" retires it when this card is approved`,
    contradictsFix:
      'one says always, the other never, on the same subject: keep the one that holds, or narrow their scopes so they do not meet',
    layerWhy: 'Layer reasoning',
    scopeWhy: 'Scope reasoning',
    sharedLead: 'Reasoning the cards below share, said once here; each card shows only its own:',
    scope: 'Scope',
    module: 'module',
    team:
      'team — the default: the card was proposed into the project store, where this review catches a wrong choice; ' +
      'a card wrongly made personal would never reach the team.',
    personal: 'personal — proposed for your personal store: it applies across projects and is not tied to this code.',
    personalBroad: 'broad — the personal layer always forces broad with relevance_paths [].',
    narrow: (n: number, from: PathsFrom) =>
      `narrow — gated by ${n} path pattern${n === 1 ? '' : 's'}${from === 'session' ? ", derived from the session's edit paths" : from === 'import' ? ", from the imported rule file's own scope (its globs, or its folder)" : ''}; it only appears when work touches them.`,
    broad: 'broad — no path patterns: it applies wherever the agent works in this project.',
    derived: (id: string) =>
      'derived by cairn from the title, summary and rule, not chosen by a person; ' +
      `replace them with "cairn review modify ${id} --set triggers=<phrase>,<phrase>"`,
    superseded: 'approving keeps it as a superseded record in cards/: it is never recalled.',
    retired: (status: string) => `approving keeps it as a ${status} record in cards/: it is never recalled.`,
    actions:
      'Approve with "cairn review approve <id>" or "cairn review approve --all"; reject with "cairn review reject <id> --reason <text>"; change fields with "cairn review modify <id> --set <field>=<value>".',
    sep: ': ',
  },
  'zh-CN': {
    heading: (n: number) => `卡片评审 — ${n} 张待审卡片`,
    none: '没有待审卡片。',
    unreadable: (n: number) =>
      `${n === 1 ? '这张待审卡片' : `这 ${n} 张待审卡片`}无法读取，评审中没有列出；请按每行所说修好文件，再运行 cairn review：`,
    title: '标题',
    summary: '摘要',
    rule: '规则',
    ruleIsSummary: '与摘要相同。',
    ruleMore: (n: number, id: string) => `……${n ? `另有 ${n} 行；` : ''}cairn show ${id} --section rule 显示完整规则。`,
    reason: '提出原因',
    proposed: '提出者',
    nearDuplicate: '疑似重复',
    supersedes: '批准本卡会在同一提交中让它们退役（status: superseded）',
    steers: '试图操控代理',
    steersFix: '任何写入（包括批准）都会拒绝它：修改文本，或确属有意时把指纹列入 secrets: allow:',
    contradicts: '可能冲突',
    overlap: '词语重合度',
    sharedPhrases: '共同短语',
    nearFix: (id: string, other: string) =>
      `把新内容并入它并拒绝本卡，或取代它："cairn review modify ${id} --set supersedes=${other}"，本卡批准时它即退役`,
    contradictsFix: '同一主题上一张说必须、一张说不要：保留成立的那张，或收窄两者的范围使其不再重叠',
    layerWhy: 'layer 判定',
    scopeWhy: 'relevance_scope 判定',
    sharedLead: '下面的卡片共有的判定，只在此说明一次；每张卡片只列出自己独有的判定：',
    scope: '范围',
    module: '模块',
    team: 'team — 默认选择：卡片提交在项目仓库中，判断有误时本次评审即可发现；错标为 personal 的卡片则永远不会到达团队。',
    personal: 'personal — 提交到个人仓库：跨项目通用，不绑定本项目代码。',
    personalBroad: 'broad — personal 层始终强制 broad，relevance_paths 为 []。',
    narrow: (n: number, from: PathsFrom) =>
      `narrow — 由 ${n} 个路径模式限定${from === 'session' ? '，来自本次会话的编辑路径' : from === 'import' ? '，来自导入的规则文件自身的范围（其 glob 或所在目录）' : ''}；只有工作涉及这些路径时才出现。`,
    broad: 'broad — 没有路径模式：在本项目任何位置工作时都适用。',
    derived: (id: string) =>
      `由 cairn 从标题、摘要和规则派生，并非人工填写；替换：cairn review modify ${id} --set triggers=<短语>,<短语>`,
    superseded: '批准后作为已被取代（superseded）的记录留在 cards/ 中，不会被召回。',
    retired: (status: string) =>
      `批准后作为${status === 'deprecated' ? '已废弃' : '已被取代'}（${status}）的记录留在 cards/ 中，不会被召回。`,
    actions:
      '批准：cairn review approve <id> 或 cairn review approve --all；拒绝：cairn review reject <id> --reason <原因>；修改：cairn review modify <id> --set <字段>=<值>。',
    sep: '：',
  },
}

/** Where a narrow card's paths came from: an import's rule file, a session's edits, or the proposer. */
type PathsFrom = 'import' | 'session' | null

const pathsFrom = (card: Candidate['card']): PathsFrom =>
  card.provenance.source_sessions.some(s => s.startsWith('import:'))
    ? 'import'
    : card.provenance.recent_paths.length > 0
      ? 'session'
      : null

export function reviewEntries(
  candidates: Candidate[],
  language: ReviewLanguage,
  near: ReadonlyMap<string, NearCard[]> = new Map(),
): ReviewEntry[] {
  const t = T[language]
  return candidates.map((c, i) => {
    const paths = c.card.scope.paths
    const narrow = c.layer === 'team' && paths.length > 0
    const scopeWhy =
      c.layer === 'personal' ? t.personalBroad : narrow ? t.narrow(paths.length, pathsFrom(c.card)) : t.broad
    return {
      n: i + 1,
      id: c.card.id,
      type: c.card.type,
      layer: c.layer,
      load: c.card.load,
      relevance_scope: narrow ? 'narrow' : 'broad',
      relevance_paths: narrow ? paths : [],
      scope: {level: c.card.scope.level, project_key: c.card.scope.project_key, module_path: c.card.scope.module_path},
      title: c.card.title,
      summary: c.card.summary,
      rule: c.rule?.trim() ? c.rule : null,
      recall: {
        policy: c.card.recall.policy,
        risk: c.card.recall.risk,
        triggers: c.card.recall.triggers,
        aliases: [...c.card.recall.aliases.en, ...c.card.recall.aliases.zh],
      },
      criteria: {use_when: c.card.criteria.use_when, ignore_when: c.card.criteria.ignore_when},
      derived_triggers: c.card.recall.derived_triggers,
      ...(c.card.superseded_by ? {superseded_by: c.card.superseded_by} : {}),
      ...(c.card.provenance.proposed_reason ? {reason: c.card.provenance.proposed_reason} : {}),
      ...(originLine(c.card, language) ? {proposed: originLine(c.card, language)!} : {}),
      ...(near.get(c.card.id)?.length ? {near: near.get(c.card.id)!} : {}),
      ...(c.card.supersedes.length ? {supersedes: c.card.supersedes} : {}),
      ...(c.steering?.length
        ? {steering: c.steering.map(h => ({field: h.field, kind: h.kind, fingerprint: h.fingerprint}))}
        : {}),
      ...(isRetired(c.card.status) && !c.card.superseded_by
        ? {retired: c.card.status as 'deprecated' | 'superseded'}
        : {}),
      layer_reasoning: c.layer === 'personal' ? t.personal : t.team,
      scope_reasoning: scopeWhy,
      pending_path: c.path,
    }
  })
}

/**
 * One card of the review: its label line and fields, without a question (only an interactive review asks one). A
 * reasoning sentence in `said` was said once for several cards (see sharedReasoning), so this card leaves it out.
 */
export function renderEntry(
  e: ReviewEntry,
  language: ReviewLanguage,
  format: ReviewFormat,
  said: ReadonlySet<string> = new Set(),
): string {
  const t = T[language]
  const md = format === 'markdown'
  // Every card-supplied string goes through v: in markdown, a word as it is and anything else in a
  // code span, where GitHub renders no link, image, HTML or mention.
  const v = md ? inert : (text: string) => text
  const module = e.scope.module_path && `${t.module} ${v(e.scope.module_path)}`
  const keys = e.scope.project_key === null ? [] : [e.scope.project_key].flat()
  const scope = [v(e.scope.level), keys.map(v).join(', '), module].filter(Boolean).join(' ')
  // cairn's own sentence names the id in a command to copy; an id that is not a plain slug is left out of it.
  const derivedFor = md ? markdownText(t.derived(inert(e.id) === e.id ? e.id : '<id>')) : t.derived(e.id)
  return [
    `${md ? '## ' : ''}C${e.n} [type=${v(e.type)}] [layer=${e.layer}] [load=${v(e.load)}] ` +
      `[relevance_scope=${e.relevance_scope}] slug=${v(e.id)}`,
    `${t.title}${t.sep}${v(e.title)}`,
    `${t.summary}${t.sep}${v(e.summary)}`,
    ...ruleLines(e, t, format),
    ...(e.reason ? [`${t.reason}${t.sep}${v(e.reason)}`] : []),
    ...(e.proposed ? [`${t.proposed}${t.sep}${v(e.proposed)}`] : []),
    ...(e.supersedes ? [`supersedes: ${v(JSON.stringify(e.supersedes))} — ${t.supersedes}`] : []),
    ...(e.near ?? []).map(n => nearLine(n, e.id, t, v)),
    ...(e.steering ?? []).map(h => `${t.steers}${t.sep}${v(h.field)}: ${h.kind} (${h.fingerprint}) — ${t.steersFix}`),
    `${t.scope}${t.sep}${scope}`,
    ...(said.has(e.layer_reasoning) ? [] : [`${t.layerWhy}${t.sep}${e.layer_reasoning}`]),
    ...(said.has(e.scope_reasoning) ? [] : [`${t.scopeWhy}${t.sep}${e.scope_reasoning}`]),
    `relevance_paths: ${v(JSON.stringify(e.relevance_paths))}`,
    // A must + high card can stop an agent's write; every phrase here decides when the card appears.
    `recall: policy=${v(e.recall.policy)} risk=${v(e.recall.risk)}`,
    ...phrases(e, v),
    ...(e.derived_triggers.length
      ? [`derived_triggers: ${v(JSON.stringify(e.derived_triggers))} — ${derivedFor}`]
      : []),
    ...(e.superseded_by ? [`superseded_by: ${v(e.superseded_by)} — ${t.superseded}`] : []),
    ...(e.retired ? [`status: ${e.retired} — ${t.retired(e.retired)}`] : []),
    `pending_path: ${v(e.pending_path)}`,
  ].join('\n')
}

/** The review shows a rule's first lines, each cut at a length a terminal or a comment can hold. */
export const RULE_LINES = 12
export const RULE_LINE_CHARS = 200

/**
 * The rule as the review shows it: on the Rule line when it is one line, else its first RULE_LINES lines below it
 * (indented in text, a code block in markdown, where nothing in it renders), and how many lines are left out.
 */
function ruleLines(e: ReviewEntry, t: (typeof T)['en'], format: ReviewFormat): string[] {
  if (e.rule === null) return []
  const md = format === 'markdown'
  const head = `${t.rule}${t.sep}`
  if (e.rule.trim() === e.summary.trim()) return [`${head}${t.ruleIsSummary}`]
  const all = e.rule.replace(/^\s*\n|\s+$/g, '').split('\n')
  let cut = false
  const shown = all.slice(0, RULE_LINES).map(line => {
    const chars = [...line.replace(/\s+$/, '')]
    cut ||= chars.length > RULE_LINE_CHARS
    return chars.length > RULE_LINE_CHARS ? `${chars.slice(0, RULE_LINE_CHARS - 1).join('')}…` : chars.join('')
  })
  const left = all.length - shown.length
  // cairn's own sentence names the id in a command to copy; an id that is not a plain slug is left out of it.
  const more =
    left || cut
      ? [md ? markdownText(t.ruleMore(left, inert(e.id) === e.id ? e.id : '<id>')) : t.ruleMore(left, e.id)]
      : []
  if (all.length === 1) return [`${head}${md ? inert(shown[0].trim()) : shown[0].trim()}`, ...more]
  return [head.trimEnd(), ...(md ? [fence(shown.join('\n'))] : shown.map(l => `  ${l}`)), ...more]
}

/** A near duplicate or a contradiction, with what to do about it. */
function nearLine(n: NearCard, id: string, t: (typeof T)['en'], v: (text: string) => string): string {
  const shared = n.shared.length ? `${t.sharedPhrases} ${v(JSON.stringify(n.shared))}` : ''
  const what = `${v(n.id)} (${t.overlap} ${n.overlap}${shared ? `; ${shared}` : ''})`
  return n.contradicts
    ? `${t.contradicts}${t.sep}${what} — ${t.contradictsFix}`
    : `${t.nearDuplicate}${t.sep}${what} — ${t.nearFix(id, n.id)}`
}

/** The card's own recall phrases, one line per field that has any. */
function phrases(e: ReviewEntry, v: (text: string) => string): string[] {
  const fields: [string, string[]][] = [
    ['triggers', e.recall.triggers],
    ['aliases', e.recall.aliases],
    ['use_when', e.criteria.use_when],
    ['ignore_when', e.criteria.ignore_when],
  ]
  return fields.filter(([, list]) => list.length).map(([name, list]) => `${name}: ${v(JSON.stringify(list))}`)
}

/** A layer or scope reasoning sentence, and whether it is about the layer or the scope. */
export interface Reasoning {
  about: 'layer' | 'scope'
  text: string
}

/**
 * The reasoning sentences two or more entries share, in the order they first appear: a review of many cards (the
 * pull-request comment) says each once, and each card keeps only its own.
 */
export function sharedReasoning(entries: ReviewEntry[]): Reasoning[] {
  const seen = new Map<string, {about: Reasoning['about']; count: number}>()
  for (const e of entries) {
    for (const [about, text] of [
      ['layer', e.layer_reasoning],
      ['scope', e.scope_reasoning],
    ] as const) {
      const known = seen.get(text)
      if (known) known.count++
      else seen.set(text, {about, count: 1})
    }
  }
  return [...seen].filter(([, r]) => r.count > 1).map(([text, r]) => ({about: r.about, text}))
}

/** The shared reasoning, said once: a lead line and one line per sentence, labelled as each card would label it. */
export function renderSharedReasoning(shared: Reasoning[], language: ReviewLanguage): string {
  if (shared.length === 0) return ''
  const t = T[language]
  const label = (r: Reasoning) => (r.about === 'layer' ? t.layerWhy : t.scopeWhy)
  return [t.sharedLead, ...shared.map(r => `- ${label(r)}${t.sep}${r.text}`)].join('\n')
}

export const reviewHeading = (n: number, language: ReviewLanguage): string => T[language].heading(n)
export const noPendingCards = (language: ReviewLanguage): string => T[language].none

/**
 * Pending cards that do not parse, one line per problem (file, what is wrong, the fix), after a line saying they are
 * left out of the review; nothing when every card parsed.
 */
export function renderUnreadable(issues: Issue[], language: ReviewLanguage, format: ReviewFormat): string {
  if (issues.length === 0) return ''
  const files = new Set(issues.map(i => i.file)).size
  const line = (i: Issue) => `- ${format === 'markdown' ? codeSpan(formatIssue(i)) : formatIssue(i)}`
  const lead = T[language].unreadable(files)
  return [format === 'markdown' ? markdownText(lead) : lead, ...issues.map(line)].join('\n')
}

/** The whole review, printed: a heading, the cards that cannot be read, one block per card, and the commands that decide. */
export function renderReview(
  entries: ReviewEntry[],
  language: ReviewLanguage,
  format: ReviewFormat,
  unreadable: Issue[] = [],
): string {
  const t = T[language]
  const md = format === 'markdown'
  const broken = renderUnreadable(unreadable, language, format)
  if (entries.length === 0) return broken ? `${t.none}\n\n${broken}` : t.none
  const out = [`${md ? '# ' : ''}${t.heading(entries.length)}`, '']
  if (broken) out.push(broken, '')
  for (const e of entries) out.push(renderEntry(e, language, format), '')
  out.push(md ? markdownText(t.actions) : t.actions)
  return out.join('\n')
}
