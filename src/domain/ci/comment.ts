import {codeSpan} from '../markdown.js'
import {
  type ReviewEntry,
  type ReviewLanguage,
  renderEntry,
  renderSharedReasoning,
  reviewHeading,
  sharedReasoning,
} from '../review.js'
import type {SettingsChange} from './settings.js'
import type {FieldChange} from '../enrich.js'
import type {CardChanges} from '../org.js'

/** The sticky pull-request comment of `cairn ci review`: the check result, the review, how to decide. */

export const COMMENT_MARKER = '<!-- cairn:review -->'
/**
 * The second line: the pull request's head commit the review shows. cairn-approve.yml reads it and
 * acts on that commit only, so a /cairn command decides what its author saw.
 */
export const headMarker = (sha: string): string => `<!-- cairn:head ${sha} -->`
export const isCommitSha = (text: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text)
/** GitHub refuses a comment over 65,536 characters; the rest is headroom. */
export const COMMENT_MAX = 65_000
const MAX_PROBLEMS = 50
const MAX_PROBLEM_CHARS = 400
const MAX_SETTING_CHANGES = 20
const MAX_SETTING_CHARS = 100

const T = {
  en: {
    heading: '## cairn: cards in this pull request',
    passed: '✅ **Check passed.**',
    failed: (n: number) => `❌ **Check failed** (${n} problem${n === 1 ? '' : 's'}):`,
    moreProblems: (n: number) => `…and ${n} more; run \`cairn lint\` locally to see them all.`,
    none: 'No pending card was added by this pull request.',
    approveThis: 'To approve this card, comment:',
    moreCards: (n: number) =>
      `…and ${n} more card${n === 1 ? '' : 's'} not shown here; run \`cairn review\` locally to see them all.`,
    how: '### How to decide',
    approve:
      'Approve: comment `/cairn approve <id>` (several ids allowed), or `/cairn approve all` for every card without a decision.',
    reject: 'Reject: comment `/cairn reject <id> <reason>`.',
    defer: 'Defer: comment `/cairn defer <id> <YYYY-MM-DD>`; the card stays pending, hidden from review until then.',
    modify: 'Modify: locally, run `cairn review modify <id> --set <field>=<value>`, then push.',
    undecided: (id: string) => `${id}: no decision yet (review.require_decision is on): approve, reject or defer it`,
    settings: '### ⚠️ Settings this pull request changes',
    settingsLead: (base: string) =>
      `The check above follows the settings on ${base}; these changes take effect only once merged.`,
    notSet: 'not set',
    notYaml: 'not valid YAML on one side, so the settings that changed cannot be listed.',
    layoutOnly: 'comments or layout only; no setting changed.',
    moreSettings: (n: number) => `…and ${n} more.`,
    recall: '### Recall phrases this pull request changes on active cards',
    recallLead:
      'Prompts that hold these phrases will bring the card up (or no longer will); check they are what a colleague would type.',
    moreRecall: (n: number) =>
      `…and ${n} more card${n === 1 ? '' : 's'}; run \`git diff\` on \`.cairn/cards\` to see them all.`,
    stale: '### Cards this change may make stale',
    staleLead:
      'These active cards cite files or symbols this pull request deletes, renames or rewrites. For each, comment one of:',
    staleVerify: 'still true (a renamed file is then cited by its new name)',
    staleModify: 'needs a change',
    staleArchive: 'no longer applies',
    moreStale: (n: number) =>
      `…and ${n} more card${n === 1 ? '' : 's'}; run \`cairn stale --since <base>\` to see them all.`,
    staleProblem: (id: string, why: string) =>
      `${id}: may be stale (${why}); verify, modify or archive it (review.require_fresh is on)`,
    org: '### Org layers this pull request moves',
    orgLead:
      "Once merged, the project reads these org stores at the new commit. Their cards were reviewed in the org's own repository; these are the active cards each change brings.",
    orgMoved: (name: string, from: string, to: string, ref: string) => `${name}: ${from} → ${to} (${ref})`,
    orgAdded: (name: string, to: string, ref: string) => `${name}: subscribed at ${to} (${ref})`,
    orgRemoved: (name: string, from: string) => `${name}: unsubscribed (was at ${from})`,
    orgCards: {added: 'added', changed: 'changed', removed: 'removed'},
    orgIds: (kind: string, ids: string) => `${kind}: ${ids}`,
    orgNone: 'no active card changed',
    orgUnknown: 'the cards cannot be listed: the cache has not got both commits, and the remote could not give them',
    moreIds: (n: number) => `…${n} more`,
    moreOrg: (n: number) =>
      `…and ${n} more layer${n === 1 ? '' : 's'}; run \`git log -p .cairn/config.yaml\` to see them all.`,
  },
  'zh-CN': {
    heading: '## cairn：本拉取请求中的卡片',
    passed: '✅ **检查通过。**',
    failed: (n: number) => `❌ **检查未通过**（${n} 个问题）：`,
    moreProblems: (n: number) => `……另有 ${n} 个问题；请在本地运行 \`cairn lint\` 查看全部。`,
    none: '本拉取请求没有新增待审卡片。',
    approveThis: '批准这张卡片，请评论：',
    moreCards: (n: number) => `……另有 ${n} 张卡片未在此显示；请在本地运行 \`cairn review\` 查看全部。`,
    how: '### 如何决定',
    approve: '批准：评论 `/cairn approve <id>`（可写多个 id），或评论 `/cairn approve all` 批准所有尚无决定的卡片。',
    reject: '拒绝：评论 `/cairn reject <id> <原因>`。',
    defer: '推迟：评论 `/cairn defer <id> <YYYY-MM-DD>`；卡片保持待审，在该日期前不出现在评审中。',
    modify: '修改：在本地运行 `cairn review modify <id> --set <字段>=<值>`，然后推送。',
    undecided: (id: string) => `${id}：尚无决定（review.require_decision 已开启）：请批准、拒绝或推迟它`,
    settings: '### ⚠️ 本拉取请求修改的设置',
    settingsLead: (base: string) => `上面的检查遵循 ${base} 上的设置；这些修改合并后才生效。`,
    notSet: '未设置',
    notYaml: '其中一方不是有效的 YAML，无法列出改动的设置。',
    layoutOnly: '只改了注释或排版，没有设置改变。',
    moreSettings: (n: number) => `……另有 ${n} 项。`,
    recall: '### 本拉取请求修改的活动卡片召回短语',
    recallLead: '包含这些短语的提示词会召回（或不再召回）这张卡片；请确认它们是同事真会输入的话。',
    moreRecall: (n: number) => `……另有 ${n} 张卡片；请对 \`.cairn/cards\` 运行 \`git diff\` 查看全部。`,
    stale: '### 本次修改可能让这些卡片过时',
    staleLead: '这些活动卡片引用了本拉取请求删除、改名或大幅改写的文件或符号。请对每张卡片评论其一：',
    staleVerify: '仍然正确（改名的文件随之记为新名）',
    staleModify: '需要修改',
    staleArchive: '不再适用',
    moreStale: (n: number) => `……另有 ${n} 张卡片；请运行 \`cairn stale --since <base>\` 查看全部。`,
    staleProblem: (id: string, why: string) =>
      `${id}：可能已过时（${why}）；请确认、修改或归档它（review.require_fresh 已开启）`,
    org: '### 本拉取请求移动的组织层',
    orgLead:
      '合并后，项目会在新的提交上读取这些组织仓库。它们的卡片已在组织自己的仓库中评审；下面是每次改动带来的活动卡片。',
    orgMoved: (name: string, from: string, to: string, ref: string) => `${name}：${from} → ${to}（${ref}）`,
    orgAdded: (name: string, to: string, ref: string) => `${name}：订阅于 ${to}（${ref}）`,
    orgRemoved: (name: string, from: string) => `${name}：取消订阅（原在 ${from}）`,
    orgCards: {added: '新增', changed: '修改', removed: '删除'},
    orgIds: (kind: string, ids: string) => `${kind}：${ids}`,
    orgNone: '没有活动卡片改变',
    orgUnknown: '无法列出卡片：缓存中没有这两个提交，远程仓库也无法提供',
    moreIds: (n: number) => `……另有 ${n} 张`,
    moreOrg: (n: number) => `……另有 ${n} 个组织层；请运行 \`git log -p .cairn/config.yaml\` 查看全部。`,
  },
}

/** The check problem for a card the change may make stale, with review.require_fresh, in the review's language. */
export const staleProblem = (id: string, why: string[], language: ReviewLanguage): string =>
  T[language].staleProblem(id, why.join('; '))

/** The check problem for a pending card with no decision, in the review's language. */
export const undecidedProblem = (id: string, language: ReviewLanguage): string => T[language].undecided(id)

/** A command to copy, in a code span: whatever the id holds, it renders as text. */
const command = codeSpan

const clip = (text: string, max: number): string =>
  [...text].length > max ? `${[...text].slice(0, max - 3).join('')}...` : text

/** A block's first line is cairn's own heading: two levels down, under the comment's heading. Card text is left as it is. */
const demote = (block: string): string => block.replace(/^#{1,4} /, h => `##${h}`)

export interface CommentInput {
  language: ReviewLanguage
  /** Plain text; each shown in a code span, as it may quote a card or a file name. */
  problems: string[]
  entries: ReviewEntry[]
  /** The head commit the review shows, recorded in the comment's second line. */
  head?: string | null
  /** The ref the check's settings come from, and the settings files the pull request changes. */
  settings?: {base: string; changes: SettingsChange[]}
  /** The recall phrases the pull request changes on active cards. */
  recall?: {id: string; fields: FieldChange[]}[]
  /** Active cards the pull request may make stale: why (sentences), and for a rename the new name to cite. */
  stale?: {id: string; title: string; why: string[]}[]
  /** The org layers whose pin the pull request adds, moves or removes, and the active cards each change brings. */
  org?: OrgPinChangeView[]
  max?: number
}

/** One org pin change as the comment shows it (app/org.ts orgPinChanges). */
export interface OrgPinChangeView {
  name: string
  ref: string
  from: string | null
  to: string | null
  changes: CardChanges | null
}

/** The settings the pull request changes, marked as not obeyed; values and keys are the pull request's text. */
function settingsSection(t: (typeof T)['en'], settings: CommentInput['settings']): string[] {
  if (!settings?.changes.length) return []
  const value = (v: string | null) => (v === null ? t.notSet : codeSpan(clip(v, MAX_SETTING_CHARS)))
  const out = [t.settings, '', t.settingsLead(codeSpan(settings.base)), '']
  for (const {file, changes} of settings.changes) {
    if (!changes?.length) {
      out.push(`- ${codeSpan(file)}: ${changes ? t.layoutOnly : t.notYaml}`)
      continue
    }
    out.push(`- ${codeSpan(file)}:`)
    for (const c of changes.slice(0, MAX_SETTING_CHANGES)) {
      out.push(`  - ${codeSpan(clip(c.key, MAX_SETTING_CHARS))}: ${value(c.before)} → ${value(c.after)}`)
    }
    if (changes.length > MAX_SETTING_CHANGES) out.push(`  - ${t.moreSettings(changes.length - MAX_SETTING_CHANGES)}`)
  }
  return [...out, '']
}

/** The recall section's share of the comment: the pending cards below keep the rest. */
const RECALL_BUDGET = 16_000
const MAX_PHRASES_SHOWN = 12

/** Each active card's changed phrases, added (+) and removed (−), as code spans: they are the pull request's text. */
function recallSection(t: (typeof T)['en'], recall: CommentInput['recall']): string[] {
  if (!recall?.length) return []
  const entries = recall.map(c => {
    const lines = [`- ${codeSpan(c.id)}:`]
    for (const f of c.fields) {
      const marks = [
        ...f.added.map(p => `+ ${codeSpan(clip(p, MAX_SETTING_CHARS))}`),
        ...f.removed.map(p => `− ${codeSpan(clip(p, MAX_SETTING_CHARS))}`),
      ]
      const more = marks.length > MAX_PHRASES_SHOWN ? [`…${marks.length - MAX_PHRASES_SHOWN}`] : []
      lines.push(`  - ${f.field}: ${[...marks.slice(0, MAX_PHRASES_SHOWN), ...more].join(', ')}`)
    }
    return lines
  })
  return [t.recall, '', t.recallLead, '', ...budgeted(entries, RECALL_BUDGET, t.moreRecall), '']
}

/** Entries (each a group of lines) while they fit the budget, then a line saying how many were left out. */
function budgeted(entries: string[][], budget: number, more: (n: number) => string): string[] {
  const out: string[] = []
  let used = 0
  let shown = 0
  for (const lines of entries) {
    const size = lines.join('\n').length + 1
    if (used + size > budget) break
    out.push(...lines)
    used += size
    shown++
  }
  return shown < entries.length ? [...out, `- ${more(entries.length - shown)}`] : out
}

const STALE_BUDGET = 12_000

/** Each card the change may make stale, why, and the three comments that settle it. */
function staleSection(t: (typeof T)['en'], stale: CommentInput['stale']): string[] {
  if (!stale?.length) return []
  const entries = stale.map(c => {
    // Still true after a rename: /cairn verify records the new name in every field that cites it.
    const modify = `/cairn modify ${c.id} <field>=<value>`
    return [
      `- ${codeSpan(c.id)}: ${codeSpan(clip(c.title, MAX_PROBLEM_CHARS))}`,
      ...c.why.map(w => `  - ${codeSpan(clip(w, MAX_PROBLEM_CHARS))}`),
      `  - ${t.staleVerify}: ${command(`/cairn verify ${c.id}`)} · ${t.staleModify}: ${command(clip(modify, MAX_PROBLEM_CHARS))} · ${t.staleArchive}: ${command(`/cairn archive ${c.id}`)}`,
    ]
  })
  return [t.stale, '', t.staleLead, '', ...budgeted(entries, STALE_BUDGET, t.moreStale), '']
}

const ORG_BUDGET = 12_000
const MAX_IDS_SHOWN = 30

/** Each org layer the pull request moves: old and new commit, then the cards added, changed and removed. */
function orgSection(t: (typeof T)['en'], org: CommentInput['org']): string[] {
  if (!org?.length) return []
  const short = (c: string) => codeSpan(c.slice(0, 12))
  const entries = org.map(o => {
    const name = codeSpan(o.name)
    const ref = codeSpan(clip(o.ref, MAX_SETTING_CHARS))
    const head =
      o.from && o.to
        ? t.orgMoved(name, short(o.from), short(o.to), ref)
        : o.to
          ? t.orgAdded(name, short(o.to), ref)
          : t.orgRemoved(name, short(o.from ?? ''))
    if (!o.changes) return [`- ${head}`, `  - ${t.orgUnknown}`]
    const lists = (['added', 'changed', 'removed'] as const).flatMap(kind => {
      const ids = o.changes![kind]
      if (!ids.length) return []
      const more = ids.length > MAX_IDS_SHOWN ? [t.moreIds(ids.length - MAX_IDS_SHOWN)] : []
      return [`  - ${t.orgIds(t.orgCards[kind], [...ids.slice(0, MAX_IDS_SHOWN).map(codeSpan), ...more].join(', '))}`]
    })
    return [`- ${head}`, ...(lists.length ? lists : [`  - ${t.orgNone}`])]
  })
  return [t.org, '', t.orgLead, '', ...budgeted(entries, ORG_BUDGET, t.moreOrg), '']
}

export function renderComment(input: CommentInput): string {
  const t = T[input.language]
  const max = input.max ?? COMMENT_MAX
  const head = [
    COMMENT_MARKER,
    ...(input.head && isCommitSha(input.head) ? [headMarker(input.head)] : []),
    t.heading,
    '',
  ]
  if (input.problems.length === 0) head.push(t.passed)
  else {
    head.push(t.failed(input.problems.length), '')
    for (const p of input.problems.slice(0, MAX_PROBLEMS)) head.push(`- ${codeSpan(clip(p, MAX_PROBLEM_CHARS))}`)
    if (input.problems.length > MAX_PROBLEMS) head.push(`- ${t.moreProblems(input.problems.length - MAX_PROBLEMS)}`)
  }
  head.push(
    '',
    ...settingsSection(t, input.settings),
    ...recallSection(t, input.recall),
    ...staleSection(t, input.stale),
    ...orgSection(t, input.org),
  )
  if (input.entries.length === 0) return [...head, t.none, ''].join('\n')

  // The markdown review's heading, the reasoning several cards share (said once), and one block per card with only
  // what is its own; the "How to decide" section stands for the review's local-CLI actions.
  const shared = sharedReasoning(input.entries)
  const said = new Set(shared.map(r => r.text))
  const cards = input.entries.map(
    e =>
      `${demote(renderEntry(e, input.language, 'markdown', said))}\n${t.approveThis} ${command(`/cairn approve ${e.id}`)}`,
  )
  const foot = ['', t.how, '', `- ${t.approve}`, `- ${t.reject}`, `- ${t.defer}`, `- ${t.modify}`, '']
  const note = renderSharedReasoning(shared, input.language)
  const heading = demote(`# ${reviewHeading(input.entries.length, input.language)}`)
  const fixed = [...head, heading, '', ...(note ? [note, ''] : []), ''].join('\n')
  const tail = foot.join('\n')
  const shown: string[] = []
  let used = fixed.length + tail.length
  for (const [i, c] of cards.entries()) {
    const reserve = i + 1 < cards.length ? t.moreCards(cards.length).length + 2 : 0
    if (used + c.length + 2 + reserve > max) break
    shown.push(c)
    used += c.length + 2
  }
  const more = cards.length - shown.length
  return `${fixed}${[...shown, ...(more ? [t.moreCards(more)] : [])].join('\n\n')}\n${tail}`
}
