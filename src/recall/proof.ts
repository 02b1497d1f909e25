import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {crc32} from 'node:zlib'
import {cardEntries, CHANGES, changesOf, type Entry, gitIndexStamp, gitOutput} from './git.js'
import {type Store, rel} from '../store/layout.js'
import type {FileEntry} from './format.js'
import {parseStamps, racy, stampsText} from './format.js'
import {foundIn} from './fresh.js'
import {type Opened, region} from './read.js'
import {readTextIn, removeFileIn, writeFileIn} from '../store/files/store-files.js'

/**
 * Freshness without a Node stat per card file. A Node lstat costs a Stats object and four Dates
 * (about 13 µs a file here, GC included); git compares its own stat cache in C. So each store has a
 * fingerprint of its card files:
 * - in a git work tree, the output of one `git ls-files -z --debug -v -s -m -d -o -- <cards>`: every
 *   tracked file with its blob id and the stat git recorded for it, the tracked ones that differ
 *   from git's index (C) or are deleted (R), and the untracked ones, ignored ones included (?); plus
 *   a stamp (size, ctime), taken here, of each card file git alone cannot vouch for (vouchedByGit):
 *   C and ?, a tracked file whose bytes are not git's blob (git sees it through a filter, as eol=lf
 *   sees a CRLF file), and one git must compare by content or recorded too recently;
 * - outside git, or where git gives no proof, the stamp of every card file, as the full scan takes.
 * While git's own index file is the one the proof saw, its entries are unchanged, so a warm call asks
 * git only for what differs from them (changed, deleted, untracked: a short listing, the quick check);
 * after git wrote its index (a commit, a checkout, git add) the whole listing is compared once.
 * The proof file beside the index holds each store's fingerprint once vouch has checked it against
 * the index: each file git vouches for has the blob the index was built from, each stamped file the
 * stamp the index has, none of those stamps racy, and git lists every card file the index holds and
 * no other. While every fingerprint stays the same, no card file changed: git sees an in-place edit
 * of a tracked file by its stat cache (and compares content where that cannot tell, as for its
 * racy entries), anything that rewrites git's index entry (git add, checkout, pull) changes the
 * recorded stat or blob id, and every other card file is stamped.
 * git runs with its stat checks forced on (trustctime, checkStat), fsmonitor and the untracked
 * cache off, case-sensitive paths, and none of the user's GIT_* variables. Where git cannot list
 * every card file (a nested repository or a submodule under cards/), or is told not to check one
 * (assume-unchanged, skip-worktree), or at a conflict, or in a SHA-256 repository, the store is
 * stamped file by file.
 */
export const PROOF_FILE = 'recall-index.proof'
const proofRel = (primary: Store): string => rel(primary, '.cache', PROOF_FILE)
const MAX_PROOF_BYTES = 1 << 24

interface Proof {
  /** Which index it vouches for (identity below). */
  index: string
  /** Per store, in the index's order. */
  stores: StoreProof[]
}

interface StoreProof {
  /** Fingerprinted by git, or stamped file by file. */
  git: boolean
  /** The fingerprint (git's whole listing, or every stamp). */
  digest: string
  /** The card files stamped here (git's listing only). */
  stamped: string[]
  /**
   * The quick check: while git's own index file is this one (gitIndexStamp), its entries are as
   * they were, so only what differs from them can have changed: `quick` digests git's list of
   * changed, deleted and untracked files (changes) with the same stamps.
   */
  gitIndex?: string
  quick?: string
}

/** An index file's identity: its scan time and the checksum of its block table, which covers its whole body. */
const identity = (o: Opened): string => `${o.header.scanned} ${crc32(o.crcs)}`

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
  /** The quick check's digest of the same state (StoreProof.quick). */
  quick?: string
}

const sha1 = (): ReturnType<typeof createHash> => createHash('sha1')

/** The stamps of these card files (paths from the store's root), as digested and as taken. */
function ownStamps(store: Store, paths: readonly string[]): {text: string; stamped: Fingerprint['stamped']} {
  let text = ''
  const stamped: Fingerprint['stamped'] = []
  for (const p of paths) {
    const s = stampOf(path.join(store.root, p))
    text += `\0${p}\t${s ? `${s[0]}\t${s[1]}` : '-'}`
    if (s) stamped.push([p, s[0], s[1]])
  }
  return {text, stamped}
}

/** git's whole listing, and the stamps of these card files; with the quick check's digest of the same. */
function gitFingerprint(store: Store, output: Buffer, paths: readonly string[]): Fingerprint {
  const own = ownStamps(store, paths)
  const digest = sha1().update('git\0').update(output).update(own.text).digest('hex')
  return {digest, stamped: own.stamped, quick: quickDigest(changesOf(output), own.text)}
}

const quickDigest = (changes: string, own: string): string =>
  sha1().update('changes\0').update(changes).update(own).digest('hex')

/**
 * An org layer's fingerprint: its pinned commit and its tree's place. The tree is made whole once for that commit
 * and never changed (store/org/), so while the layer's pin and place are the same its card files are too; no file
 * is stamped. `cairn doctor` checks a tree against its commit.
 */
function pinnedFingerprint(store: Store & {org: NonNullable<Store['org']>}): Fingerprint {
  return {
    digest: sha1().update('org\0').update(store.org.commit).update('\0').update(store.root).digest('hex'),
    stamped: [],
  }
}

/** Every card file's stamp, as the full scan takes them (store si of the index's stores); an org layer's pin. */
function statFingerprint(store: Store, si: number): Fingerprint {
  if (store.org) return pinnedFingerprint({...store, org: store.org})
  const found = foundIn(store, si)
  const stamps = stampsText(found)
  const stamped = found.map((f): [string, number, number] => [
    path.relative(store.root, f.file).split(path.sep).join('/'),
    f.size,
    f.ctime,
  ])
  return {digest: sha1().update('stat\0').update(stamps).digest('hex'), stamped}
}

/** The id git gives these bytes as a blob: what `git ls-files -s` lists for a clean tracked file. */
export const blobHash = (bytes: Buffer): string => sha1().update(`blob ${bytes.length}\0`).update(bytes).digest('hex')

/**
 * Whether the proof file vouches for this index as it stands: every store's fingerprint is the one
 * recorded. While git's index file is the one the proof saw, git's list of changes is enough (the
 * quick check); else the whole listing is compared, and when it still holds (git wrote its index
 * for other files: a commit, a checkout that left cards/ alone) the proof takes the new index file.
 * Anything else (no proof, another index, git failing) is a no, and the caller scans. A proof that
 * fails is removed: the calls until the next one spare the git call.
 */
export function proven(o: Opened, stores: readonly Store[]): boolean {
  const [base, file] = [stores[0].root, proofRel(stores[0])]
  try {
    const text = readTextIn(base, file, MAX_PROOF_BYTES)
    if (text === null) return false
    const proof = JSON.parse(text) as Proof
    if (proof.index !== identity(o) || proof.stores.length !== stores.length) return false
    let renewed = false
    const holds = stores.every((store, si) => {
      const p = proof.stores[si]
      if (!p.git) return statFingerprint(store, si).digest === p.digest
      const gitIndex = gitIndexStamp(store.root)
      if (gitIndex && gitIndex === p.gitIndex) {
        const changes = gitOutput(store, CHANGES)
        // git must have read that very index: one written meanwhile (a git add elsewhere) could hide an edit.
        return (
          changes !== null &&
          gitIndexStamp(store.root) === gitIndex &&
          quickDigest(changesOf(changes), ownStamps(store, p.stamped).text) === p.quick
        )
      }
      const output = gitOutput(store)
      const f = output && gitFingerprint(store, output, p.stamped)
      if (!f || f.digest !== p.digest) return false
      if (gitIndex) {
        proof.stores[si] = {...p, gitIndex, quick: f.quick}
        renewed = true
      }
      return true
    })
    if (!holds) removeFileIn(base, file)
    else if (renewed) writeFileIn(base, file, JSON.stringify(proof), {durable: false})
    return holds
  } catch {
    return false
  }
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
  const [base, file] = [stores[0].root, proofRel(stores[0])]
  try {
    const proof: Proof = {index: identity(o), stores: []}
    const indexed = indexedFiles(o, stores)
    for (const [si, store] of stores.entries()) {
      // Stamped before git reads its index: should git write it meanwhile, the next call compares the whole listing.
      const gitIndex = gitIndexStamp(store.root)
      const output = gitOutput(store)
      const entries = output && cardEntries(store, output)
      let entry: Proof['stores'][number] | null
      if (output && entries) {
        const own = [...entries]
          .filter(([p, e]) => !e.tags.includes('R') && !vouchedByGit(e, indexed[si].get(p), since))
          .map(([p]) => p)
        const f = gitFingerprint(store, output, own)
        // Stamped here, each card file git cannot vouch for; one that is no regular file (a link) must be no card of the index.
        const regular = new Set(f.stamped.map(([p]) => p))
        const irregular = new Set(own.filter(p => !regular.has(p)))
        const sound = [...irregular].every(p => !indexed[si].has(p))
        entry =
          sound && checks(f, indexed[si], since) && sameFiles(entries, indexed[si], irregular)
            ? {git: true, digest: f.digest, stamped: own, ...(gitIndex ? {gitIndex, quick: f.quick} : {})}
            : null
      } else {
        const f = statFingerprint(store, si)
        // An org layer's index records came from its tree, which never changes: its pin vouches for them.
        entry =
          store.org || (checks(f, indexed[si], since) && f.stamped.length === indexed[si].size)
            ? {git: false, digest: f.digest, stamped: []}
            : null
      }
      if (!entry) {
        removeFileIn(base, file)
        return
      }
      proof.stores.push(entry)
    }
    beforeWrite?.()
    writeFileIn(base, file, JSON.stringify(proof), {durable: false})
  } catch {
    // Unreadable regions, or a write that fails: the next call scans, and vouches again.
  }
}

/** The index's card files per store, by path from the store's root. */
function indexedFiles(o: Opened, stores: readonly Store[]): Map<string, Indexed>[] {
  const files = JSON.parse(region(o, 'files').toString('utf8')) as FileEntry[]
  const indexed = stores.map(() => new Map<string, Indexed>())
  parseStamps(region(o, 'stamps').toString('utf8')).forEach(({store, rel: relPath, size, ctime}, k) => {
    indexed[store].set(`${rel(stores[store], 'cards')}/${relPath}`, {size, ctime, blob: files[k]?.blob})
  })
  return indexed
}

/** Every file stamped here has the stamp the index has, and no such stamp is racy. */
function checks(f: Fingerprint, indexed: Map<string, Indexed>, since: number): boolean {
  return f.stamped.every(
    ([p, size, ctime]) => !racy(ctime, since) && indexed.get(p)?.size === size && indexed.get(p)?.ctime === ctime,
  )
}

/** git lists the index's card files and no others, but deleted ones and those that are no regular file. */
function sameFiles(
  entries: Map<string, Entry>,
  indexed: Map<string, Indexed>,
  irregular: ReadonlySet<string>,
): boolean {
  let seen = 0
  for (const [p, e] of entries) {
    if (e.tags.includes('R') || irregular.has(p)) continue
    if (!indexed.has(p)) return false
    seen++
  }
  return seen === indexed.size
}

/**
 * Whether git alone vouches for a file the index holds: git lists it as clean, with the blob the
 * index was built from, and what git recorded of it is the index's size and not racy against
 * `since`. A size of 0 is git's mark for an entry it must compare by content, which it does through
 * its filters (eol=lf), so a rewrite with other line endings would not show.
 */
function vouchedByGit(e: Entry, i: Indexed | undefined, since: number): boolean {
  return (
    e.tags === 'H' && !!i && i.blob === e.hash && e.size === i.size && e.ctime !== undefined && !racy(e.ctime, since)
  )
}
