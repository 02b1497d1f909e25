import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'
import {FIXED_NOW} from './helpers.js'

const CORE = '### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.'
const CATALOG = [
  'cairn catalog (recall cards; `cairn show ID` reads one, `cairn show ID --section rule` just its rule):',
  '- backup-before-migration: Back up before a migration. Take a database backup before running any migration.',
  '- flaky-login-test: The login test is flaky under load. The login e2e test times out under parallel load; run it alone.',
].join('\n')
const SESSION_CONTEXT = `cairn core rules (always apply in this project):\n\n${CORE}\n\n${CATALOG}`

const base = (repo: {dir: string}, event: string, extra: object = {}) => ({
  session_id: 'sess-1',
  transcript_path: null,
  cwd: repo.dir,
  permission_mode: 'default',
  hook_event_name: event,
  ...extra,
})

describe('hook events (Claude Code)', () => {
  it('session-start gives the core cards and the catalog, even before any index exists (a small store is built in the hook)', async () => {
    const repo = await hookRepo()
    expect(fs.existsSync(path.join(repo.dir, '.cairn/.cache/recall-index'))).toBe(false)
    const r = await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart', {source: 'startup'}))
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {hookEventName: 'SessionStart', additionalContext: SESSION_CONTEXT},
    })
    expect(errorLog(repo)).toEqual([])
  })

  it('session-start reminds of pending cards and warns, with a .pending-fix marker, when the core is over budget', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('core_budget: 8000', 'core_budget: 100'))
    plant(repo, 'second-core-rule', {load: 'core'}, 'x'.repeat(60))
    repo.write(
      '.cairn/pending/pitfall/waiting-card-one.md',
      repo.read('.cairn/cards/guideline/flaky-login-test.md').replace('status: active', 'status: draft'),
    )
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const r = await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext
    expect(context.split('\n\n')).toEqual([
      'cairn core rules (always apply in this project):',
      CORE,
      'cairn: the core cards are over budget (200 > 100 chars), so second-core-rule did not load. Run `cairn maintain --dry-run`, then `cairn maintain --apply` to demote the least used.',
      'cairn: 1 pending card waits for review: run the cairn-review skill (`cairn review --format text`).',
      CATALOG,
    ])
    const marker = JSON.parse(repo.read('.cairn/.local/.pending-fix'))
    expect(marker.reasons).toEqual(['core-over-budget'])
  })

  it('user-prompt-submit gives the light index for a matching prompt and nothing for an unrelated one', async () => {
    const repo = await hookRepo()
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const hit = await feed(
      repo,
      'claude',
      'user-prompt-submit',
      base(repo, 'UserPromptSubmit', {prompt: 'the flaky login test failed again in CI'}),
    )
    const text: string = JSON.parse(hit.stdout).hookSpecificOutput.additionalContext
    expect(text.split('\n')[0]).toBe(
      "cairn: cards that may apply to this task. Read a card's full rule only if it applies:",
    )
    expect(text).toContain('flaky-login-test')
    expect(text).toContain('cairn show flaky-login-test --section rule')
    const miss = await feed(
      repo,
      'claude',
      'user-prompt-submit',
      base(repo, 'UserPromptSubmit', {prompt: 'rename the settings page title'}),
    )
    expect(miss.stdout).toBe('')
  })

  it('pre-tool-use shows a narrow card once per session for a matching file', async () => {
    const repo = await hookRepo()
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const edit = base(repo, 'PreToolUse', {
      tool_name: 'Edit',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/001_init.sql'), old_string: 'a', new_string: 'b'},
    })
    const first = await feed(repo, 'claude', 'pre-tool-use', edit)
    expect(JSON.parse(first.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        additionalContext:
          'cairn: cards for db/migrations/001_init.sql (read a rule with `cairn show ID --section rule`):\n' +
          '- [must] Back up before a migration (backup-before-migration): Take a database backup before running any migration.',
      },
    })
    expect((await feed(repo, 'claude', 'pre-tool-use', edit)).stdout).toBe('')
    const other = base(repo, 'PreToolUse', {
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'src/app.ts'), content: ''},
    })
    expect((await feed(repo, 'claude', 'pre-tool-use', other)).stdout).toBe('')
  })

  it('with enforce_must, a must + high card denies the first write with its rule, then allows the retry', async () => {
    const repo = await hookRepo()
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('enforce_must: false', 'enforce_must: true'),
    )
    await feed(repo, 'claude', 'session-start', base(repo, 'SessionStart'))
    await settle(repo)
    const edit = base(repo, 'PreToolUse', {
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/002.sql'), content: 'x'},
    })
    const denied = await feed(repo, 'claude', 'pre-tool-use', edit)
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason:
          'cairn: Back up before a migration (backup-before-migration) is a must-follow rule for db/migrations/002.sql:\n' +
          'Run scripts/backup.sh and check the dump before you change a migration.\nApply the rule, then retry the write; the retry is allowed.',
      },
    })
    expect((await feed(repo, 'claude', 'pre-tool-use', edit)).stdout).toBe('')
  })

  it('post-tool-use records the edit (a line under 4 KB) and lints an edited card', async () => {
    const repo = await hookRepo()
    const cardFile = path.join(repo.dir, '.cairn/cards/guideline/flaky-login-test.md')
    fs.writeFileSync(cardFile, fs.readFileSync(cardFile, 'utf8').replace('status: active', 'status: bogus'))
    const r = await feed(
      repo,
      'claude',
      'post-tool-use',
      base(repo, 'PostToolUse', {tool_name: 'Edit', tool_input: {file_path: cardFile}, tool_response: {success: true}}),
    )
    const context: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext
    expect(context.split('\n')[0]).toBe('cairn: the card you edited has 1 error(s) and 0 warning(s):')
    expect(context).toContain('.cairn/cards/guideline/flaky-login-test.md: status:')
    const events = repo
      .read('.cairn/.local/events.jsonl')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l))
    expect(events.filter(e => e.event === 'edit')).toEqual([
      {
        ts: new Date(FIXED_NOW).toISOString(),
        event: 'edit',
        session: 'sess-1',
        agent: 'claude',
        tool: 'Edit',
        paths: ['.cairn/cards/guideline/flaky-login-test.md'],
      },
    ])
    await settle(repo)
  })
})
