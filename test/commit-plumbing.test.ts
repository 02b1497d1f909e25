import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {TREE_COMMIT_MIN_PATHS} from '../src/store/cards/commit.js'
import {card, cli, initRepo, type Repo, tempDir} from './helpers.js'

/**
 * A transaction commits through a temporary index (git read-tree, write-tree, commit-tree, then update-ref from the
 * HEAD the journal recorded) unless a hook, a signature or git's message clean-up needs `git commit`. Either way
 * the commit holds exactly cairn's paths, and the user's own staged and unstaged changes stay as they were.
 */

// Approving them stages twice as many paths: enough for the temporary index (TREE_COMMIT_MIN_PATHS).
const N = Math.ceil(TREE_COMMIT_MIN_PATHS / 2) + 10
const SLUGS = Array.from({length: N}, (_, i) => `plumbing-test-case-${String(i).padStart(3, '0')}`)

async function pendingCards(repo: Repo): Promise<string[]> {
  const file = repo.write('../cards.json', JSON.stringify(SLUGS.map(slug => card({slug}))))
  return (await propose(repo.ctx(), {file})).cards.map(c => c.id)
}

/** The user's own work: a staged new file, a staged change and an unstaged change. */
function userChanges(repo: Repo): void {
  repo.write('notes.txt', 'mine\n')
  repo.write('README.md', '# test\nstaged line\n')
  repo.git('add', 'notes.txt', 'README.md')
  repo.write('README.md', '# test\nstaged line\nunstaged line\n')
}

const USER_STATUS = 'MM README.md\nA  notes.txt\n'
const commitFiles = (repo: Repo) => fs.readdirSync(path.join(repo.dir, '.git')).filter(f => f.startsWith('CAIRN_'))

function executable(file: string, script: string): void {
  fs.writeFileSync(file, script)
  fs.chmodSync(file, 0o755)
}

describe('the commit through a temporary index', () => {
  it('commits exactly the approved cards on the old HEAD, leaving the staged and unstaged changes of the user', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    const head = repo.git('rev-parse', 'HEAD').trim()
    userChanges(repo)
    const r = await approve(repo.ctx(), {ids})
    expect(repo.git('rev-parse', 'HEAD^').trim()).toBe(head)
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(r.commits.project)
    expect(repo.git('show', '--name-status', '--no-renames', '--format=', 'HEAD').trim().split('\n')).toEqual([
      ...ids.map(id => `A\t.cairn/cards/pitfall/${id}.md`),
      ...ids.map(id => `D\t.cairn/pending/pitfall/${id}.md`),
    ])
    expect(repo.git('log', '-1', '--format=%B')).toBe(
      `cairn(approve): approve ${N} cards\n\nCairn-Op: approve\n` +
        ids.map(id => `Cairn-Card: ${id}\n`).join('') +
        'Cairn-Actor: tester\nCairn-Format: 1\n\n',
    )
    expect(repo.git('reflog', '-1', '--format=%gs').trim()).toBe(`commit: cairn(approve): approve ${N} cards`)
    expect(repo.git('status', '--porcelain')).toBe(USER_STATUS)
    expect(repo.git('diff', '--cached', 'README.md')).toContain('+staged line')
    expect(repo.read('README.md')).toBe('# test\nstaged line\nunstaged line\n')
    expect(commitFiles(repo)).toEqual([])
  })

  it('refuses when HEAD moved under it, and puts the cards and the index back as they were', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    userChanges(repo)
    // A git on PATH that lands another commit just before cairn's commit-tree runs: the user committing meanwhile.
    const real = execFileSync('sh', ['-c', 'command -v git'], {encoding: 'utf8', env: repo.env}).trim()
    const bin = tempDir()
    executable(
      path.join(bin, 'git'),
      `#!/bin/sh\nif [ "$1" = commit-tree ]; then\n  "${real}" update-ref HEAD "$("${real}" commit-tree "HEAD^{tree}" -p HEAD -m "user commit meanwhile")"\nfi\nexec "${real}" "$@"\n`,
    )
    const index = repo.git('ls-files', '--stage')
    const r = await cli(['review', 'approve', ...ids], {
      cwd: repo.dir,
      env: {...repo.env, PATH: `${bin}${path.delimiter}${repo.env.PATH}`},
    })
    expect(r.code).toBe(7)
    expect(r.stderr).toMatch(/^cairn: Git failed while committing .*cannot lock ref 'HEAD'.*Fix: /s)
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('user commit meanwhile')
    expect(repo.git('ls-files', '--stage')).toBe(index)
    expect(repo.git('status', '--porcelain')).toBe(USER_STATUS)
    for (const id of ids) expect(fs.existsSync(path.join(repo.dir, `.cairn/pending/pitfall/${id}.md`))).toBe(true)
    expect(fs.existsSync(path.join(repo.dir, '.cairn/cards'))).toBe(false)
    expect(commitFiles(repo)).toEqual([])
  })

  it('killed while HEAD moves, leaves a store the next write finds as before or as after, and no file of its own', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    userChanges(repo)
    const killed = await cli(['review', 'approve', ...ids], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_TEST_CRASH: 'during-commit'},
    })
    expect(killed.code).toBe(-1)
    const next = await cli(['propose', '-'], {cwd: repo.dir, env: repo.env, input: JSON.stringify(card())})
    expect(next.code).toBe(0)
    expect(next.stderr).toMatch(/^warning: (finished|rolled back) an interrupted cairn approve/)
    const landed = repo.git('log', '-2', '--format=%s').trim().split('\n')[1] === `cairn(approve): approve ${N} cards`
    const where = landed ? 'cards' : 'pending'
    for (const id of ids) expect(fs.existsSync(path.join(repo.dir, `.cairn/${where}/pitfall/${id}.md`))).toBe(true)
    expect(repo.git('status', '--porcelain')).toBe(USER_STATUS)
    expect(commitFiles(repo)).toEqual([])
  })
})

describe('what still goes through git commit', () => {
  it('runs the post-commit and prepare-commit-msg hooks, which git commit runs even with --no-verify', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    userChanges(repo)
    executable(path.join(repo.dir, '.git/hooks/prepare-commit-msg'), '#!/bin/sh\necho "Change-Id: I123" >> "$1"\n')
    executable(
      path.join(repo.dir, '.git/hooks/post-commit'),
      '#!/bin/sh\necho ran >> "$(git rev-parse --git-dir)/post-commit-ran"\n',
    )
    await approve(repo.ctx(), {ids})
    expect(repo.git('log', '-1', '--format=%B')).toMatch(/Cairn-Format: 1\n+Change-Id: I123\n/)
    expect(repo.read('.git/post-commit-ran')).toBe('ran\n')
    expect(repo.git('show', '--name-only', '--no-renames', '--format=', 'HEAD').trim().split('\n')).toHaveLength(2 * N)
    expect(repo.git('status', '--porcelain')).toBe(USER_STATUS)
  })

  it('signs the commit when commit.gpgsign asks for it', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    userChanges(repo)
    // A stand-in for gpg: git needs its status line and a signature on stdout.
    const gpg = path.join(tempDir(), 'fake-gpg')
    executable(
      gpg,
      '#!/bin/sh\ncat >/dev/null\nprintf "\\n[GNUPG:] SIG_CREATED D 1 8 00 0 X\\n" >&2\nprintf -- "-----BEGIN PGP SIGNATURE-----\\n\\nfake\\n-----END PGP SIGNATURE-----\\n"\n',
    )
    repo.git('config', 'commit.gpgsign', 'true')
    repo.git('config', 'gpg.program', gpg)
    await approve(repo.ctx(), {ids})
    expect(repo.git('cat-file', 'commit', 'HEAD')).toMatch(/^gpgsig -----BEGIN PGP SIGNATURE-----\n \n fake\n/m)
    expect(repo.git('status', '--porcelain')).toBe(USER_STATUS)
  })

  it('lets git clean up a message the user configured commit.cleanup for', async () => {
    const repo = await initRepo()
    const ids = await pendingCards(repo)
    repo.git('config', 'commit.cleanup', 'strip')
    repo.git('config', 'core.commentChar', 'C')
    await approve(repo.ctx(), {ids})
    // The comment character takes out the trailer lines that begin with it, as git commit always did here.
    expect(repo.git('log', '-1', '--format=%B')).not.toContain('Cairn-')
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe(`cairn(approve): approve ${N} cards`)
  })
})
