import {describe, expect, it} from 'vitest'
import {feed, plant, settle} from './hook-helpers.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {init} from '../src/app/init.js'
import {templateRepo} from './helpers.js'

/** A project whose one recall card cites src/a.ts (a recent path) and lib/ (a folder), committed with the code. */
const cited = templateRepo(async repo => {
  repo.write('src/a.ts', 'export function parseConfig() {}\n')
  repo.write('lib/util.ts', 'export const x = 1\n')
  await init(repo.ctx())
  plant(repo, 'flaky-login-test', {
    title: 'The login test is flaky under load',
    summary: 'The login e2e test times out under parallel load; run it alone.',
    recall: {triggers: ['flaky login test']},
    provenance: {recent_paths: ['src/a.ts', 'lib']},
  })
  repo.git('add', '-A')
  repo.git('commit', '-qm', 'code and card')
})

const prompt = (repo: {dir: string}) => ({
  session_id: 'sess-1',
  cwd: repo.dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'the flaky login test failed again',
})

async function injected(repo: Awaited<ReturnType<typeof cited>>): Promise<string[]> {
  const r = await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))
  return (JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string).split('\n')
}

describe('the prompt hook marks a recalled card whose cited files are gone', () => {
  it('no note while the files are there; "May be stale" once one is deleted, within the budget', async () => {
    const repo = await cited()
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    await settle(repo)
    const before = await injected(repo)
    expect(before[1]).toBe('- The login test is flaky under load (flaky-login-test) [may]')
    expect(before.join('\n')).not.toContain('May be stale')
    repo.git('rm', '-q', 'src/a.ts')
    const after = await injected(repo)
    expect(after.slice(1, 3)).toEqual([
      '- The login test is flaky under load (flaky-login-test) [may]',
      '  May be stale: src/a.ts was deleted',
    ])
    repo.git('rm', '-rq', 'lib')
    expect((await injected(repo))[2]).toBe('  May be stale: src/a.ts was deleted (+1 more)')
    // cairn recall shows the same note.
    const recalled = await promptRecall(repo.ctx(), {prompt: 'the flaky login test failed again'})
    expect(recalled.text.split('\n')[2]).toBe('  May be stale: src/a.ts was deleted (+1 more)')
  })

  it('keeps the note when the budget shrinks the entry to its head', async () => {
    const repo = await cited()
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('budget_chars: 2400', 'budget_chars: 250'))
    repo.git('rm', '-q', 'src/a.ts')
    const text = (await promptRecall(repo.ctx(), {prompt: 'the flaky login test failed again'})).text
    expect(text.length).toBeLessThanOrEqual(250)
    expect(text.split('\n').slice(1)).toEqual([
      '- The login test is flaky under load (flaky-login-test) [may]',
      '  May be stale: src/a.ts was deleted',
      '  Full rule: cairn show flaky-login-test --section rule',
    ])
  })

  it('pre-tool-use marks a path card whose cited file is gone', async () => {
    const repo = await cited()
    plant(repo, 'parse-config-defaults-trap', {
      title: 'parseConfig drops nested defaults',
      summary: 'Merge nested keys by hand.',
      scope: {level: 'project', project_key: null, module_path: null, paths: ['src/**']},
      provenance: {recent_paths: ['src/a.ts']},
    })
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'a narrow card')
    repo.git('rm', '-q', 'src/a.ts')
    const edit = {
      session_id: 'sess-2',
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: {file_path: `${repo.dir}/src/b.ts`, content: 'x'},
    }
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    await settle(repo)
    const r = await feed(repo, 'claude', 'pre-tool-use', edit)
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext.split('\n')).toEqual([
      'cairn: cards for src/b.ts (read a rule with `cairn show ID --section rule`):',
      '- [may] parseConfig drops nested defaults (parse-config-defaults-trap): Merge nested keys by hand.',
      '  May be stale: src/a.ts was deleted',
    ])
  })
})
