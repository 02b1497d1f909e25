import {fieldError, fileItem, type ImportKind, optionalString, readFrontmatter, stringList} from './source.js'

const LAYER = /(^|\/)(core|recall)\/(?:([^/]+)\/)?[^/]+\.md$/

/**
 * skein-spec rules: `.skein/spec/<core|recall>/<category>/*.md`. The layer is the load (core stays core), the folder
 * the category, keywords stay keywords. Its archive (.skein/spec/.archive) is a dot folder and never read.
 */
export const skein: ImportKind = {
  kind: 'skein',
  defaults: ['.skein/spec'],
  extensions: ['.md'],
  accepts: path => LAYER.test(path) && !/(^|\/)(index|readme)\.md$/i.test(path),
  map(file) {
    const [, , layer, category] = LAYER.exec(file.path) ?? []
    if (!layer) {
      const fix = 'keep skein rules in .skein/spec/core/<category>/ or .skein/spec/recall/<category>/'
      throw fieldError(file.path, '(path)', 'is not under core/ or recall/', fix)
    }
    const fm = readFrontmatter(file)
    const summary = optionalString(fm.data, 'summary', file.path) ?? optionalString(fm.data, 'description', file.path)
    const title = optionalString(fm.data, 'title', file.path)
    const keywords = stringList(fm.data.keywords, file.path, 'keywords')
    // skein rules are rules: guidelines, whatever their wording.
    const fields = {
      type: 'guideline',
      load: layer,
      ...(category ? {category} : {}),
      ...(keywords.length ? {keywords} : {}),
    }
    const items = fileItem(file, fm, summary, fields)
    if (title) items[0].fields.title = title
    return items
  },
}
