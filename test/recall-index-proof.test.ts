import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {RACY_MS} from '../src/recall/format.js'
import {TMP_MARK} from '../src/store/files/fsutil.js'
import {PROOF_FILE} from '../src/recall/proof.js'
import {cli, tempDir} from './helpers.js'
import {
  cardFile,
  cardsDir,
  current,
  hookView,
  indexFileOf,
  libraryRepo,
  plantCard,
  proofOf,
  provenNow,
  seen,
} from './recall-index-helpers.js'

/**
 * The warm hook's freshness check without a stat per card (proof.ts): one git call
 * fingerprints the card files, and the proof beside the index says which fingerprint the index was
 * checked against. Every change that the full scan sees must break the fingerprint, including the
 * ones git alone would miss; the full scan then answers, and vouches again.
 */
const ALPHA = 'alpha-card: Alpha title one'
const BETA = 'beta-card: Beta title one'
const hookPayload = (cwd: string, session: string, prompt: string): string =>
  JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  })
const settle = () => new Promise(resolve => setTimeout(resolve, RACY_MS.fine + 50))

/** Rewrites a card in place with a same-length title, then sets its mtime back: only its ctime tells. */
function editInPlace(file: string, from: string, to: string): void {
  expect(to.length).toBe(from.length)
  // A whole-second mtime, so that setting it back gives the very same one.
  fs.utimesSync(file, 1_700_000_000, 1_700_000_000)
  const before = fs.statSync(file)
  const fd = fs.openSync(file, 'r+')
  fs.writeSync(fd, fs.readFileSync(file, 'utf8').replace(from, to), 0)
  fs.closeSync(fd)
  fs.utimesSync(file, 1_700_000_000, 1_700_000_000)
  expect(fs.statSync(file)).toMatchObject({size: before.size, mtimeMs: before.mtimeMs})
}

/** The identity of git's index file, as the proof records it: its stat and the checksum at its end. */
function gitIndexOf(repo: Awaited<ReturnType<typeof libraryRepo>>): string {
  const file = path.join(repo.dir, '.git', 'index')
  const s = fs.statSync(file, {bigint: true})
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${fs.readFileSync(file).subarray(-20).toString('hex')}`
}

/** The next call answers from a proven index: nothing rebuilt, and the proof holds. */
async function proven(repo: Awaited<ReturnType<typeof libraryRepo>>, catalog: string[]): Promise<void> {
  await settle()
  expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog})
  expect(provenNow(repo)).toBe(true)
}

describe('recall index proof: freshness by git', () => {
  it('a fresh index is proven by git; an in-place edit that keeps size and mtime breaks the proof and is seen', async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    const hex = expect.stringMatching(/^[0-9a-f]{40}$/)
    expect(proofOf(repo).stores).toEqual([
      {git: true, digest: hex, stamped: [], gitIndex: gitIndexOf(repo), quick: hex},
    ])
    editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title one', 'Alpha title two')
    expect(provenNow(repo)).toBe(false)
    // A proof that failed is gone: the calls until the next proof spare the git call.
    expect(fs.existsSync(path.join(path.dirname(indexFileOf(repo)), PROOF_FILE))).toBe(false)
    await seen(repo, ['alpha-card: Alpha title two', BETA])
    await proven(repo, ['alpha-card: Alpha title two', BETA])
  })

  it("a commit that leaves cards/ alone keeps the proof, which takes git's new index file for its quick check", async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    const before = proofOf(repo).stores[0]
    repo.write('src/app.ts', 'export {}\n')
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'code')
    expect(gitIndexOf(repo)).not.toBe(before.gitIndex)
    expect(provenNow(repo)).toBe(true)
    expect(proofOf(repo).stores[0]).toEqual({...before, gitIndex: gitIndexOf(repo)})
    // The quick check now holds, and still sees an edit.
    expect(provenNow(repo)).toBe(true)
    editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title one', 'Alpha title two')
    expect(provenNow(repo)).toBe(false)
  })

  it("an edit staged by another process while git runs the quick check is not missed (git's index is checked again after)", async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title one', 'Alpha title two')
    // A git that, for the quick check's listing alone, first stages every card: as a commit in another session would.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], {encoding: 'utf8'}).trim()
    const bin = tempDir()
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" -s "*) ;; *" -m "*) "${realGit}" add -A .cairn/cards ;; esac\nexec "${realGit}" "$@"\n`,
      {mode: 0o755},
    )
    const saved = process.env.PATH
    process.env.PATH = `${bin}${path.delimiter}${saved}`
    try {
      expect(provenNow(repo)).toBe(false)
    } finally {
      process.env.PATH = saved
    }
    expect(repo.git('status', '--porcelain')).toBe('M  .cairn/cards/guideline/alpha-card.md\n')
    await seen(repo, ['alpha-card: Alpha title two', BETA])
  })

  it('an edit staged with git add (same size, mtime set back) is seen: the blob changed', async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    editInPlace(cardFile(repo, 'beta-card'), 'Beta title one', 'Beta title two')
    repo.git('add', '-A')
    expect(repo.git('status', '--porcelain')).toBe('M  .cairn/cards/guideline/beta-card.md\n')
    await seen(repo, [ALPHA, 'beta-card: Beta title two'])
    await proven(repo, [ALPHA, 'beta-card: Beta title two'])
  })

  it('a stat-only change (touch, or a checkout writing the same bytes) needs no rebuild', async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    const file = cardFile(repo, 'alpha-card')
    fs.writeFileSync(file, fs.readFileSync(file))
    await current(repo, [ALPHA, BETA])
    await proven(repo, [ALPHA, BETA])
  })

  it('a CRLF card that git keeps as LF (eol=lf) is stamped by cairn, so an edit git cannot see is seen', async () => {
    const repo = await libraryRepo()
    // The copied cards' mtimes are now: an index written in the same second would find them racy (git re-reads a
    // racy file, so cairn stamps it too). A second later, only the CRLF card is one git cannot vouch for.
    await new Promise(resolve => setTimeout(resolve, 1100))
    const file = plantCard(cardsDir(repo), 'gamma-card', {title: 'Gamma title one'})
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'))
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'crlf card')
    // git stores it with LF, so its blob id is not that of the bytes on disk.
    expect(repo.git('ls-files', '--eol', '--', '.cairn/cards/guideline/gamma-card.md')).toMatch(/^i\/lf\s+w\/crlf/)
    await seen(repo, [ALPHA, BETA, 'gamma-card: Gamma title one'])
    await proven(repo, [ALPHA, BETA, 'gamma-card: Gamma title one'])
    expect(proofOf(repo).stores[0].stamped).toEqual(['.cairn/cards/guideline/gamma-card.md'])
    // Line endings alone: git sees nothing, the stamp does.
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').replace('Gamma title one', 'Gamma title two'),
    )
    expect(repo.git('status', '--porcelain')).toBe(' M .cairn/cards/guideline/gamma-card.md\n')
    await seen(repo, [ALPHA, BETA, 'gamma-card: Gamma title two'])
  })

  it('a link committed under cards/ is never read, and does not stop the proof', async () => {
    const repo = await libraryRepo()
    fs.symlinkSync('alpha-card.md', path.join(cardsDir(repo), 'cards', 'guideline', 'link-card.md'))
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'a link')
    await current(repo, [ALPHA, BETA])
    await proven(repo, [ALPHA, BETA])
  })

  it('a card rewritten with CRLF and added is seen, though git keeps the same LF blob (eol=lf)', async () => {
    const repo = await libraryRepo()
    await proven(repo, [ALPHA, BETA])
    // git vouches for both cards: none is stamped, so only git's listing can see the rewrite.
    expect(proofOf(repo).stores[0].stamped).toEqual([])
    const file = cardFile(repo, 'alpha-card')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'))
    repo.git('add', '-A')
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(provenNow(repo)).toBe(false)
    expect((await hookView(repo)).rebuilt).toBe(true)
    await proven(repo, [ALPHA, BETA])
  })

  it('an entry git must compare by content (size 0 in its index) is stamped: a CRLF rewrite git calls clean is seen', async () => {
    const repo = await libraryRepo()
    const file = cardFile(repo, 'alpha-card')
    const committed = fs.readFileSync(file)
    fs.writeFileSync(file, 'not a card\n')
    repo.git('add', '-A')
    repo.git('restore', '--staged', '.')
    fs.writeFileSync(file, committed)
    expect(repo.git('ls-files', '--debug', '--', '.cairn/cards/guideline/alpha-card.md')).toMatch(/size: 0\t/)
    await current(repo, [ALPHA, BETA])
    await proven(repo, [ALPHA, BETA])
    expect(proofOf(repo).stores[0].stamped).toEqual(['.cairn/cards/guideline/alpha-card.md'])
    fs.writeFileSync(file, committed.toString('utf8').replace(/\n/g, '\r\n'))
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(provenNow(repo)).toBe(false)
    expect((await hookView(repo)).rebuilt).toBe(true)
  })

  it('a repository nested in cards/, whose files git does not list, leaves the store stamped: a card added there is seen', async () => {
    const repo = await libraryRepo()
    const nested = path.join(cardsDir(repo), 'cards', 'pitfall')
    fs.mkdirSync(nested, {recursive: true})
    repo.git('-C', nested, 'init', '-q')
    await current(repo, [ALPHA, BETA])
    await proven(repo, [ALPHA, BETA])
    expect(proofOf(repo).stores[0].git).toBe(false)
    plantCard(cardsDir(repo), 'gamma-card', {type: 'pitfall', title: 'Gamma title one'})
    await seen(repo, [ALPHA, BETA, 'gamma-card: Gamma title one'])
  })

  it('a repository set to ignore case still lists a new card whose name differs from a tracked one in case alone', async () => {
    const repo = await libraryRepo()
    repo.git('config', 'core.ignorecase', 'true')
    await proven(repo, [ALPHA, BETA])
    const upper = path.join(path.dirname(cardFile(repo, 'alpha-card')), 'ALPHA-CARD.md')
    fs.writeFileSync(upper, fs.readFileSync(cardFile(repo, 'alpha-card')))
    expect(provenNow(repo)).toBe(false)
  })

  it('an untracked card is stamped: an in-place edit of it is seen', async () => {
    const repo = await libraryRepo()
    const file = plantCard(cardsDir(repo), 'zeta-card', {title: 'Zeta title one'})
    await seen(repo, [ALPHA, BETA, 'zeta-card: Zeta title one'])
    await proven(repo, [ALPHA, BETA, 'zeta-card: Zeta title one'])
    expect(proofOf(repo).stores[0].stamped).toEqual(['.cairn/cards/guideline/zeta-card.md'])
    editInPlace(file, 'Zeta title one', 'Zeta title two')
    await seen(repo, [ALPHA, BETA, 'zeta-card: Zeta title two'])
  })

  it('a card git is told not to check (assume-unchanged) leaves the store stamped file by file, and its edit is seen', async () => {
    const repo = await libraryRepo()
    repo.git('update-index', '--assume-unchanged', '.cairn/cards/guideline/alpha-card.md')
    editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title one', 'Alpha title two')
    expect(repo.git('status', '--porcelain')).toBe('')
    await seen(repo, ['alpha-card: Alpha title two', BETA])
    await proven(repo, ['alpha-card: Alpha title two', BETA])
    expect(proofOf(repo).stores[0]).toMatchObject({git: false, stamped: []})
    editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title two', 'Alpha title six')
    await seen(repo, ['alpha-card: Alpha title six', BETA])
  })

  it("the user's GIT_* variables and a repo that trusts no ctime do not blind it", async () => {
    const repo = await libraryRepo()
    repo.git('config', 'core.trustctime', 'false')
    repo.git('config', 'core.checkStat', 'minimal')
    await proven(repo, [ALPHA, BETA])
    // A copy of the work tree that never changes, which GIT_WORK_TREE would have git look at instead.
    const copy = path.join(tempDir(), 'copy')
    fs.cpSync(repo.dir, copy, {recursive: true})
    const saved = {GIT_DIR: process.env.GIT_DIR, GIT_WORK_TREE: process.env.GIT_WORK_TREE}
    Object.assign(process.env, {GIT_DIR: path.join(copy, '.git'), GIT_WORK_TREE: copy})
    try {
      editInPlace(cardFile(repo, 'alpha-card'), 'Alpha title one', 'Alpha title two')
      await seen(repo, ['alpha-card: Alpha title two', BETA])
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })

  it('the personal store gets its own fingerprint: its cards, never committed, are stamped', async () => {
    const repo = await libraryRepo()
    const home = repo.env.CAIRN_HOME as string
    fs.mkdirSync(home, {recursive: true})
    fs.writeFileSync(path.join(home, 'config.yaml'), 'schema: cairn/config@1\n')
    const file = plantCard(home, 'personal-card', {title: 'Personal title one', scope: {level: 'global'}})
    repo.git('-C', home, 'init', '-q')
    await seen(repo, [ALPHA, BETA, 'personal-card: Personal title one'])
    await proven(repo, [ALPHA, BETA, 'personal-card: Personal title one'])
    expect(proofOf(repo).stores.map(s => [s.git, s.stamped])).toEqual([
      [true, []],
      [true, ['cards/guideline/personal-card.md']],
    ])
    editInPlace(file, 'Personal title one', 'Personal title two')
    await seen(repo, [ALPHA, BETA, 'personal-card: Personal title two'])
  })

  it('concurrent hook processes after a change leave one valid proof and no temp file', async () => {
    const repo = await libraryRepo()
    plantCard(cardsDir(repo), 'alpha-card', {title: 'Alpha title new'})
    repo.git('commit', '-qam', 'edit')
    await settle()
    const input = hookPayload(repo.dir, 'concurrent', 'alpha card')
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() =>
        cli(['hook', 'user-prompt-submit', '--agent', 'claude'], {cwd: repo.dir, env: repo.env, input}),
      ),
    )
    expect(runs.map(r => r.code)).toEqual([0, 0, 0, 0])
    expect(fs.readdirSync(path.dirname(indexFileOf(repo))).filter(n => n.includes(TMP_MARK))).toEqual([])
    await proven(repo, ['alpha-card: Alpha title new', BETA])
  })
})
