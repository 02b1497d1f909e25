import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {list} from '../src/app/list.js'
import {lint} from '../src/app/lint.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve} from '../src/app/review.js'
import {parseCard} from '../src/domain/card/format.js'
import {CairnError} from '../src/domain/errors.js'
import {createContext} from '../src/context.js'
import {readRegularFile} from '../src/store/files/safe-read.js'
import {card, FIXED_NOW, sandboxEnv, tempDir} from './helpers.js'
import {recallRepo} from './recall-helpers.js'

const PENDING = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const ACTIVE = '.cairn/cards/guideline/git-commit-safety.md'

/** A clone of dir made with core.autocrlf=true, as Git for Windows checks a repo out by default. */
function crlfClone(dir: string) {
  const target = path.join(tempDir(), 'clone')
  const env = sandboxEnv(target)
  execFileSync('git', ['clone', '-q', '-c', 'core.autocrlf=true', dir, target], {env})
  for (const [k, v] of [
    ['user.name', 'Win User'],
    ['user.email', 'win@example.com'],
    ['commit.gpgsign', 'false'],
  ]) {
    execFileSync('git', ['config', k, v], {cwd: target, env})
  }
  const run = (...args: string[]) => execFileSync('git', args, {cwd: target, env, encoding: 'utf8'})
  const ctx = () => createContext({cwd: target, env: env as Record<string, string>, now: FIXED_NOW, actor: 'tester'})
  return {dir: target, run, ctx}
}

describe('a store checked out with core.autocrlf=true', () => {
  it('passes lint, recall and approve', async () => {
    const repo = await recallRepo()
    await propose(repo.ctx(), {fields: card()})
    // A store made before cairn wrote `* text eol=lf`: the attribute would otherwise keep LF.
    fs.rmSync(path.join(repo.dir, '.cairn/.gitattributes'), {force: true})
    repo.git('add', '-A')
    repo.git('commit', '-q', '--allow-empty', '-m', 'store without eol attribute')
    const clone = crlfClone(repo.dir)
    for (const [rel, format] of [
      [PENDING, 'cairn/card@5'],
      [ACTIVE, 'cairn/card@4'],
    ]) {
      expect(fs.readFileSync(path.join(clone.dir, rel), 'utf8')).toMatch(new RegExp(`^---\r\nschema: ${format}\r\n`))
    }

    expect(await lint(clone.ctx())).toMatchObject({checked: 4, errors: 0})
    const byRipgrep = await recall(clone.ctx(), {prompt: 'check git status before the commit'})
    expect(byRipgrep.cards.map(c => [c.id, c.title])).toEqual([
      ['git-commit-safety', 'Keep unrelated changes out of a commit'],
    ])
    expect(byRipgrep.text).not.toContain('\r')
    const byIndex = await promptRecall(clone.ctx(), {prompt: 'check git status before the commit'})
    expect(byIndex.cards.map(c => [c.id, c.title])).toEqual([
      ['git-commit-safety', 'Keep unrelated changes out of a commit'],
    ])
    expect(byIndex.text).toBe(byRipgrep.text)

    const result = await approve(clone.ctx(), {ids: ['deepmerge-array-replace-trap']})
    expect(result.commits).toEqual({project: expect.stringMatching(/^[0-9a-f]{40}$/)})
    const approved = fs.readFileSync(
      path.join(clone.dir, '.cairn/cards/pitfall/deepmerge-array-replace-trap.md'),
      'utf8',
    )
    // patchCard keeps a CRLF file CRLF: no line of the result ends in a bare LF.
    expect(approved.replace(/\r\n/g, '')).not.toContain('\n')
    expect(parseCard(approved, 'x.md')).toMatchObject({status: 'active', approved: {by: 'tester', at: FIXED_NOW}})
    expect(clone.run('show', 'HEAD:.cairn/cards/pitfall/deepmerge-array-replace-trap.md')).not.toContain('\r')
    expect(clone.run('status', '--porcelain')).toBe('')
    expect(await lint(clone.ctx())).toMatchObject({errors: 0})
  })
})

describe('symbolic links under .cairn/ are never followed', () => {
  it('a committed card linked to /dev/zero is a lint error, unreadable to list, and recall still answers', async () => {
    const repo = await recallRepo()
    const link = '.cairn/cards/pitfall/zero-device-link-trap.md'
    fs.mkdirSync(path.join(repo.dir, '.cairn/cards/pitfall'))
    fs.symlinkSync('/dev/zero', path.join(repo.dir, link))
    repo.git('add', link)
    repo.git('commit', '-q', '-m', 'a link to /dev/zero')

    const report = await lint(repo.ctx())
    expect(report).toMatchObject({checked: 4, errors: 1})
    expect(report.problems.filter(p => p.severity === 'error')).toEqual([
      expect.objectContaining({
        file: link,
        message: expect.stringContaining('is a symbolic link; cairn never follows links under .cairn/'),
      }),
    ])
    expect(await list(repo.ctx())).toMatchObject({unreadable: [link]})
    expect((await list(repo.ctx())).cards.map(c => c.id).sort()).toEqual([
      'browser-validation',
      'git-commit-safety',
      'release-tarball-smoke-test',
    ])
    const prompt = 'check git status before the commit'
    expect((await recall(repo.ctx(), {prompt})).cards.map(c => c.id)).toEqual(['git-commit-safety'])
    expect((await promptRecall(repo.ctx(), {prompt})).cards.map(c => c.id)).toEqual(['git-commit-safety'])
  })

  it('a card linked to an outside file, and a linked type directory, are never read by recall', async () => {
    const repo = await recallRepo()
    const source = (await list(repo.ctx())).cards.find(c => c.id === 'release-tarball-smoke-test')!.path
    const planted = repo
      .read(source)
      .replace(/release-tarball-smoke-test/g, 'planted-outside-card')
      .replace(/tarball install/g, 'zebra crossing')
    const inside = path.join(repo.dir, '.cairn/cards/guideline/planted-outside-card.md')
    const prompt = 'zebra crossing'
    const found = async () => [
      (await recall(repo.ctx(), {prompt})).cards.map(c => c.id),
      (await promptRecall(repo.ctx(), {prompt})).cards.map(c => c.id),
    ]
    fs.writeFileSync(inside, planted)
    expect(await found()).toEqual([['planted-outside-card'], ['planted-outside-card']]) // as a regular file, it is found

    const outside = tempDir()
    fs.renameSync(inside, path.join(outside, 'planted-outside-card.md'))
    fs.symlinkSync(path.join(outside, 'planted-outside-card.md'), inside)
    expect(await found()).toEqual([[], []])
    expect((await list(repo.ctx())).cards.map(c => c.id)).not.toContain('planted-outside-card')
    expect((await lint(repo.ctx())).problems).toContainEqual(
      expect.objectContaining({
        file: '.cairn/cards/guideline/planted-outside-card.md',
        severity: 'error',
        message: expect.stringContaining('is a symbolic link'),
      }),
    )

    fs.rmSync(inside)
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/cards/model'))
    expect(await found()).toEqual([[], []])
    expect((await list(repo.ctx())).cards.map(c => c.id)).not.toContain('planted-outside-card')
  })

  it('a linked cards/ directory is not searched', async () => {
    const repo = await recallRepo()
    const outside = path.join(tempDir(), 'cards')
    fs.renameSync(path.join(repo.dir, '.cairn/cards'), outside)
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/cards'))
    const prompt = 'check git status before the commit'
    expect((await recall(repo.ctx(), {prompt})).cards).toEqual([])
    expect((await promptRecall(repo.ctx(), {prompt})).cards).toEqual([])
    expect((await list(repo.ctx())).cards).toEqual([])
  })

  it('a linked .cache/ or index file is neither written nor read: the index just goes uncached', async () => {
    const repo = await recallRepo()
    const cache = path.join(repo.dir, '.cairn/.cache')
    fs.rmSync(cache, {recursive: true, force: true})
    const outside = tempDir()
    fs.symlinkSync(outside, cache)
    const prompt = 'check git status before the commit'
    for (let i = 0; i < 2; i++) {
      const r = await promptRecall(repo.ctx(), {prompt})
      expect([r.cards.map(c => c.id), r.rebuiltIndex]).toEqual([['git-commit-safety'], true])
    }
    expect((await recall(repo.ctx(), {prompt})).cards.map(c => c.id)).toEqual(['git-commit-safety'])
    expect(fs.readdirSync(outside)).toEqual([])

    fs.rmSync(cache)
    fs.mkdirSync(cache)
    const target = path.join(outside, 'not-an-index')
    fs.writeFileSync(target, 'keep me\n')
    fs.symlinkSync(target, path.join(cache, 'recall-index'))
    expect((await promptRecall(repo.ctx(), {prompt})).cards.map(c => c.id)).toEqual(['git-commit-safety'])
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me\n')
    expect(fs.lstatSync(path.join(cache, 'recall-index')).isSymbolicLink()).toBe(true)
  })
})

describe('readRegularFile', () => {
  const fail = (fn: () => unknown): CairnError => {
    try {
      fn()
    } catch (error) {
      expect(error).toBeInstanceOf(CairnError)
      return error as CairnError
    }
    throw new Error('expected a CairnError')
  }

  it('reads a regular file and refuses a link, a device, a directory, a missing file and one over the cap', () => {
    const dir = tempDir()
    const file = path.join(dir, 'a.md')
    fs.writeFileSync(file, 'x'.repeat(10))
    expect(readRegularFile(file, 'a.md', 10).toString()).toBe('x'.repeat(10))
    expect(readRegularFile(file, 'a.md', 10 * 1024).length).toBe(10)
    fs.writeFileSync(path.join(dir, 'empty.md'), '')
    expect(readRegularFile(path.join(dir, 'empty.md'), 'empty.md', 10).length).toBe(0)
    fs.symlinkSync(file, path.join(dir, 'link.md'))
    const link = fail(() => readRegularFile(path.join(dir, 'link.md'), 'link.md', 100))
    expect([link.code, link.message]).toEqual([
      'validation',
      'Invalid input:\n  - link.md: (file): is a symbolic link; cairn never follows links under .cairn/. ' +
        'Fix: replace the link with the file itself (git rm the link, then add a regular file).',
    ])
    expect(fail(() => readRegularFile('/dev/zero', 'zero.md', 100)).message).toContain(
      'zero.md: (file): is not a regular file. Fix:',
    )
    expect(fail(() => readRegularFile(dir, 'dir.md', 100)).message).toContain(
      'dir.md: (file): is not a regular file. Fix:',
    )
    expect(fail(() => readRegularFile(path.join(dir, 'nope.md'), 'nope.md', 100))).toMatchObject({
      code: 'not_found',
      message: 'No such file: nope.md. Fix: check the path.',
    })
    expect(fail(() => readRegularFile(file, 'a.md', 9)).message).toContain(
      'a.md: (content): card is 10 bytes, over the 9-byte limit. Fix:',
    )
  })
})
