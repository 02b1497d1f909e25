import type {Catalog} from './language.js'

/** `cairn search`'s words: its summary line, its refusals and the warning when rg is missing (cli/render-search.ts). */
const en = {
  noMatch: (pattern: string, board: boolean) => `No card${board ? ' or board record' : ''} matched "${pattern}".`,
  summary: (lines: number, files: number, board: boolean) =>
    `${lines} matching line(s) in ${files} ${board ? 'card(s) and board record(s)' : 'card(s)'}.`,
  boardRecord: 'board record',
  store: (kind: string) => (kind.startsWith('org:') ? `org layer ${kind.slice(4)}` : `${kind} store`),
  emptyPattern:
    'The search pattern is empty, and an empty pattern matches every line. Fix: give the text or regular expression to look for',
  lineBreak: (pattern: string) =>
    `The search pattern "${pattern}" holds a line break, but the search reads one line at a time. Fix: search for each line on its own`,
  lineEnd: (pattern: string, escape: string) =>
    `The search pattern "${pattern}" asks for ${escape}, a line break or NUL character, but the search reads one line of text at a time. Fix: search for the text on each side of it on its own`,
  ripgrepOff: (value: string) =>
    `CAIRN_RG is "${value}", which names no ripgrep binary, so cairn searched in Node, which is slower; the hits are the same. ` +
    'Fix: unset CAIRN_RG to use the ripgrep that comes with cairn, or set it to the path of an rg binary.',
  refusedByRipgrep: (pattern: string, reason: string) =>
    `The pattern "${pattern}" is not one ripgrep accepts: ${reason}. ` +
    'Fix: put a backslash before each special character to search for it as it is, or pass --fixed-strings',
  refusedInNode: (pattern: string, reason: string) =>
    `The search without ripgrep cannot run the pattern "${pattern}": ${reason}. ` +
    'Fix: rewrite the pattern without it, or pass --fixed-strings to search for the text as it is; ' +
    'with ripgrep installed, cairn runs every pattern ripgrep takes',
  tooLong: (seconds: number) =>
    `The search ran longer than ${seconds} s and was stopped. Fix: narrow it with --state or --type, or give a more specific pattern`,
  tooMuch:
    'The search matched too much text to report. Fix: narrow it with --state or --type, or give a more specific pattern',
  noRipgrep: (platform: string) =>
    `There is no ripgrep binary for this platform (${platform}), so cairn searched in Node, which is slower; ` +
    `the hits are the same. Fix: reinstall cairn so npm installs its optional package @vscode/ripgrep-${platform}.`,
}

const zh: typeof en = {
  noMatch: (pattern, board) => `没有${board ? '卡片或看板记录' : '卡片'}匹配 "${pattern}"。`,
  summary: (lines, files, board) => `${files} 个${board ? '卡片或看板记录' : '卡片'}中有 ${lines} 行匹配。`,
  boardRecord: '看板记录',
  store: kind => (kind.startsWith('org:') ? `组织层 ${kind.slice(4)}` : kind === 'personal' ? '个人存储' : '项目存储'),
  emptyPattern: '搜索模式为空，而空模式匹配每一行。修复：给出要查找的文本或正则表达式',
  lineBreak: pattern => `搜索模式 "${pattern}" 含有换行，但搜索逐行进行。修复：每一行分开搜索`,
  lineEnd: (pattern, escape) =>
    `搜索模式 "${pattern}" 要查找 ${escape}，即换行或 NUL 字符，但搜索逐行读取文本。修复：把它两侧的文本分开搜索`,
  ripgrepOff: value =>
    `CAIRN_RG 为 "${value}"，没有指向 ripgrep 程序，cairn 改在 Node 中搜索，速度较慢，结果相同。` +
    '修复：取消设置 CAIRN_RG 以使用 cairn 自带的 ripgrep，或者把它设为 rg 程序的路径。',
  refusedByRipgrep: (pattern, reason) =>
    `模式 "${pattern}" 不是 ripgrep 接受的模式：${reason}。修复：在每个特殊字符前加反斜杠以按原样搜索它，或者使用 --fixed-strings`,
  refusedInNode: (pattern, reason) =>
    `没有 ripgrep 时无法运行模式 "${pattern}"：${reason}。` +
    '修复：改写模式去掉这部分，或者使用 --fixed-strings 按原样搜索文本；装有 ripgrep 时，cairn 能运行 ripgrep 接受的所有模式',
  tooLong: seconds => `搜索运行超过 ${seconds} 秒，已停止。修复：用 --state 或 --type 缩小范围，或者给出更具体的模式`,
  tooMuch: '搜索匹配的文本太多，无法报告。修复：用 --state 或 --type 缩小范围，或者给出更具体的模式',
  noRipgrep: platform =>
    `此平台（${platform}）没有 ripgrep 程序，cairn 改在 Node 中搜索，速度较慢，结果相同。` +
    `修复：重新安装 cairn，让 npm 装上可选包 @vscode/ripgrep-${platform}。`,
}

export const SEARCH_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
