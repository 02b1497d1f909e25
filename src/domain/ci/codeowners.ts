import {codeSpan} from '../markdown.js'

/**
 * GitHub's CODEOWNERS format, read here and nowhere else (docs.github.com, "About code owners"): the first file found
 * of .github/CODEOWNERS, CODEOWNERS and docs/CODEOWNERS; a line is a gitignore-like pattern and its owners (@user,
 * @org/team or an email address); the last line that matches a path decides its owners, and a line with a pattern
 * and no owners leaves the path with none. As on GitHub, paths are case sensitive, `!` negation, `[ ]` ranges and
 * an escaped leading `#` do not work, and a line with invalid syntax is skipped (each is reported).
 */

/** Where GitHub looks for the file, in its order: the first one found is used. */
export const CODEOWNERS_FILES = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const

/** GitHub does not load a CODEOWNERS file of this size or more. */
export const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024

export type Owner =
  {kind: 'user'; login: string} | {kind: 'team'; org: string; team: string} | {kind: 'email'; address: string}

export interface OwnerRule {
  /** 1-based line number in the file. */
  line: number
  pattern: string
  /** Empty: the paths it matches have no owner. */
  owners: Owner[]
  test: RegExp
}

export interface CodeOwners {
  file: string
  rules: OwnerRule[]
  /** Lines GitHub skips too, with why (Markdown: what the line says is in a code span). */
  skipped: {line: number; reason: string}[]
}

/** The owners of a path and the line that gives them; null when no line matches. */
export interface Ownership {
  owners: Owner[]
  line: number
}

const LOGIN = /^@([A-Za-z0-9](?:-?[A-Za-z0-9])*)$/
const TEAM = /^@([A-Za-z0-9](?:-?[A-Za-z0-9])*)\/([A-Za-z0-9][A-Za-z0-9._-]*)$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function parseCodeOwners(text: string, file: string): CodeOwners {
  const rules: OwnerRule[] = []
  const skipped: CodeOwners['skipped'] = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1
    const tokens = lineTokens(raw)
    if (!tokens.length) return
    const [pattern, ...names] = tokens
    const problem = patternProblem(pattern)
    if (problem) return void skipped.push({line, reason: problem})
    const owners = names.map(ownerOf)
    const bad = names.find((_, k) => owners[k] === null)
    if (bad !== undefined) {
      const reason = `${codeSpan(bad)} is not \`@user\`, \`@org/team\` or an email address`
      return void skipped.push({line, reason})
    }
    rules.push({line, pattern, owners: owners as Owner[], test: patternRegex(pattern)})
  })
  return {file, rules, skipped}
}

/** The owners of a repo-relative file path (no leading slash): the last matching line decides. */
export function ownersOf(co: CodeOwners, path: string): Ownership | null {
  for (let i = co.rules.length - 1; i >= 0; i--) {
    const rule = co.rules[i]
    if (rule.test.test(path)) return {owners: rule.owners, line: rule.line}
  }
  return null
}

/**
 * The owners a new file in the folder would have, whatever its name: the lines that match it by folder or by a
 * wildcard (`/src/`, `src/*`, `*`), not by a name (`*.js`). '' is the repository's root.
 */
export function folderOwners(co: CodeOwners, folder: string): Ownership | null {
  const dir = folder.replace(/\/+$/, '')
  // NUL never occurs in a path or a pattern's literal text, so only a wildcard or a folder rule matches it.
  return ownersOf(co, dir ? `${dir}/\0` : '\0')
}

export function ownerText(o: Owner): string {
  return o.kind === 'user' ? `@${o.login}` : o.kind === 'team' ? `@${o.org}/${o.team}` : o.address
}

/** The same owner: logins, organisations and team slugs are case-insensitive on GitHub, and so is an email here. */
export const ownerKey = (o: Owner): string => ownerText(o).toLowerCase()

function ownerOf(name: string): Owner | null {
  let m = LOGIN.exec(name)
  if (m) return {kind: 'user', login: m[1]}
  if ((m = TEAM.exec(name))) return {kind: 'team', org: m[1], team: m[2]}
  return EMAIL.test(name) ? {kind: 'email', address: name} : null
}

/** The line's pattern and owners, without its comment; an escape (`\ `) keeps a space in the pattern. */
function lineTokens(raw: string): string[] {
  const tokens: string[] = []
  let current = ''
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]
    if (ch === '\\' && i + 1 < raw.length) {
      current += ch + raw[++i]
    } else if (/\s/.test(ch)) {
      if (current) tokens.push(current)
      current = ''
    } else if (ch === '#' && !current) {
      break
    } else current += ch
  }
  if (current) tokens.push(current)
  return tokens
}

function patternProblem(pattern: string): string | null {
  if (pattern.startsWith('!')) return 'negation (`!`) does not work in CODEOWNERS'
  if (pattern.startsWith('\\#')) return 'an escaped leading `#` does not work in CODEOWNERS'
  if (/(^|[^\\])[[\]]/.test(pattern)) return 'character ranges (`[ ]`) do not work in CODEOWNERS'
  if (pattern.includes('***')) return 'a pattern cannot hold three asterisks in a row'
  if (/^\/+$/.test(pattern)) return '`/` alone matches nothing'
  return null
}

/**
 * A pattern as a regular expression over a repo-relative path. As in gitignore: a leading or inner `/` anchors the
 * pattern at the root, otherwise it matches at any depth; a trailing `/` matches only what is under a folder; `*`
 * and `?` stay within a path segment, `**` spans segments. As GitHub documents, a pattern matches the contents of a
 * folder it names, except by a last segment that is a lone `*` (`docs/*` owns docs/a.md, not docs/build/b.md).
 */
function patternRegex(pattern: string): RegExp {
  const folderOnly = pattern.endsWith('/')
  let body = pattern.replace(/\/+$/, '')
  const anchored = body.startsWith('/') || body.includes('/')
  body = body.replace(/^\/+/, '')
  const segments = body.split('/')
  if (!anchored && segments[0] !== '**') segments.unshift('**')
  const last = segments.length - 1
  let re = ''
  segments.forEach((seg, i) => {
    if (seg === '**') re += i === last ? (i === 0 ? '.+' : '/.+') : i === 0 ? '(?:.+/)?' : '(?:/.+)?/'
    else re += (i === 0 || segments[i - 1] === '**' ? '' : '/') + segmentRegex(seg)
  })
  if (segments[last] !== '**') {
    if (folderOnly) re += '/.+'
    else if (segments[last] !== '*') re += '(?:/.+)?'
  }
  return new RegExp(`^${re}$`, 's')
}

function segmentRegex(seg: string): string {
  if (seg === '*') return '[^/]+'
  let out = ''
  for (let i = 0; i < seg.length; i++) {
    const ch = seg[i]
    if (ch === '\\' && i + 1 < seg.length) out += escape(seg[++i])
    else if (ch === '*') out += '[^/]*'
    else if (ch === '?') out += '[^/]'
    else out += escape(ch)
  }
  return out
}

const escape = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
