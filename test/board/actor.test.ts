import {describe, expect, it} from 'vitest'
import {cliInProcess} from '../cli-in-process.js'
import {boardRepo, T, US03} from './helpers.js'

/**
 * Issue 34: board commit required --actor while board annotate recorded "user". Both follow the actor rule every
 * cairn commit follows (CAIRN_ACTOR, else git's user.name, else $USER), and --actor overrides it.
 */
describe('who writes to the board', () => {
  const run = async (repo: Awaited<ReturnType<typeof boardRepo>>, args: string[], env: NodeJS.ProcessEnv) => {
    const r = await cliInProcess([...args, '--json'], {cwd: repo.dir, env, input: JSON.stringify(US03)})
    expect([r.code, r.stderr]).toEqual([0, ''])
    const trailer = repo.git('log', '-1', '--format=%(trailers:key=Cairn-Actor,valueonly)').trim()
    return {actor: r.json().data.actor as string, trailer, data: r.json().data}
  }

  it("without --actor: git's user.name, or CAIRN_ACTOR when set; --actor overrides both", async () => {
    const repo = await boardRepo()
    const {CAIRN_ACTOR: _, ...gitOnly} = repo.env
    const committed = await run(repo, ['board', 'commit', '-', '--now', T(8, 8)], gitOnly)
    expect([committed.actor, committed.trailer]).toEqual(['Test User', 'Test User'])
    const noted = await run(
      repo,
      ['board', 'annotate', 'visa', 'The statement comes on Friday.', '--batch-id', 'note-1', '--now', T(9, 8)],
      gitOnly,
    )
    expect([noted.actor, noted.trailer, noted.data.annotation.actor]).toEqual(['Test User', 'Test User', 'Test User'])
    const bot = await run(repo, ['board', 'annotate', 'visa', 'Sent it.', '--batch-id', 'note-2', '--now', T(10, 8)], {
      ...gitOnly,
      CAIRN_ACTOR: 'release-bot',
    })
    expect([bot.actor, bot.data.annotation.actor]).toEqual(['release-bot', 'release-bot'])
    const named = await run(
      repo,
      ['board', 'annotate', 'visa', 'Done.', '--batch-id', 'note-3', '--now', T(11, 8), '--actor', 'Ada'],
      {...gitOnly, CAIRN_ACTOR: 'release-bot'},
    )
    expect([named.actor, named.trailer, named.data.annotation.actor]).toEqual(['Ada', 'Ada', 'Ada'])
  })

  it('an actor from the environment that is not one line is refused, naming the fix, and nothing is written', async () => {
    const repo = await boardRepo()
    const r = await cliInProcess(['board', 'commit', '-', '--now', T(8, 8)], {
      cwd: repo.dir,
      env: {...repo.env, CAIRN_ACTOR: 'agent\nCairn-Op: forged'},
      input: JSON.stringify(US03),
    })
    expect([r.code, r.stderr]).toEqual([
      2,
      "cairn: The actor from CAIRN_ACTOR, git's user.name or $USER is not a name of one line and at most 100 " +
        'characters. Fix: name who writes with --actor.\n',
    ])
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('a retry without --actor is the same request, answered with the first receipt', async () => {
    const repo = await boardRepo()
    const args = ['board', 'commit', '-', '--now', T(8, 8)]
    const first = await run(repo, args, repo.env)
    const again = await run(repo, args, repo.env)
    expect([first.data.status, again.data.status, again.actor]).toEqual(['committed', 'already_committed', 'tester'])
  })
})
