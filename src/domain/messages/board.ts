import type {Catalog} from './language.js'

/**
 * The board brief (domain/board/brief.ts), which session start gives the agent and `cairn board brief` prints. Item
 * ids, kinds, batch ids, actors, error codes, timestamps and durations (3d 4h) stay verbatim; so does each item's own
 * summary, in the language it was written in.
 */
const s = (n: number) => (n === 1 ? '' : 's')

const en = {
  head: (now: string, event: number, revision: number, checked: string | null) =>
    `Board at ${now}: event ${event}, revision ${revision}, ${checked ? `last checked ${checked}` : 'never checked'}.`,
  empty: 'No active items.',
  overBudget: (by: number) =>
    ` OVER BUDGET by ${by}: branches merged batches that each fitted; lower weights or shares, or withdraw items.`,
  root: (used: number, budget: number, n: number, over: string) =>
    `Root layer: ${used} of ${budget} used by ${n} active item${s(n)}.${over}`,
  under: (parent: string, used: number, budget: number, n: number, over: string) =>
    `Under ${parent}: ${used} of ${budget} used by ${n} item${s(n)}.${over}`,
  item: (id: string, kind: string, weight: number, share: number) =>
    `${id} · ${kind} · weight ${weight} · share ${share}`,
  foldedItem: (id: string, kind: string, weight: number, updated: string, children: number) =>
    `${id} (${kind}, weight ${weight}, updated ${updated}${children ? `, ${children} children` : ''})`,
  folded: (below: number, n: number, share: number, list: string) =>
    `Folded, weight below ${below}: ${n} item${s(n)}, share ${share}: ${list}.`,
  listSep: '; ',
  annotations: (n: number) => `Saved annotations (no acknowledgement yet): ${n}.`,
  retiredItem: (item: string, status: string, successor: string | null) =>
    `${item} (${status}${successor ? `, now ${successor}` : ''})`,
  annotation: (id: string, where: string, when: string, text: string) => `  ${id} on ${where}, ${when}: ${text}`,
  notActive: (item: string, conflict: string) => `${item} (not active): ${conflict}`,
  version: (batch: string, actor: string, weight: number, status: string, summary: string) =>
    `${batch} by ${actor} (weight ${weight}, ${status}: ${summary})`,
  conflict: (versions: string) =>
    `CONFLICT: changed on two branches; versions: ${versions}. Declare it in a batch to resolve.`,
  batchConflict: (batch: string, records: string, fields: string) =>
    `batch_id_conflict: ${batch} was committed on two branches with different content (${records}; differing: ${fields}). ` +
    `Both were applied, in the order shown by "cairn board history --batch ${batch}".`,
  notApplied: (batch: string, error: string, message: string) => `not applied: ${batch} (${error}): ${message}`,
  notMerged: (batch: string, path: string, error: string, message: string) =>
    `not applied after the merge: ${batch} ${path} (${error}): ${message}`,
  ago: (d: string) => `${d} ago`,
  in: (d: string) => `in ${d}`,
  dueIn: (d: string) => `due in ${d}`,
  overdue: (d: string) => `overdue by ${d}`,
  staleIn: (d: string) => `stale in ${d}`,
  staleFor: (d: string) => `stale for ${d}`,
  updated: (when: string) => `updated ${when}`,
}

const zh: typeof en = {
  head: (now, event, revision, checked) =>
    `看板（${now}）：事件 ${event}，修订 ${revision}，${checked ? `上次检查于 ${checked}` : '从未检查'}。`,
  empty: '没有进行中的条目。',
  overBudget: by => ` 超出预算 ${by}：各分支合并的批次各自都没超出；请降低权重或份额，或撤回条目。`,
  root: (used, budget, n, over) => `根层：${n} 个进行中的条目用了 ${budget} 中的 ${used}。${over}`,
  under: (parent, used, budget, n, over) => `${parent} 之下：${n} 个条目用了 ${budget} 中的 ${used}。${over}`,
  item: (id, kind, weight, share) => `${id} · ${kind} · 权重 ${weight} · 份额 ${share}`,
  foldedItem: (id, kind, weight, updated, children) =>
    `${id}（${kind}，权重 ${weight}，${updated}更新${children ? `，${children} 个子条目` : ''}）`,
  folded: (below, n, share, list) => `已折叠，权重低于 ${below}：${n} 个条目，份额 ${share}：${list}。`,
  listSep: '；',
  annotations: n => `已保存的批注（尚未确认）：${n}。`,
  retiredItem: (item, status, successor) => `${item}（${status}${successor ? `，现为 ${successor}` : ''}）`,
  annotation: (id, where, when, text) => `  ${id}，关于 ${where}，${when}：${text}`,
  notActive: (item, conflict) => `${item}（不在进行中）：${conflict}`,
  version: (batch, actor, weight, status, summary) => `${batch}，由 ${actor}（权重 ${weight}，${status}：${summary}）`,
  conflict: versions => `冲突：在两个分支上都被修改；版本：${versions}。在一个批次中声明它来解决。`,
  batchConflict: (batch, records, fields) =>
    `batch_id_conflict：${batch} 在两个分支上以不同内容提交（${records}；不同之处：${fields}）。` +
    `两者都已应用，顺序见 "cairn board history --batch ${batch}"。`,
  notApplied: (batch, error, message) => `未应用：${batch}（${error}）：${message}`,
  notMerged: (batch, path, error, message) => `合并后未应用：${batch} ${path}（${error}）：${message}`,
  ago: d => `${d}前`,
  in: d => `${d}后`,
  dueIn: d => `${d}后到期`,
  overdue: d => `已逾期 ${d}`,
  staleIn: d => `${d}后过时`,
  staleFor: d => `已过时 ${d}`,
  updated: when => `${when}更新`,
}

export const BOARD_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
