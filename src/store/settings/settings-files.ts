import {CODEOWNERS_FILES, CODEOWNERS_MAX_BYTES} from '../../domain/ci/codeowners.js'
import {CairnError, validationError} from '../../domain/errors.js'
import {decodeUtf8} from '../../domain/text.js'
import type {Context} from '../../context.js'
import {gitClient} from '../git.js'
import {configRel, signalsRel, type Store} from '../layout.js'
import {commitOf} from '../cards/queries.js'
import {readFileIn, SETTINGS, SMALL_FILE} from '../files/store-files.js'

/**
 * The store's settings files (config.yaml, signals.yaml) as text, from a commit or from the working
 * tree, for the review check: the base branch's settings govern it, and a pull request's change to
 * them is shown; and the base branch's CODEOWNERS, which says who may approve with review.approvers:
 * codeowners. A link is refused, never followed, and a file over the cap is never read whole.
 */

export interface SettingsText {
  kind: 'config' | 'signals'
  /** Repo-relative path. */
  file: string
  /** null when there is no such file. */
  text: string | null
}

/** The cap config.ts and signals.ts read these files with, so a file one side accepts the other does too. */
const SETTINGS_MAX_BYTES = SMALL_FILE

type Kind = SettingsText['kind']
const settingsFiles = (store: Store): [Kind, string][] => [
  ['config', configRel(store)],
  ['signals', signalsRel(store)],
]

/** The settings files as the commit `ref` names has them. */
export async function settingsAt(ctx: Context, store: Store, ref: string): Promise<SettingsText[]> {
  const sha = await commitOf(ctx, store, ref)
  const out: SettingsText[] = []
  for (const [kind, file] of settingsFiles(store)) {
    out.push({kind, file, text: await textAt(ctx, store, sha, {file, label: `${file} at ${ref}`})})
  }
  return out
}

/** The settings files as the working tree has them. */
export function settingsInTree(store: Store): SettingsText[] {
  return settingsFiles(store).map(([kind, file]) => {
    // Through store-files: a link at the file or on its way, or a file over the cap, is refused by name.
    const bytes = readFileIn(store.root, file, SETTINGS_MAX_BYTES, SETTINGS)
    return {kind, file, text: bytes === null ? null : decodeUtf8(bytes, file)}
  })
}

/**
 * The CODEOWNERS file the commit `ref` names has, where GitHub looks for it (the first one found), as text; null when
 * it has none. One GitHub does not load (a link, 3 MB or more) is refused by name.
 */
export async function codeOwnersAt(
  ctx: Context,
  store: Store,
  ref: string,
): Promise<{file: string; text: string} | null> {
  const sha = await commitOf(ctx, store, ref)
  for (const file of CODEOWNERS_FILES) {
    const text = await textAt(ctx, store, sha, {file, label: `${file} at ${ref}`}, CODEOWNERS_LIMIT)
    if (text !== null) return {file, text}
  }
  return null
}

/** What a file read at a commit may be: at most `bytes` long (`over` says so), and what a link there is told. */
interface Limit {
  bytes: number
  over: string
  link: string
}
const SETTINGS_LIMIT: Limit = {
  bytes: SETTINGS_MAX_BYTES,
  over: `over the ${SETTINGS_MAX_BYTES}-byte limit of a settings file`,
  link: 'is a symbolic link; cairn never follows links under .cairn/',
}
const CODEOWNERS_LIMIT: Limit = {
  bytes: CODEOWNERS_MAX_BYTES - 1,
  over: 'and GitHub loads no CODEOWNERS file of 3 MB or more',
  link: 'is a symbolic link; cairn reads CODEOWNERS only as a regular file',
}

/**
 * One file's text at a commit, or null when the commit has none: git's own entry says whether it is a plain file.
 * `label` names the file in errors.
 */
async function textAt(
  ctx: Context,
  store: Store,
  sha: string,
  {file, label}: {file: string; label: string},
  limit = SETTINGS_LIMIT,
): Promise<string | null> {
  const git = gitClient(ctx, store.root)
  const entry = (await git.raw(['ls-tree', '-l', '-z', '--full-tree', sha, '--', file])).split('\0')[0]
  if (!entry) return null
  const m = /^(\d+) (\w+) ([0-9a-f]+) +(-|\d+)\t/.exec(entry)
  if (!m || m[2] !== 'blob' || (m[1] !== '100644' && m[1] !== '100755')) {
    const what = m?.[1] === '120000' ? limit.link : 'is not a regular file'
    const fix = 'replace it with a regular file on that branch'
    throw validationError([{file: label, field: '(file)', message: what, fix}])
  }
  if (Number(m[4]) > limit.bytes) throw tooBig(label, Number(m[4]), limit)
  return git.raw(['cat-file', 'blob', m[3]])
}

function tooBig(label: string, size: number, limit: Limit): CairnError {
  const message = `is ${size} bytes, ${limit.over}`
  return validationError([{file: label, field: '(file)', message, fix: 'shorten it'}])
}
