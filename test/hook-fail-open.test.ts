import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {lint} from '../src/app/lint.js'
import {indexPath} from '../src/recall/open.js'
import {projectStoreAt} from '../src/store/layout.js'
import {errorLog, feed, hookRepo, settle} from './hook-helpers.js'
import {tempDir} from './helpers.js'

const prompt = (repo: {dir: string}, text = 'the flaky login test failed again') => ({
  session_id: 's',
  transcript_path: null,
  cwd: repo.dir,
  hook_event_name: 'UserPromptSubmit',
  prompt: text,
})

/** Each case: exit 0 (runHook never throws), the client's neutral answer, and exactly one line in hook-errors.log. */
describe('hooks fail open', () => {
  it('malformed stdin', async () => {
    const repo = await hookRepo()
    expect((await feed(repo, 'claude', 'user-prompt-submit', '{"prompt": ')).stdout).toBe('')
    expect(errorLog(repo)).toHaveLength(1)
    expect(errorLog(repo)[0]).toMatch(/claude user-prompt-submit: stdin is not JSON/)
  })

  it('stdin over 1 MB, without reading the rest', async () => {
    const repo = await hookRepo()
    const r = await feed(repo, 'claude', 'user-prompt-submit', prompt(repo, 'x'.repeat(1024 * 1024 + 1)))
    expect(r.stdout).toBe('')
    expect(errorLog(repo)).toEqual([expect.stringMatching(/stdin is over 1048576 bytes$/)])
  })

  it('an invalid config.yaml (one unknown key)', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/config.yaml', `${repo.read('.cairn/config.yaml')}\nbogus_key: 1\n`)
    expect((await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))).stdout).toBe('')
    expect(errorLog(repo)).toEqual([expect.stringMatching(/validation: .*config\.yaml/)])
    // cairn lint says so too: a hook that fails open is otherwise invisible.
    const linted = await lint(repo.ctx())
    expect(linted.problems.filter(p => p.severity === 'error').map(p => [p.file, p.field, p.rule])).toEqual([
      ['.cairn/config.yaml', 'bogus_key', 'config-file'],
    ])
    await settle(repo)
  })

  it('a card that fails to parse', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/cards/guideline/flaky-login-test.md', '---\nid: [broken\n---\n')
    expect((await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))).stdout).toBe('')
    await settle(repo)
    expect(errorLog(repo)).toEqual([expect.stringMatching(/flaky-login-test\.md/)])
  })

  it.each([0.1, 0.5, 0.99])('a recall index truncated at %s of its length', async fraction => {
    const repo = await hookRepo()
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    await settle(repo)
    const file = indexPath(projectStoreAt(repo.dir))
    const bytes = fs.readFileSync(file)
    fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * fraction)))
    expect((await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))).stdout).toBe('')
    expect(errorLog(repo)).toEqual([expect.stringMatching(/recall index .*(corrupt|rebuild)/)])
    await settle(repo)
    // The background rebuild repaired it: the next prompt answers again.
    expect(
      JSON.parse((await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))).stdout).hookSpecificOutput
        .additionalContext,
    ).toContain('flaky-login-test')
  })

  const signals = (pattern: string) =>
    [
      'schema: cairn/signals@1',
      'signals:',
      '  - id: greedy_words',
      '    polarity: positive',
      '    description: A pattern that backtracks.',
      '    patterns:',
      `      en: ['${pattern}']`,
    ].join('\n')

  it('a backtracking signal pattern runs in linear time (RE2), so the prompt is answered as usual', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/signals.yaml', signals('(\\w+\\s?)+:'))
    await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'})
    await settle(repo)
    const words = 'the flaky login test one two three four five six seven eight nine ten eleven twelve'
    const r = await feed(repo, 'claude', 'user-prompt-submit', prompt(repo, words))
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('flaky-login-test')
    expect(errorLog(repo)).toEqual([])
  })

  it('a signal pattern RE2 refuses (lookahead)', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/signals.yaml', signals('login(?=test)'))
    expect((await feed(repo, 'claude', 'user-prompt-submit', prompt(repo))).stdout).toBe('')
    expect(errorLog(repo)).toEqual([
      expect.stringMatching(/validation: .*signals\.yaml: signals\[0\]\.patterns\.en\[0\]/),
    ])
    await settle(repo)
  })

  it('the deadline', async () => {
    const repo = await hookRepo()
    const r = await feed(
      repo,
      'claude',
      'session-start',
      {session_id: 's', cwd: repo.dir, hook_event_name: 'SessionStart'},
      {CAIRN_HOOK_DEADLINE_MS: '1'},
    )
    expect(r.stdout).toBe('')
    expect(errorLog(repo)).toEqual([expect.stringMatching(/passed the 1 ms deadline$/)])
    await settle(repo)
  })

  it('no store: nothing, and no .cairn/ is created; a deleted working directory is logged', async () => {
    const repo = await hookRepo()
    const bare = tempDir()
    expect(
      (await feed(repo, 'claude', 'session-start', {session_id: 's', cwd: bare, hook_event_name: 'SessionStart'}))
        .stdout,
    ).toBe('')
    expect(fs.readdirSync(bare)).toEqual([])
    const gone = path.join(bare, 'deleted')
    expect((await feed(repo, 'codex', 'stop', {session_id: 's', cwd: gone, hook_event_name: 'Stop'})).stdout).toBe('{}')
    expect(errorLog(repo)).toEqual([
      expect.stringMatching(/codex stop: the working directory .*deleted does not exist$/),
    ])
  })

  it('an unknown event or client', async () => {
    const repo = await hookRepo()
    const teardown = await feed(repo, 'claude', 'teardown', {})
    expect(teardown.stdout).toBe('')
    // A typo in a hook config must not fail silently forever: the person running it sees why.
    expect(teardown.stderr).toBe(
      'cairn hook: usage: cairn hook <session-start|user-prompt-submit|pre-tool-use|post-tool-use|stop|session-end> ' +
        '--agent <claude|codex|cursor|gemini> (got: teardown --agent claude). See cairn hook --help\n',
    )
    expect((await feed(repo, 'copilot', 'stop', {})).stdout).toBe('')
    expect(errorLog(repo)).toEqual([
      expect.stringMatching(/ claude \?: usage/),
      expect.stringMatching(/ \? stop: usage/),
    ])
  })
})
