import type {ReviewLanguage} from './review.js'

/** The words of the interactive review (one card at a time, like `git add -p`), in en or zh-CN. */

export const REVIEW_ACTIONS = ['approve', 'reject', 'modify', 'defer', 'skip', 'quit'] as const
export type ReviewAction = (typeof REVIEW_ACTIONS)[number]

/** The key that picks each action; h is the prompt's own help key. */
export const ACTION_KEYS: Record<ReviewAction, string> = {
  approve: 'a',
  reject: 'r',
  modify: 'm',
  defer: 'd',
  skip: 's',
  quit: 'q',
}

export interface SessionCounts {
  approved: number
  rejected: number
  deferred: number
  modified: number
  skipped: number
}

const commit = (sha: string | null, none: string): string => (sha ? sha.slice(0, 7) : none)

/** The keys and their actions on one line, each key in brackets: [a]pprove [r]eject ... */
const legend = (words: Record<ReviewAction, string>): string =>
  REVIEW_ACTIONS.map(a => {
    const key = ACTION_KEYS[a]
    return words[a].startsWith(key) ? `[${key}]${words[a].slice(key.length)}` : `[${key}]${words[a]}`
  }).join(' ')

const WORDS = {
  en: {approve: 'approve', reject: 'reject', modify: 'modify', defer: 'defer', skip: 'skip', quit: 'quit'},
  'zh-CN': {approve: '批准', reject: '拒绝', modify: '修改', defer: '推迟', skip: '跳过', quit: '退出'},
} satisfies Record<ReviewLanguage, Record<ReviewAction, string>>

const T = {
  en: {
    action: (n: number, total: number, id: string) =>
      `C${n}/${total} ${id}: ${legend(WORDS.en)} — type a key, then Enter:`,
    choices: {
      approve: 'approve: make it active and move it to cards/',
      reject: 'reject: remove it, with the reason in the commit message',
      modify: 'modify: change one field, then decide again',
      defer: 'defer: hide it from review until a date',
      skip: 'skip: leave it pending for now',
      quit: 'quit: stop here; what is done stays committed',
    } satisfies Record<ReviewAction, string>,
    reason: 'Reason for rejecting (it goes into the commit message):',
    reasonEmpty: 'Give a reason: it goes into the commit message, so the card can be found again.',
    field: 'Which field?',
    value: (field: string, now?: string, list?: boolean) =>
      `New value of ${field}${list ? ', comma-separated' : ''}${now ? ` (now ${now})` : ''}:`,
    date: 'Defer until (YYYY-MM-DD):',
    notADate: 'Not a date: type it as YYYY-MM-DD, such as 2026-12-31.',
    pastDate: (now: string) => `That date is already past (now is ${now}): give a later one.`,
    approved: (id: string, to: string, sha: string | null) => `Approved ${id}: ${to} (commit ${commit(sha, 'none')}).`,
    rejected: (id: string, sha: string | null) =>
      `Rejected ${id}: removed; the reason is in commit ${commit(sha, 'none')}.`,
    deferred: (id: string, until: string, sha: string | null) =>
      `Deferred ${id} until ${until} (commit ${commit(sha, 'none')}).`,
    modified: (id: string, fields: string, sha: string | null) =>
      `Modified ${id} (${fields}) (commit ${commit(sha, 'none')}).`,
    failed: (message: string) => `Not done: ${message}`,
    gone: (id: string) => `${id} is no longer in this review; going on to the next card.`,
    summary: (c: SessionCounts) =>
      `Approved ${c.approved}, rejected ${c.rejected}, deferred ${c.deferred}, modified ${c.modified}, ` +
      `skipped ${c.skipped}.`,
    left: (n: number) =>
      `${n} card${n === 1 ? '' : 's'} left for later: run "cairn review" again to decide ${n === 1 ? 'it' : 'them'}.`,
  },
  'zh-CN': {
    action: (n: number, total: number, id: string) =>
      `C${n}/${total} ${id}：${legend(WORDS['zh-CN'])} — 输入字母后按回车：`,
    choices: {
      approve: '批准：设为生效并移入 cards/',
      reject: '拒绝：删除卡片，原因写入提交信息',
      modify: '修改：改一个字段，然后重新决定',
      defer: '推迟：在某个日期之前不出现在评审中',
      skip: '跳过：暂时保留为待审',
      quit: '退出：到此为止，已完成的操作都已提交',
    } satisfies Record<ReviewAction, string>,
    reason: '拒绝原因（写入提交信息）：',
    reasonEmpty: '请填写原因：它会写入提交信息，以便日后找回这张卡片。',
    field: '修改哪个字段？',
    value: (field: string, now?: string, list?: boolean) =>
      `${field} 的新值${list ? '，多个用逗号分隔' : ''}${now ? `（当前 ${now}）` : ''}：`,
    date: '推迟到（YYYY-MM-DD）：',
    notADate: '这不是日期：请按 YYYY-MM-DD 输入，例如 2026-12-31。',
    pastDate: (now: string) => `这个日期已经过去（现在是 ${now}）：请给出更晚的日期。`,
    approved: (id: string, to: string, sha: string | null) => `已批准 ${id}：${to}（提交 ${commit(sha, '无')}）。`,
    rejected: (id: string, sha: string | null) => `已拒绝 ${id}：卡片已删除，原因记录在提交 ${commit(sha, '无')} 中。`,
    deferred: (id: string, until: string, sha: string | null) =>
      `已推迟 ${id} 至 ${until}（提交 ${commit(sha, '无')}）。`,
    modified: (id: string, fields: string, sha: string | null) =>
      `已修改 ${id}（${fields}）（提交 ${commit(sha, '无')}）。`,
    failed: (message: string) => `未完成：${message}`,
    gone: (id: string) => `${id} 已不在本次评审中；继续下一张。`,
    summary: (c: SessionCounts) =>
      `已批准 ${c.approved}，已拒绝 ${c.rejected}，已推迟 ${c.deferred}，已修改 ${c.modified}，已跳过 ${c.skipped}。`,
    left: (n: number) => `另有 ${n} 张卡片留待以后：再次运行 cairn review 来决定。`,
  },
}

export const sessionText = (language: ReviewLanguage) => T[language]

/** The last lines of a session: what was decided, and how many cards quitting left undecided. */
export function renderSessionSummary(counts: SessionCounts, left: number, language: ReviewLanguage): string {
  const t = T[language]
  return left ? `${t.summary(counts)}\n${t.left(left)}` : t.summary(counts)
}
