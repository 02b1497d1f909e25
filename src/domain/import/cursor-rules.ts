import {fieldError, fileItem, type ImportKind, pathFields, readFrontmatter, stringList} from './source.js'

/** `.cursor/rules/*.mdc`: globs → narrow paths, alwaysApply → core, description → summary. cairn-*.mdc are cairn's own. */
export const cursorRules: ImportKind = {
  kind: 'cursor-rules',
  defaults: ['.cursor/rules'],
  extensions: ['.mdc'],
  accepts: path => /\.mdc$/i.test(path) && !/(^|\/)cairn-[^/]+\.mdc$/.test(path),
  map(file) {
    const fm = readFrontmatter(file)
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
    return fileItem(file, fm, description ?? undefined, {...load, ...pathFields(stringList(globs, file.path, 'globs'))})
  },
}
