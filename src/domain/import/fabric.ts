import {normalizeType} from '../card/types.js'
import {
  fieldError,
  fileItem,
  type ImportKind,
  optionalString,
  pathFields,
  readFrontmatter,
  stringList,
} from './source.js'

/**
 * fabric knowledge: `.fabric/knowledge/<type>/*.md`, its types the same five as cairn's, so they map one to one (a
 * `type` field wins over the folder). Relevance paths, keywords and the summary are kept.
 */
export const fabric: ImportKind = {
  kind: 'fabric',
  defaults: ['.fabric/knowledge'],
  extensions: ['.md'],
  accepts: path => /\.md$/i.test(path) && !/(^|\/)(index|readme)\.md$/i.test(path),
  map(file) {
    const fm = readFrontmatter(file)
    const folder = file.path.split('/').slice(-2)[0]
    const given = fm.data.type ?? folder
    const type = normalizeType(given)
    if (!type) {
      const fix =
        'add type: one of model, decision, guideline, pitfall, process, or keep the file in a folder of that name'
      throw fieldError(file.path, 'type', `"${String(given)}" is not a knowledge type`, fix)
    }
    const summary = optionalString(fm.data, 'summary', file.path)
    const title = optionalString(fm.data, 'title', file.path)
    const keywords = stringList(fm.data.keywords, file.path, 'keywords')
    const paths =
      fm.data.relevance_scope === 'broad'
        ? {}
        : pathFields(stringList(fm.data.relevance_paths, file.path, 'relevance_paths'))
    const items = fileItem(file, fm, summary, {type, ...paths, ...(keywords.length ? {keywords} : {})})
    if (title) items[0].fields.title = title
    return items
  },
}
