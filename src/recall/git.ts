import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {CARD_TYPES} from '../domain/card/types.js'
import {type Store, rel} from '../store/layout.js'

/**
 * What git says of a store's cards/ directory, for the recall index's proof (proof.ts):
 * the two `git ls-files` listings it compares, run with git's stat checks forced on, read as records,
 * and the identity of git's own index file.
 */

const GIT_CONFIG = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '-c',
  'core.checkStat=default',
  '-c',
  'core.trustctime=true',
  '-c',
  'core.ignorecase=false',
]
/** Every record: tracked files with their blob ids and recorded stat, and what differs. */
export const LISTING = ['ls-files', '-z', '--debug', '-v', '-s', '-m', '-d', '-o', '--']
/** What differs from git's index alone: changed and deleted tracked files, and untracked ones. */
export const CHANGES = ['ls-files', '-z', '-v', '-m', '-d', '-o', '--']

/** The environment for git: none of the user's GIT_* variables, which could point it at another work tree or index. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  return {...env, GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1'}
}

/** Past this, git's answer is no use to a hook (its deadline is 1.5 s at most): the store is scanned instead. */
const GIT_TIMEOUT_MS = 1500

/** git's output for the store's cards/, or null when the store is no git work tree's root or git fails. */
export function gitOutput(store: Store, command: readonly string[] = LISTING): Buffer | null {
  if (!fs.existsSync(path.join(store.root, '.git'))) return null
  const out = spawnSync('git', [...GIT_CONFIG, ...command, rel(store, 'cards')], {
    cwd: store.root,
    env: gitEnv(),
    maxBuffer: 1 << 30,
    timeout: GIT_TIMEOUT_MS,
  })
  return out.error || out.status !== 0 ? null : out.stdout
}

/**
 * The identity of git's index file: its inode, size and times (ns), and the checksum git writes at
 * its end (a hash of the whole file, so two index files with the same stat still differ); null
 * where there is none (index.skipHash) or no index. git replaces that file whole (index.lock, then a
 * rename) whenever it writes it, so the same identity means the same entries.
 */
export function gitIndexStamp(root: string): string | null {
  let fd: number | undefined
  try {
    // git reads a relative gitdir (a linked worktree, a submodule) from the physical directory.
    const real = fs.realpathSync(root)
    const dotGit = path.join(real, '.git')
    const text = fs.lstatSync(dotGit).isFile() ? fs.readFileSync(dotGit, 'utf8') : null
    if (text !== null && !text.startsWith('gitdir: ')) return null
    const dir = text === null ? dotGit : path.resolve(real, text.slice(8).replace(/[\r\n]+$/, ''))
    fd = fs.openSync(path.join(dir, 'index'), 'r')
    const s = fs.fstatSync(fd, {bigint: true})
    const trailer = Buffer.alloc(20)
    if (s.size < 32n || fs.readSync(fd, trailer, 0, 20, Number(s.size) - 20) !== 20 || trailer.every(b => b === 0))
      return null
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${trailer.toString('hex')}`
  } catch {
    return null
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** The changed, deleted and untracked records of either command's output, as "tag\tpath" lines in one order. */
export function changesOf(output: Buffer): string {
  const out = new Set<string>()
  for (const {record} of records(output)) {
    const tag = record[0]
    if (tag === 'H' || tag === 'S' || tag === 'h') continue
    // "C path" without -s; "C <mode> <id> <stage>\tpath" with it.
    const path = /^. \d{6} [0-9a-f]+ \d\t/.test(record) ? record.slice(record.indexOf('\t') + 1) : record.slice(2)
    out.add(`${tag}\t${path}`)
  }
  return [...out].sort().join('\n')
}

/** git's record of a card file: its tags (H, C, R, ?) and, when tracked, the blob id in git's index. */
export interface Entry {
  tags: string
  hash?: string
  /** What git recorded of the file when it last wrote its index (--debug): size, and ctime in ms. */
  size?: number
  ctime?: number
}

/** Whether this path (from the store's root) is one the full scan stamps: cards/<type>/<name>.md. */
function isCardPath(cards: string, p: string): boolean {
  if (!p.startsWith(`${cards}/`)) return false
  const rest = p.slice(cards.length + 1)
  const slash = rest.indexOf('/')
  if (slash < 0 || rest.indexOf('/', slash + 1) >= 0) return false
  const name = rest.slice(slash + 1)
  return (
    (CARD_TYPES as readonly string[]).includes(rest.slice(0, slash)) && name.endsWith('.md') && !name.startsWith('.')
  )
}

/** git's records: with --debug, each tracked one's "  ctime: s:ns ... size: n\tflags: f\n" opens the next chunk. */
function records(output: Buffer): {record: string; debug: string}[] {
  const out: {record: string; debug: string}[] = []
  for (const chunk of output.toString('utf8').split('\0')) {
    let record = chunk
    if (chunk.startsWith('  ctime:') && out.length > 0) {
      const end = chunk.indexOf('\n', chunk.indexOf('flags: ')) + 1
      out[out.length - 1].debug = chunk.slice(0, end)
      record = chunk.slice(end)
    }
    if (record) out.push({record, debug: ''})
  }
  return out
}

/**
 * The card files in git's output by path, with their tags; null when the output gives no proof: a
 * tag or stage other than H, C, R and ? at stage 0, a non-SHA-1 id, or under cards/ a submodule or
 * a directory git does not enter (a nested repository), whose files git does not list.
 */
export function cardEntries(store: Store, output: Buffer): Map<string, Entry> | null {
  const cards = rel(store, 'cards')
  const out = new Map<string, Entry>()
  for (const {record: r, debug} of records(output)) {
    const untracked = r.startsWith('? ')
    const tab = r.indexOf('\t')
    const p = untracked ? r.slice(2) : r.slice(tab + 1)
    const [tag, mode, hash, stage] = untracked ? ['?'] : r.slice(0, tab).split(' ')
    if (p.endsWith('/') || mode === '160000') return null
    // A link is never a card (the scan never follows links): git's record of it is in the digest alone.
    if (!isCardPath(cards, p) || (!untracked && !mode?.startsWith('100'))) continue
    if (!'HCR?'.includes(tag) || (!untracked && (stage !== '0' || hash?.length !== 40))) return null
    const e = out.get(p) ?? {tags: ''}
    e.tags += tag
    if (!untracked) {
      const ctime = /ctime: (\d+):(\d+)/.exec(debug)
      const size = /size: (\d+)/.exec(debug)
      Object.assign(e, {
        hash,
        ...(size ? {size: Number(size[1])} : {}),
        ...(ctime ? {ctime: Number(ctime[1]) * 1000 + Math.floor(Number(ctime[2]) / 1e6)} : {}),
      })
    }
    out.set(p, e)
  }
  return out
}
