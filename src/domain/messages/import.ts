import type {Catalog} from './language.js'

/** What an import writes into the cards it proposes (a card's proposed reason, an OME card's evidence line). */
export type ImportNote = {kind: 'adr'; status: string; successorMissing: boolean} | {kind: 'kiro'; inclusion: string}

const en = {
  reason: (path: string, line: number, kind: string, note: string) =>
    `imported from ${path} line ${line} (cairn import ${kind})${note ? `; ${note}` : ''}`,
  note: (n: ImportNote) =>
    n.kind === 'kiro'
      ? `Kiro inclusion: ${n.inclusion} (not a mode cairn knows; imported as a recall card, check it in review)`
      : n.successorMissing
        ? `ADR status: ${n.status} (no linked successor)`
        : `ADR status: ${n.status}`,
  omeReason: (file: string) => `imported from OME (${file})`,
  omeEvidence: (file: string) => `- imported from OME: ${file}`,
}

const zh: typeof en = {
  reason: (path, line, kind, note) => `导入自 ${path} 第 ${line} 行（cairn import ${kind}）${note ? `；${note}` : ''}`,
  note: n =>
    n.kind === 'kiro'
      ? `Kiro inclusion：${n.inclusion}（cairn 不认识这种模式；已作为 recall 卡片导入，请在评审时检查）`
      : n.successorMissing
        ? `ADR 状态：${n.status}（没有链接的后继）`
        : `ADR 状态：${n.status}`,
  omeReason: file => `导入自 OME（${file}）`,
  omeEvidence: file => `- 导入自 OME：${file}`,
}

export const IMPORT_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
