import {createHash} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {z} from '../../domain/vendor/zod.js'
import {SKILL_LANGS} from '../../domain/agents/types.js'
import {CairnError} from '../../domain/errors.js'
import type {Context} from '../../context.js'
import {writeFileAtomic} from '../files/fsutil.js'
import {dirIn, readFileIn, removeFileIn, statIn, writeFileIn} from '../files/store-files.js'
import {readRegularFile} from '../files/safe-read.js'
import {personalHome} from '../layout.js'
import {acquireLock, acquireLockAt, type Lock, LOCK_NAME} from '../locks/lock.js'
import {findRepoRoot} from '../repo.js'
import {packageFile} from '../package-files.js'

/**
 * The agent clients' own files (settings, skills) and what install remembers about them. These
 * writes are not cairn store writes: no commit; each file is replaced atomically.
 */

export const userHome = (ctx: Context): string => ctx.env.HOME || os.homedir()

/** The file's bytes, or null when it does not exist. */
export function readBytes(file: string): Buffer | null {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** The most a client's settings or trust file may hold for a check that only reads it. */
const CLIENT_FILE_MAX = 1024 * 1024

/**
 * A client's settings or trust file, for a check that only reads it (doctor): null when missing; a regular file of at
 * most 1 MB, else an error. A file in the repository is never followed through a link (a clone may carry one to
 * /dev/zero); one in the home folder may be a link (dotfiles), and is read only when it leads to such a file.
 */
export function readClientFile(file: string, inRepository: boolean): Buffer | null {
  const over = {noun: 'the file', fix: 'shorten it'}
  if (inRepository) {
    try {
      return readRegularFile(file, file, CLIENT_FILE_MAX, over)
    } catch (error) {
      if (error instanceof CairnError && error.code === 'not_found') return null
      throw error
    }
  }
  let stat: fs.Stats
  try {
    stat = fs.statSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  if (!stat.isFile()) throw new Error(`${file} is not a regular file`)
  if (stat.size > CLIENT_FILE_MAX)
    throw new Error(`${file} is ${stat.size} bytes, over the ${CLIENT_FILE_MAX}-byte limit`)
  return fs.readFileSync(file)
}

/**
 * The first symbolic link on a root-relative path (POSIX), from its first folder down to the file itself, or
 * null when there is none (or the path stops existing before one).
 */
export function linkOnPath(root: string, rel: string): string | null {
  const parts = rel.split('/')
  for (let i = 1; i <= parts.length; i++) {
    try {
      if (fs.lstatSync(path.join(root, ...parts.slice(0, i))).isSymbolicLink()) return parts.slice(0, i).join('/')
    } catch {
      return null
    }
  }
  return null
}

/** The directories writing `file` creates, outermost first, relative to root (POSIX). */
export function missingDirs(root: string, file: string): string[] {
  const out: string[] = []
  const inside = (dir: string) => dir.startsWith(root) && dir !== root
  for (let dir = path.dirname(file); inside(dir) && !fs.existsSync(dir); dir = path.dirname(dir)) {
    out.unshift(path.relative(root, dir).split(path.sep).join('/'))
  }
  return out
}

/**
 * Replaces the file atomically. A symlinked settings file (a dotfiles repository's) is written
 * through the link, which stays a link; an existing file keeps its permissions (a private 0600 stays so).
 */
export function writeBytes(file: string, content: string | Buffer): void {
  let target = file
  let mode: number | undefined
  try {
    target = fs.realpathSync(file)
    mode = fs.statSync(target).mode & 0o7777
  } catch {
    // A new file: written where asked, with the default permissions.
  }
  writeFileAtomic(target, content)
  if (mode !== undefined) fs.chmodSync(target, mode)
}

export function removeFile(file: string): void {
  fs.rmSync(file, {force: true})
}

/** Removes those of `dirs` (relative to root) that are empty now, innermost first; a non-empty one stays. */
export function removeEmptyDirs(root: string, dirs: string[]): void {
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(path.join(root, dir))
    } catch {
      // Not empty (the user put something there) or already gone: it stays as it is.
    }
  }
}

/** templates/skills of this installation of cairn. */
export const packageSkillsRoot = (): string => packageFile('templates/skills')

/** This installation's node and entry script, for a user-scope hook command. */
export const cliEntry = (): {node: string; script: string} => ({
  node: process.execPath,
  script: packageFile('bin/run.js'),
})

export interface SkillFile {
  /** The skill's directory name (cairn-archive, ...). */
  skill: string
  /** Path inside the skill's directory (POSIX): SKILL.md, references/x.md. */
  rel: string
  content: Buffer
}

/** Every file of every skill directory under `<root>/<lang>/`, in name order; none when the folder is missing. */
export function readSkillTemplates(root: string, lang: string): SkillFile[] {
  const dir = path.join(root, lang)
  if (!fs.existsSync(dir)) return []
  const out: SkillFile[] = []
  for (const skill of fs
    .readdirSync(dir, {withFileTypes: true})
    .filter(e => e.isDirectory())
    .map(e => e.name)
    .sort()) {
    const walk = (sub: string): void => {
      // Code-point order, so SKILL.md comes before references/ on every machine.
      const entries = fs.readdirSync(path.join(dir, skill, sub), {withFileTypes: true})
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const rel = sub ? `${sub}/${e.name}` : e.name
        if (e.isDirectory()) walk(rel)
        else if (e.isFile()) out.push({skill, rel, content: fs.readFileSync(path.join(dir, skill, rel))})
      }
    }
    walk('')
  }
  return out
}

/** The languages templates exist for (each a folder under the skills root). */
export function skillTemplateLangs(root: string): string[] {
  if (!fs.existsSync(root)) return []
  return fs
    .readdirSync(root, {withFileTypes: true})
    .filter(e => e.isDirectory())
    .map(e => e.name)
    .sort()
}

const FileRecord = z.object({
  /** The bytes before the first install (base64); null when install created the file; absent when unknown. */
  original: z.string().nullable().optional(),
  /** Install created the file, though its bytes can no longer simply be given back (the user changed it since). */
  created: z.literal(true).optional(),
  /** sha256 of the bytes install wrote. */
  written: z.string(),
  createdDirs: z.array(z.string()),
  createdKeys: z.array(z.array(z.string())).optional(),
})
export type FileRecord = z.infer<typeof FileRecord>

const InstallRecord = z.object({
  version: z.literal(1),
  client: z.string(),
  scope: z.enum(['project', 'user']),
  root: z.string(),
  /** The skills' language a --lang chose; a later install without --lang keeps it. Absent: the store's language. */
  lang: z.enum(SKILL_LANGS).optional(),
  files: z.record(z.string(), FileRecord),
})
export type InstallRecord = z.infer<typeof InstallRecord>

/** Where an install record lives: a directory trusted as given (the repository, $CAIRN_HOME) and the path under it. */
export interface RecordPlace {
  base: string
  rel: string
  /** The absolute path, for messages. */
  file: string
}

const place = (base: string, rel: string): RecordPlace => ({base, rel, file: path.join(base, ...rel.split('/'))})
/** A record is a few kilobytes; one over this is not cairn's. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024

/**
 * Where install's record for one client and target lives (machine-local, never committed): the
 * project's `.cairn/.local/install/` when it has a `.cairn/`, else `$CAIRN_HOME/.local/install/`.
 * Reading looks in both, so a store created after install still finds it. Both are read and written
 * through store-files.ts: a clone may carry a link at either, and neither is ever followed.
 */
export function recordPaths(ctx: Context, client: string, scope: 'project' | 'user', root: string): RecordPlace[] {
  const home = personalHome(ctx)
  if (scope === 'user') return [place(home, `.local/install/${client}-user.json`)]
  const key = createHash('sha256').update(root).digest('hex').slice(0, 16)
  const inHome = place(home, `.local/install/${client}-project-${key}.json`)
  const inStore = place(root, `.cairn/.local/install/${client}.json`)
  return fs.existsSync(path.join(root, '.cairn')) ? [inStore, inHome] : [inHome, inStore]
}

/**
 * The record and the file it was read from, or null when there is none or it cannot be read (then uninstall
 * works from the files alone). The paths inside it are the caller's to check (domain/agents/record-paths.ts).
 * A link on the way to a record refuses here, before install or uninstall writes anything: writing or removing
 * the record would refuse it afterwards, with the rest done.
 */
export function readRecord(places: RecordPlace[], root: string): {record: InstallRecord; file: string} | null {
  for (const at of places) {
    dirIn(at.base, path.posix.dirname(at.rel))
    let bytes: Buffer | null
    try {
      bytes = readFileIn(at.base, at.rel, MAX_RECORD_BYTES)
    } catch {
      return null // a link or no regular file: not a record cairn wrote
    }
    if (!bytes) continue
    try {
      const record = InstallRecord.parse(JSON.parse(bytes.toString('utf8')))
      return record.root === root ? {record, file: at.file} : null
    } catch {
      return null
    }
  }
  return null
}

/** Written where a record already is, else at the first place; never through a link (store-files.ts refuses one). */
export function writeRecord(places: RecordPlace[], record: InstallRecord): void {
  const at = places.find(p => statIn(p.base, p.rel) !== null) ?? places[0]
  fs.mkdirSync(at.base, {recursive: true}) // $CAIRN_HOME, before cairn first used it
  writeFileIn(at.base, at.rel, `${JSON.stringify(record, null, 2)}\n`)
}

/**
 * Serialises install and uninstall of one scope: each reads the settings and the record, then writes both, so two
 * at once would lose the record of one (uninstall then cannot give the bytes back). A project's is the store's
 * lock (.git/cairn.lock); the user's, $CAIRN_HOME/.local/install/cairn.lock. Null outside a git repository
 * (install refuses that itself).
 */
export async function lockTarget(ctx: Context, scope: 'project' | 'user'): Promise<Lock | null> {
  if (scope === 'user') {
    const home = personalHome(ctx)
    fs.mkdirSync(home, {recursive: true})
    return acquireLockAt(path.join(dirIn(home, '.local/install', {create: true}) as string, LOCK_NAME))
  }
  const root = findRepoRoot(ctx.cwd)
  return root ? acquireLock(root) : null
}

/** Test-only: CAIRN_TEST_CRASH=<step> makes the process SIGKILL itself there, so the tests can prove recovery. */
export function crashPoint(ctx: Context, step: string): void {
  if (ctx.env.CAIRN_TEST_CRASH === step) process.kill(process.pid, 'SIGKILL')
}

export function removeRecord(places: RecordPlace[]): void {
  for (const at of places) removeFileIn(at.base, at.rel)
}
