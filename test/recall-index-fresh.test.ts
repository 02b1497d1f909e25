import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {racy, RACY_MS} from '../src/recall/format.js'
import {parseHead} from '../src/recall/read.js'
import {pinsOf, unpinned} from '../src/recall/fresh.js'
import {git, initRepo, tempDir} from './helpers.js'
import {
  cardFile,
  cardsDir,
  current,
  hookView,
  indexFileOf,
  libraryRepo,
  plantCard,
  seen,
} from './recall-index-helpers.js'

/**
 * Edits made around cairn (an editor writing in place, a rename, a delete, a branch switch, a pull,
 * an untracked or ignored card) are seen by the next hook-mode open (as the session hooks open it, building
 * a small index inline), and only then rebuilt.
 */
describe('recall index freshness: changes made outside cairn', () => {
  it('an in-place edit that keeps the size, and the mtime set back, is seen through the ctime', async () => {
    const repo = await libraryRepo()
    const file = cardFile(repo, 'alpha-card')
    // A whole-second mtime, so that setting it back gives the very same stamp.
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000)
    // Past the racy window, so the stamp alone vouches for the file: no pin.
    await new Promise(resolve => setTimeout(resolve, RACY_MS.fine + 50))
    await current(repo, ['alpha-card: Alpha title one', 'beta-card: Beta title one'])
    const before = fs.statSync(file)
    const edited = fs.readFileSync(file, 'utf8').replace('Alpha title one', 'Alpha title two')
    expect(edited.length).toBe(before.size)
    const fd = fs.openSync(file, 'r+')
    fs.writeSync(fd, edited, 0)
    fs.closeSync(fd)
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000)
    expect(fs.statSync(file)).toMatchObject({size: before.size, mtimeMs: before.mtimeMs, ino: before.ino})
    await seen(repo, ['alpha-card: Alpha title two', 'beta-card: Beta title one'])
  })

  it('a card written just before the index was built is pinned by its content: unchanged it stays fresh, edited at once it is seen', async () => {
    const repo = await initRepo()
    plantCard(cardsDir(repo), 'alpha-card', {title: 'Alpha title one'})
    expect((await hookView(repo)).rebuilt).toBe(true)
    const file = cardFile(repo, 'alpha-card')
    const {header} = parseHead(fs.readFileSync(indexFileOf(repo)))!
    // Written within the racy window of the scan, so its stamp cannot vouch for it: its content does.
    expect(racy(fs.statSync(file).ctimeMs, header.scanned)).toBe(true)
    expect(Object.keys(header.pins)).toContain(file)
    expect(await hookView(repo)).toEqual({rebuilt: false, stale: false, catalog: ['alpha-card: Alpha title one']})
    // The same size, written in place at once: often in the same clock tick, so with the same stamp.
    const fd = fs.openSync(file, 'r+')
    fs.writeSync(fd, fs.readFileSync(file, 'utf8').replace('Alpha title one', 'Alpha title two'), 0)
    fs.closeSync(fd)
    expect((await hookView(repo)).catalog).toEqual(['alpha-card: Alpha title two'])
  })

  it('a pinned file is caught by its content alone: same size, same stamp, other bytes', () => {
    const dir = tempDir('cairn-pins-')
    const file = path.join(dir, 'card.md')
    fs.writeFileSync(file, 'title: Alpha title one\n')
    const pins = pinsOf([file])
    expect(unpinned([file], pins)).toBe(0)
    fs.writeFileSync(file, 'title: Alpha title two\n')
    expect(unpinned([file], pins)).toBe(1)
    // A file with no pin, or gone since, counts as changed too.
    expect(unpinned([file], {})).toBe(1)
    fs.rmSync(file)
    expect(unpinned([file], pins)).toBe(1)
  })

  it('a change time near the scan is racy: within 100 ms on a fine clock, 2 s on whole seconds', () => {
    const scanned = 1_700_000_000_500
    expect(racy(scanned - RACY_MS.fine + 1, scanned)).toBe(true)
    expect(racy(scanned - RACY_MS.fine - 1.5, scanned)).toBe(false)
    expect(racy(1_699_999_999_000, scanned)).toBe(true)
    expect(racy(1_699_999_998_000, scanned)).toBe(false)
    expect(racy(scanned + 5000.25, scanned)).toBe(true)
  })

  it('a rename and a delete are seen', async () => {
    const repo = await libraryRepo()
    repo.git('mv', '.cairn/cards/guideline/alpha-card.md', '.cairn/cards/guideline/gamma-card.md')
    const gamma = cardFile(repo, 'gamma-card')
    fs.writeFileSync(gamma, fs.readFileSync(gamma, 'utf8').replace('id: alpha-card', 'id: gamma-card'))
    await seen(repo, ['beta-card: Beta title one', 'gamma-card: Alpha title one'])
    fs.rmSync(cardFile(repo, 'beta-card'))
    await seen(repo, ['gamma-card: Alpha title one'])
  })

  it('a branch switch is seen, and so is the switch back', async () => {
    const repo = await libraryRepo()
    repo.git('checkout', '-q', '-b', 'other')
    plantCard(cardsDir(repo), 'alpha-card', {title: 'Alpha on the other branch'})
    plantCard(cardsDir(repo), 'delta-card', {title: 'Delta title'})
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'other cards')
    repo.git('checkout', '-q', 'main')
    // The files git wrote back hold what the index was built from.
    await current(repo, ['alpha-card: Alpha title one', 'beta-card: Beta title one'])
    repo.git('checkout', '-q', 'other')
    await seen(repo, ['alpha-card: Alpha on the other branch', 'beta-card: Beta title one', 'delta-card: Delta title'])
    repo.git('checkout', '-q', 'main')
    await seen(repo, ['alpha-card: Alpha title one', 'beta-card: Beta title one'])
  })

  it("a pull of another clone's edit and new card is seen", async () => {
    const repo = await libraryRepo()
    const remote = path.join(tempDir(), 'remote.git')
    git(path.dirname(remote), 'init', '-q', '--bare', '-b', 'main', remote)
    repo.git('remote', 'add', 'origin', remote)
    repo.git('push', '-q', '-u', 'origin', 'main')
    const other = path.join(tempDir(), 'other')
    git(path.dirname(other), 'clone', '-q', remote, other)
    git(other, 'config', 'user.name', 'Other')
    git(other, 'config', 'user.email', 'other@example.com')
    plantCard(path.join(other, '.cairn'), 'beta-card', {title: 'Beta edited elsewhere'})
    plantCard(path.join(other, '.cairn'), 'epsilon-card', {title: 'Epsilon title'})
    git(other, 'add', '-A')
    git(other, 'commit', '-q', '-m', 'from the other clone')
    git(other, 'push', '-q', 'origin', 'main')
    repo.git('pull', '-q', '--ff-only')
    await seen(repo, ['alpha-card: Alpha title one', 'beta-card: Beta edited elsewhere', 'epsilon-card: Epsilon title'])
  })

  it('an untracked card and a card git ignores are seen', async () => {
    const repo = await libraryRepo()
    plantCard(cardsDir(repo), 'zeta-card', {title: 'Zeta untracked'})
    await seen(repo, ['alpha-card: Alpha title one', 'beta-card: Beta title one', 'zeta-card: Zeta untracked'])
    repo.write('.gitignore', '.cairn/cards/guideline/eta-*\n')
    plantCard(cardsDir(repo), 'eta-card', {title: 'Eta ignored'})
    expect(repo.git('status', '--porcelain', '--', '.cairn/cards')).toBe('?? .cairn/cards/guideline/zeta-card.md\n')
    await seen(repo, [
      'alpha-card: Alpha title one',
      'beta-card: Beta title one',
      'eta-card: Eta ignored',
      'zeta-card: Zeta untracked',
    ])
  })
})
