import {formatIssue} from '../errors.js'
import type {Catalog} from './language.js'

/** `cairn lint`'s lines around each problem (cli/render.ts renderLint); each problem's own words: messages/issues.ts. */
const en = {
  severity: {error: 'error  ', warning: 'warning'},
  problem: (file: string, field: string, message: string, fix: string | undefined, rule: string) =>
    `${formatIssue({file, field, message, fix})} [${rule}]`,
  total: (checked: number, errors: number, warnings: number) =>
    `${checked} card file(s) checked: ${errors} error(s), ${warnings} warning(s).`,
  /** What the command fails with (exit 6) when a problem is an error. */
  failed: (errors: number) =>
    `lint found ${errors} error(s). Fix: correct each as its line says, then run "cairn lint" again`,
}

const zh: typeof en = {
  severity: {error: '错误', warning: '警告'},
  problem: (file, field, message, fix, rule) =>
    `${file}: ${field}：${message}${fix ? `（修复：${fix}）` : ''} [${rule}]`,
  total: (checked, errors, warnings) => `检查了 ${checked} 个卡片文件：${errors} 个错误，${warnings} 个警告。`,
  failed: errors => `lint 发现 ${errors} 个错误。修复：按每一行所说改正，然后再运行 "cairn lint"`,
}

export const LINT_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
