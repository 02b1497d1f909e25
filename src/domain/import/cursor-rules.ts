import {fieldError, fileItem, type ImportKind, pathFields, readFrontmatter, stringList, toolGlobs} from './source.js'

/** `.cursor/rules/*.mdc`: globs → narrow paths, alwaysApply → core, description → summary. cairn-*.mdc are cairn's own. */
export const cursorRules: ImportKind = {
  kind: 'cursor-rules',
  defaults: ['.cursor/rules'],
  extensions: ['.mdc'],
  accepts: path => /\.mdc$/i.test(path) && !/(^|\/)cairn-[^/]+\.mdc$/.test(path),
  map(file) {
    const fm = readFrontmatter({...file, text: quoteGlobs(file.text)})
    const {description, globs, alwaysApply} = fm.data
    if (alwaysApply !== undefined && typeof alwaysApply !== 'boolean') {
      const message = `must be true or false, not ${JSON.stringify(alwaysApply)}`
      throw fieldError(file.path, 'alwaysApply', message, 'write alwaysApply: true or alwaysApply: false')
    }
    if (description !== undefined && description !== null && typeof description !== 'string') {
      throw fieldError(
        file.path,
        'description',
        'must be a string',
        'write description: one sentence saying when the rule applies',
      )
    }
    const load = alwaysApply ? {load: 'core'} : {}
    const patterns = toolGlobs(stringList(globs, file.path, 'globs'), 'anywhere-without-slash')
    return fileItem(file, fm, description ?? undefined, {...load, ...pathFields(patterns)})
  },
}

/**
 * Cursor writes `globs: *.ts,*.tsx` unquoted, which YAML reads as an alias: the value of a `globs:` line in the
 * frontmatter is quoted before parsing, unless it is quoted or a list already. Lines stay where they were.
 */
function quoteGlobs(text: string): string {
  const fence = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(text)
  if (!fence) return text
  const head = fence[1].replace(/^(globs:[ \t]*)([^'"\[\s#].*?)[ \t]*$/m, (_, key: string, value: string) =>
    /^[*{!?&|>%@`,]/.test(value) ? `${key}${JSON.stringify(value)}` : `${key}${value}`,
  )
  return text.replace(fence[1], () => head)
}
