import type {Catalog} from './language.js'

/**
 * `cairn recall`'s own words around the light index (cli/render-recall.ts): the answer when no card applies, the
 * frame of --explain, and the warning for a card file the index cannot load. What the matcher says of each card under
 * --explain (its verdict, each gate's detail) is the matcher's diagnostic, in English in every store.
 */
const en = {
  none: 'No card applies (nothing recalled when unsure).',
  considered: (considered: number, total: number) => `Explain: ${considered} card(s) considered of ${total}.`,
  expanded: (list: string) => `Expanded by the lexicon: ${list}`,
  signals: (list: string) => `Signals fired: ${list || 'none'}`,
  mentions: (list: string) => `Mentions (no evidence): ${list}`,
  gate: (pass: boolean): string => (pass ? 'pass' : 'FAIL'),
  admission: (score: number, positive: number, penalty: number, rank: number) =>
    `  admission ${score} = evidence ${positive} - near miss ${penalty} (threshold 0.5); rank (BM25F) ${rank}`,
  how: {exact: 'exact  ', mention: 'mention', lexicon: 'lexicon', partial: 'partial'},
  coverage: (text: string, coverage: number, score: number) => `"${text}" coverage ${coverage} → ${score}`,
  via: (forms: string) => ` via ${forms}`,
  intent: (intents: string, factor: number) => `    intent ${intents}: score × ${factor}`,
  nearMiss: (text: string, coverage: number, score: number) =>
    `    near miss ignore_when "${text}" coverage ${coverage} → -${score}`,
  everyWord: '    every query word is in the card',
  cannotLoad: (path: string, problem: string) =>
    `${path} cannot be loaded, so recall and the hooks leave it out: ${problem}`,
}

const zh: typeof en = {
  none: '没有适用的卡片（不确定时不召回）。',
  considered: (considered, total) => `说明：在 ${total} 张卡片中考察了 ${considered} 张。`,
  expanded: list => `词典扩展：${list}`,
  signals: list => `触发的信号：${list || '无'}`,
  mentions: list => `提及（不算证据）：${list}`,
  gate: pass => (pass ? '通过' : '未通过'),
  admission: (score, positive, penalty, rank) =>
    `  准入 ${score} = 证据 ${positive} - 近似排除 ${penalty}（阈值 0.5）；排名（BM25F）${rank}`,
  how: {exact: '精确', mention: '提及', lexicon: '词典', partial: '部分'},
  coverage: (text, coverage, score) => `"${text}" 覆盖率 ${coverage} → ${score}`,
  via: forms => ` 经由 ${forms}`,
  intent: (intents, factor) => `    意图 ${intents}：得分 × ${factor}`,
  nearMiss: (text, coverage, score) => `    近似排除 ignore_when "${text}" 覆盖率 ${coverage} → -${score}`,
  everyWord: '    查询中的每个词都出现在卡片中',
  cannotLoad: (path, problem) => `${path} 无法加载，recall 和钩子都会略过它：${problem}`,
}

export const RECALL_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
