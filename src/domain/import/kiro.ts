import {
  fieldError,
  fileItem,
  type ImportKind,
  optionalString,
  pathFields,
  readFrontmatter,
  stringList,
  toolGlobs,
} from './source.js'

/**
 * Kiro steering files: `inclusion: always` (Kiro's default) is a core card; `fileMatch` a recalled card narrowed to
 * fileMatchPattern; `manual` a recalled card for every path, since it is pulled in by name, not by file; `auto` a
 * recalled card whose summary is its description, since Kiro includes it when a request matches the description.
 * A mode cairn does not know is imported as a recalled card with a note for the reviewer, never refused.
 */
export const kiro: ImportKind = {
  kind: 'kiro',
  defaults: ['.kiro/steering'],
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path),
  map(file) {
    const fm = readFrontmatter(file)
    const inclusion = fm.data.inclusion ?? 'always'
    const description = optionalString(fm.data, 'description', file.path)
    if (inclusion === 'always') return fileItem(file, fm, undefined, {load: 'core'})
    if (inclusion === 'manual') return fileItem(file, fm, undefined, {load: 'recall'})
    if (inclusion === 'auto') return fileItem(file, fm, description, {load: 'recall'})
    if (inclusion !== 'fileMatch') {
      const note = {kind: 'kiro' as const, inclusion: JSON.stringify(inclusion)}
      return fileItem(file, fm, description, {load: 'recall'}).map(item => ({...item, note}))
    }
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
