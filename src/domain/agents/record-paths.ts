import type {Issue} from '../errors.js'

/**
 * The paths an install record names, checked before uninstall deletes or restores anything by them. The record
 * is machine-local state, but a clone can carry a planted one (`git add -f`), so it is trusted for no place
 * install itself would not write: the client's settings file, its MCP config, or a file in a skill's folder
 * under its skills folder; plain relative paths, never through a symbolic link. Created folders must lie on
 * the way to their file.
 */
export interface RecordPlaces {
  label: string
  /** The settings file and the MCP config, relative to the root. */
  configs: string[]
  skillsDir: string
}

interface RecordedFile {
  createdDirs: string[]
}

/**
 * Every problem with the record's paths, each naming the record, the field and the fix. `linkOn` answers the
 * first symbolic link on a path under the root (or null); it is asked only of skill files, since a config file
 * is where install writes whatever the record says (a linked settings file is a dotfiles repository's).
 */
export function recordPathIssues(
  files: Record<string, RecordedFile>,
  places: RecordPlaces,
  record: string,
  linkOn: (rel: string) => string | null,
): Issue[] {
  const fix =
    `delete ${record} (cairn did not write it) and run the command again; without a record, uninstall takes out ` +
    "cairn's hook entries and the skill files that are byte for byte cairn's"
  const issues: Issue[] = []
  for (const [rel, recorded] of Object.entries(files)) {
    const field = `files[${JSON.stringify(rel)}]`
    const wrong = pathProblem(rel, places) ?? (places.configs.includes(rel) ? null : linked(linkOn(rel)))
    if (wrong) {
      issues.push({file: record, field, message: wrong, fix})
      continue
    }
    const way = ancestors(rel)
    recorded.createdDirs.forEach((dir, i) => {
      if (way.includes(dir)) return
      const message = `is not a folder on the way to ${rel}`
      issues.push({file: record, field: `${field}.createdDirs[${i}]`, message, fix})
    })
  }
  return issues
}

function pathProblem(rel: string, places: RecordPlaces): string | null {
  if (places.configs.includes(rel)) return null
  if (/^(?:\/|\\|[A-Za-z]:)/.test(rel)) return 'is an absolute path'
  const parts = rel.split('/')
  if (parts.includes('..')) return 'has a ".." segment'
  if (parts.some(p => p === '' || p === '.' || /[\\\u0000-\u001f\u007f]/.test(p))) {
    return 'is not a plain relative path (an empty or "." segment, a backslash or a control character)'
  }
  // A skill's file is at least <skillsDir>/<skill>/<file>: install never writes into the skills folder itself.
  const depth = places.skillsDir.split('/').length
  if (!rel.startsWith(`${places.skillsDir}/`) || parts.length < depth + 2) {
    const where = `a file in a skill's folder under ${places.skillsDir}/`
    return `is not ${places.label}'s settings file, its MCP config, or ${where}`
  }
  return null
}

const linked = (link: string | null): string | null => (link ? `passes through a symbolic link (${link})` : null)

/** `a/b/c.md` → `a`, `a/b`: the folders writing the file may create. */
function ancestors(rel: string): string[] {
  const parts = rel.split('/').slice(0, -1)
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'))
}
