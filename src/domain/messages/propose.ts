import type {Catalog} from './language.js'

/** `cairn propose --edit`'s own words (cli/propose-edit.ts); the editor's command and the kept file stay verbatim. */
const en = {
  noEditor: (terminal: boolean) =>
    `No editor for --edit: ${terminal ? 'the terminal is dumb' : 'this is not a terminal'} and neither VISUAL nor ` +
    'EDITOR is set. Fix: set one, or give the card as a FILE',
  aborted: (editor: string, reason: string, kept: string | null) =>
    `Propose aborted: the editor "${editor}" ${reason}; nothing was written.` +
    (kept
      ? ` Your text is kept in ${kept}. Fix: propose it with "cairn propose ${kept}"`
      : ' Fix: run "cairn propose --edit" again'),
  unchanged:
    'Propose aborted: the card was left empty or unchanged; nothing was written. ' +
    'Fix: write the card, save it, then quit the editor',
  kept: (file: string) => `Your card is kept in ${file}: fix it, then run "cairn propose ${file}".`,
  // What propose did (cli/render.ts renderPropose, cli/render-text-changes.ts).
  commit: (store: string, sha: string | null) => `${store} commit: ${sha ?? 'none'}`,
  replaced: (id: string, fields: number) =>
    `The text of ${id} was replaced in ${fields === 1 ? '1 field' : `${fields} fields`}:`,
  keptText: (id: string, merged: boolean, fields: number) =>
    `The pending card ${id} kept its text, and ${merged ? 'only the new evidence was merged' : 'nothing was written'}. ` +
    `The proposal differs in ${fields === 1 ? '1 field' : `${fields} fields`}:`,
  replaceHint: 'To replace the text, propose again with --replace.',
  noValue: '(none)',
}

const zh: typeof en = {
  noEditor: terminal =>
    `--edit 没有可用的编辑器：${terminal ? '终端是 dumb 终端' : '当前不是终端'}，并且 VISUAL 和 EDITOR 都没有设置；` +
    '修复：设置其中一个，或以 FILE 给出卡片',
  aborted: (editor, reason, kept) =>
    `propose 已中止：编辑器 "${editor}" ${reason}；没有写入任何内容。` +
    (kept
      ? `你的文本保留在 ${kept}。修复：用 "cairn propose ${kept}" 提出它`
      : '修复：再运行一次 "cairn propose --edit"'),
  unchanged: 'propose 已中止：卡片为空或没有改动；没有写入任何内容。修复：写好卡片，保存后退出编辑器',
  kept: file => `你的卡片保留在 ${file}：修改后运行 "cairn propose ${file}"。`,
  commit: (store, sha) => `${store} 提交：${sha ?? '无'}`,
  replaced: (id, fields) => `${id} 的文本已替换，共 ${fields} 个字段：`,
  keptText: (id, merged, fields) =>
    `待评审的卡片 ${id} 保留了原有文本，${merged ? '只合并了新的证据' : '没有写入任何内容'}。` +
    `这次提议有 ${fields} 个字段不同：`,
  replaceHint: '要替换文本，加上 --replace 再提议一次。',
  noValue: '（无）',
}

export const PROPOSE_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
