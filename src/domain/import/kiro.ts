import {fieldError, fileItem, type ImportKind, pathFields, readFrontmatter, stringList, toolGlobs} from './source.js'

const INCLUSIONS = ['always', 'fileMatch', 'manual'] as const

/**
 * Kiro steering files: `inclusion: always` (Kiro's default) is a core card; `fileMatch` a recalled card narrowed to
 * fileMatchPattern; `manual` a recalled card for every path, since it is pulled in by name, not by file.
 */
export const kiro: ImportKind = {
  kind: 'kiro',
  defaults: ['.kiro/steering'],
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path),
  map(file) {
    const fm = readFrontmatter(file)
    const inclusion = fm.data.inclusion ?? 'always'
    if (!INCLUSIONS.includes(inclusion as never)) {
      const message = `must be one of ${INCLUSIONS.join(', ')}, not ${JSON.stringify(inclusion)}`
      throw fieldError(file.path, 'inclusion', message, 'write inclusion: always, fileMatch or manual')
    }
    if (inclusion === 'always') return fileItem(file, fm, undefined, {load: 'core'})
    if (inclusion === 'manual') return fileItem(file, fm, undefined, {load: 'recall'})
    const globs = toolGlobs(stringList(fm.data.fileMatchPattern, file.path, 'fileMatchPattern'), 'root')
    if (!globs.length) {
      throw fieldError(
        file.path,
        'fileMatchPattern',
        'is required with inclusion: fileMatch',
        'add fileMatchPattern: "src/**/*.ts"',
      )
    }
    return fileItem(file, fm, undefined, {load: 'recall', ...pathFields(globs)})
  },
}
