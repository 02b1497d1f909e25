import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {crc32} from 'node:zlib'
import {CARD_TYPES} from '../domain/card/types.js'
import {writeFileAtomic} from './fsutil.js'
import {type Store, rel, storeDir} from './layout.js'
import type {FileEntry} from './recall-index-format.js'
import {racy, stampsText} from './recall-index-format.js'
import {type Opened, region} from './recall-index-read.js'
import {cardFileStats, readSmallRegularFile} from './safe-read.js'

/**
 * Freshness without a Node stat per card file. A Node lstat costs a Stats object and four Dates
 * (about 13 µs a file here, GC included); git compares its own stat cache in C. So each store has a
 * fingerprint of its card files:
 * - in a git work tree, the output of one `git ls-files -z -v -s -m -d -o -- <cards>`: every tracked
 *   file with its blob id, the tracked ones that differ from git's index (C) or are deleted (R),
 *   and the untracked ones, ignored ones included (?); plus a stamp (size, ctime), taken here, of
 *   each card file git cannot vouch for: C and ?, and a tracked file whose bytes are not git's blob
 *   (git sees it through a filter, as eol=lf sees a CRLF file);
 * - outside git, or where git gives no proof, the stamp of every card file, as the full scan takes.
 * The proof file beside the index holds each store's fingerprint once vouch has checked it against
 * the index: each file git lists as clean has the blob the index was built from, each stamped file
 * the stamp the index has, none of those stamps racy, and no card file is left out. While every
 * fingerprint stays the same, no card file changed: git sees an in-place edit of a tracked file by
 * its stat cache (and compares content where that cannot tell, as for its racy entries), an edit
 * staged since changes the blob id, and every other card file is stamped.
 * git runs with its stat checks forced on (trustctime, checkStat) and fsmonitor off, with none of
 * the user's GIT_* variables. A card file git is told not to check (assume-unchanged, skip-worktree),
 * a conflict, or a SHA-256 repository gives no proof: that store is stamped file by file.
 */
export const PROOF_FILE = 'recall-index.proof'
const proofPath = (primary: Store): string => path.join(storeDir(primary), '.cache', PROOF_FILE)

interface Proof {
  /** Which index it vouches for (identity below). */
  index: string
  /** Per store, in the index's order: how it was fingerprinted, the digest, and the card files stamped here. */
  stores: {git: boolean; digest: string; stamped: string[]}[]
}

/** An index file's identity: its scan time and the checksum of its block table, which covers its whole body. */
const identity = (o: Opened): string => `${o.header.scanned} ${crc32(o.crcs)}`

const GIT_ARGS = ['-c', 'core.fsmonitor=false', '-c', 'core.checkStat=default', '-c', 'core.trustctime=true', 'ls-files', '-z', '-v', '-s', '-m', '-d', '-o', '--']

/** The environment for git: none of the user's GIT_* variables, which could point it at another work tree or index. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  return {...env, GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1'}
}

/** git's output for the store's cards/, or null when the store is no git work tree's root or git fails. */
function gitOutput(store: Store): Buffer | null {
  if (!fs.existsSync(path.join(store.root, '.git'))) return null
  const out = spawnSync('git', [...GIT_ARGS, rel(store, 'cards')], {cwd: store.root, env: gitEnv(), maxBuffer: 1 << 30, timeout: 10_000})
  return out.error || out.status !== 0 ? null : out.stdout
}

/** [size, ctime] of a regular file, else null. */
function stampOf(file: string): [number, number] | null {
  try {
    const s = fs.lstatSync(file)
    return s.isFile() ? [s.size, s.ctimeMs] : null
  } catch {
    return null
  }
}

interface Fingerprint {
  digest: string
  /** The stamps taken: [path from the store's root, with /, size, ctime]; a file gone or not regular has none. */
  stamped: [string, number, number][]
}

const sha1 = (): ReturnType<typeof createHash> => createHash('sha1')

/** git's output, and the stamps of these card files (paths from the store's root). */
function gitFingerprint(store: Store, output: Buffer, paths: readonly string[]): Fingerprint {
  const hash = sha1().update('git\0').update(output)
  const stamped: Fingerprint['stamped'] = []
  for (const p of paths) {
    const s = stampOf(path.join(store.root, p))
    hash.update(`\0${p}\t${s ? `${s[0]}\t${s[1]}` : '-'}`)
    if (s) stamped.push([p, s[0], s[1]])
  }
  return {digest: hash.digest('hex'), stamped}
}

/** Every card file's stamp, as the full scan takes them (store si of the index's stores). */
function statFingerprint(store: Store, si: number): Fingerprint {
  const found = cardFileStats(path.join(storeDir(store), 'cards'))
  const stamps = stampsText(found.map(f => ({store: si, rel: `${f.type}/${f.name}`, file: f.file, size: f.size, mtime: f.mtime, ctime: f.ctime})))
  const stamped = found.map((f): [string, number, number] => [path.relative(store.root, f.file).split(path.sep).join('/'), f.size, f.ctime])
  return {digest: sha1().update('stat\0').update(stamps).digest('hex'), stamped}
}

/** The id git gives these bytes as a blob: what `git ls-files -s` lists for a clean tracked file. */
export const blobHash = (bytes: Buffer): string => sha1().update(`blob ${bytes.length}\0`).update(bytes).digest('hex')

/**
 * Whether the proof file vouches for this index as it stands: every store's fingerprint is the one
 * recorded. Anything else (no proof, another index, git failing) is a no, and the caller scans.
 */
export function proven(o: Opened, stores: readonly Store[]): boolean {
  try {
    const proof = JSON.parse(readSmallRegularFile(proofPath(stores[0]), PROOF_FILE, 1 << 24).toString('utf8')) as Proof
    if (proof.index !== identity(o) || proof.stores.length !== stores.length) return false
    const holds = stores.every((store, si) => {
      const {git, digest, stamped} = proof.stores[si]
      if (!git) return statFingerprint(store, si).digest === digest
      const output = gitOutput(store)
      return output !== null && gitFingerprint(store, output, stamped).digest === digest
    })
    // A proof that failed once fails until the index is proven again: the calls until then (a
    // background rebuild may take a while) spare the git call.
    if (!holds) fs.rmSync(proofPath(stores[0]), {force: true})
    return holds
  } catch {
    return false
  }
}

/** git's record of a card file: its tags (H, C, R, ?) and, when tracked, the blob id in git's index. */
interface Entry {
  tags: string
  hash?: string
}

/** Whether this path (from the store's root) is one the full scan stamps: cards/<type>/<name>.md. */
function isCardPath(cards: string, p: string): boolean {
  if (!p.startsWith(`${cards}/`)) return false
  const rest = p.slice(cards.length + 1)
  const slash = rest.indexOf('/')
  if (slash < 0 || rest.indexOf('/', slash + 1) >= 0) return false
  const name = rest.slice(slash + 1)
  return (CARD_TYPES as readonly string[]).includes(rest.slice(0, slash)) && name.endsWith('.md') && !name.startsWith('.')
}

/** The card files in git's output by path, with their tags; null when one has a tag or stage that gives no proof. */
function cardEntries(store: Store, output: Buffer): Map<string, Entry> | null {
  const cards = rel(store, 'cards')
  const out = new Map<string, Entry>()
  for (const r of output.toString('utf8').split('\0')) {
    if (!r) continue
    const untracked = r.startsWith('? ')
    const tab = r.indexOf('\t')
    const p = untracked ? r.slice(2) : r.slice(tab + 1)
    if (!isCardPath(cards, p)) continue
    const [tag, mode, hash, stage] = untracked ? ['?'] : r.slice(0, tab).split(' ')
    // A link or a submodule is never a card (the scan never follows links): git's record of it is in the digest alone.
    if (!untracked && !mode?.startsWith('100')) continue
    if (!'HCR?'.includes(tag) || (!untracked && (stage !== '0' || hash?.length !== 40))) return null
    const e = out.get(p)
    if (e) e.tags += tag
    else out.set(p, {tags: tag, ...(untracked ? {} : {hash})})
  }
  return out
}

/** A card file as the index holds it. */
interface Indexed {
  size: number
  ctime: number
  blob?: string
}

/**
 * Records the proof for an index just found or built fresh, when each store's fingerprint checks
 * against it (above); else removes any old proof. `since`: Date.now() before the caller's own scan;
 * no stamp taken here may be racy against it. A failure to write costs speed, not correctness.
 */
export function vouch(o: Opened, stores: readonly Store[], since: number, beforeWrite?: () => void): void {
  const file = proofPath(stores[0])
  try {
    const proof: Proof = {index: identity(o), stores: []}
    const indexed = indexedFiles(o, stores)
    for (const [si, store] of stores.entries()) {
      const output = gitOutput(store)
      const entries = output && cardEntries(store, output)
      let entry: Proof['stores'][number] | null
      if (output && entries) {
        // Stamped here: what git cannot vouch for, and what it sees through a filter.
        const own = [...entries].filter(([p, e]) => !e.tags.includes('R') && (e.tags !== 'H' || indexed[si].get(p)?.blob !== e.hash)).map(([p]) => p)
        const f = gitFingerprint(store, output, own)
        const stampedAll = f.stamped.length === own.length
        entry = stampedAll && checks(f, indexed[si], since) && sameFiles(entries, indexed[si]) ? {git: true, digest: f.digest, stamped: own} : null
      } else {
        const f = statFingerprint(store, si)
        entry = checks(f, indexed[si], since) && f.stamped.length === indexed[si].size ? {git: false, digest: f.digest, stamped: []} : null
      }
      if (!entry) {
        fs.rmSync(file, {force: true})
        return
      }
      proof.stores.push(entry)
    }
    beforeWrite?.()
    writeFileAtomic(file, JSON.stringify(proof), {durable: false})
  } catch {
    // Unreadable regions, or a write that fails: the next call scans, and vouches again.
  }
}

/** The index's card files per store, by path from the store's root. */
function indexedFiles(o: Opened, stores: readonly Store[]): Map<string, Indexed>[] {
  const files = JSON.parse(region(o, 'files').toString('utf8')) as FileEntry[]
  const indexed = stores.map(() => new Map<string, Indexed>())
  region(o, 'stamps').toString('utf8').split('\n').forEach((line, k) => {
    if (!line) return
    const [si, relPath, size, ctime] = line.split('\t')
    indexed[Number(si)].set(`${rel(stores[Number(si)], 'cards')}/${relPath}`, {size: Number(size), ctime: Number(ctime), blob: files[k]?.blob})
  })
  return indexed
}

/** Every file stamped here has the stamp the index has, and no such stamp is racy. */
function checks(f: Fingerprint, indexed: Map<string, Indexed>, since: number): boolean {
  return f.stamped.every(([p, size, ctime]) => !racy(ctime, since) && indexed.get(p)?.size === size && indexed.get(p)?.ctime === ctime)
}

/** git lists the index's card files and no others, but deleted ones. */
function sameFiles(entries: Map<string, Entry>, indexed: Map<string, Indexed>): boolean {
  let seen = 0
  for (const [p, e] of entries) {
    if (e.tags.includes('R')) continue
    const i = indexed.get(p)
    if (!i) return false
    seen++
  }
  return seen === indexed.size
}
