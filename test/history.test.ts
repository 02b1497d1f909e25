import {execFileSync} from 'node:child_process'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {renderCommitMessage} from '../src/domain/trailers.js'
import {cairnCommits} from '../src/store/cards/history.js'
import {projectStoreAt} from '../src/store/layout.js'
import {tempRepo} from './helpers.js'

describe('cairnCommits', () => {
  it('is empty on a repo with no commits yet', async () => {
    const repo = tempRepo()
    const fresh = path.join(repo.dir, 'fresh')
    execFileSync('git', ['init', '-q', fresh], {env: repo.env})
    expect(await cairnCommits(repo.ctx({cwd: fresh}), projectStoreAt(fresh))).toEqual([])
  })

  it("reads cairn commits newest first, skips other commits, whatever the user's log config", async () => {
    const repo = tempRepo()
    const commit = (date: string, message: string) => {
      const env = {...repo.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date}
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], {cwd: repo.dir, env})
    }
    commit(
      '2026-01-01T10:00:00Z',
      renderCommitMessage({
        op: 'propose',
        summary: 'first-card-name-here',
        cards: ['first-card-name-here'],
        actor: 'tester',
      }),
    )
    commit(
      '2026-01-02T10:00:00Z',
      'docs: mention Cairn-Format: 1 in a body\n\nCairn-Format: 1 is quoted here\n\nSigned-off-by: A <a@b>',
    )
    const body = 'Reason: a\u0001b\n\nwith %x00 and | pipes'
    commit(
      '2026-01-03T10:00:00Z',
      renderCommitMessage({op: 'reject', summary: 'x', body, cards: ['first-card-name-here'], actor: 'Eve'}),
    )
    // A fixed-string pattern type would make ^Cairn-Format: match nothing; cairn's options override it.
    repo.git('config', 'grep.patternType', 'fixed')
    repo.git('config', 'log.showSignature', 'true')
    const commits = await cairnCommits(repo.ctx(), projectStoreAt(repo.dir))
    const shas = repo.git('log', '--format=%H').trim().split('\n')
    expect(
      commits.map(c => ({
        sha: c.sha,
        subject: c.subject,
        op: c.trailers.op,
        actor: c.trailers.actor,
        author: c.author,
        at: c.at,
      })),
    ).toEqual([
      {
        sha: shas[0],
        subject: 'cairn(reject): x',
        op: 'reject',
        actor: 'Eve',
        author: 'Test User',
        at: '2026-01-03T10:00:00Z',
      },
      {
        sha: shas[2],
        subject: 'cairn(propose): first-card-name-here',
        op: 'propose',
        actor: 'tester',
        author: 'Test User',
        at: '2026-01-01T10:00:00Z',
      },
    ])
    expect(commits[0].body.startsWith('Reason: a\u0001b\n\nwith %x00 and | pipes\n\nCairn-Op: reject\n')).toBe(true)
  })
})
