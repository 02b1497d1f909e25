import {sectionItems} from './claude-md.js'
import {fileItem, type ImportKind, pathFields, readFrontmatter, stringList, toolGlobs} from './source.js'

const REPO_WIDE = /(^|\/)copilot-instructions\.md$/

/**
 * GitHub Copilot: the repository-wide `.github/copilot-instructions.md` by section, like CLAUDE.md (cairn may export
 * its block there too); each `.github/instructions/*.instructions.md` as one card whose applyTo globs become paths,
 * matched where VS Code matches them (toolGlobs).
 */
export const copilot: ImportKind = {
  kind: 'copilot',
  defaults: ['.github/copilot-instructions.md', '.github/instructions'],
  extensions: ['.md'],
  accepts: path => REPO_WIDE.test(path) || /\.instructions\.md$/.test(path),
  map(file) {
    if (REPO_WIDE.test(file.path)) return sectionItems(file)
    const fm = readFrontmatter(file)
    const description = typeof fm.data.description === 'string' ? fm.data.description : undefined
    const globs = toolGlobs(stringList(fm.data.applyTo, file.path, 'applyTo'), 'anywhere-unless-rooted')
    return fileItem(file, fm, description, pathFields(globs))
  },
}
