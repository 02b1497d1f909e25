import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {parseTranscript} from '../src/agents/transcript.js'
import {namedFiles} from '../src/app/hooks/tool.js'
import {PATH_CARDS_TAIL, withoutOwnText} from '../src/recall/match/own-text.js'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'
import {tempDir} from './helpers.js'
import {hookDeadline} from './red-team-helpers.js'

const CORE =
  'cairn core rules (always apply in this project):\n\n### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.'
const PATH_CARDS = (file: string) =>
  `cairn: cards for ${file} (read a rule with \`cairn show ID --section rule\`):\n` +
  '- [must] Back up before a migration (backup-before-migration): Take a database backup before running any migration.'

const enforce = (repo: Awaited<ReturnType<typeof hookRepo>>) =>
  repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace('enforce_must: false', 'enforce_must: true'))

/** Each client end to end, from payloads shaped as its documentation shows them. */
describe('hook payloads per client', () => {
  it('Codex: an apply_patch PreToolUse gets the path cards of every file in the patch', async () => {
    const repo = await hookRepo()
    const patch = '*** Begin Patch\n*** Add File: db/migrations/005_orders.sql\n+create table orders();\n*** End Patch'
    const r = await feed(repo, 'codex', 'pre-tool-use', {
      session_id: 'cx',
      turn_id: 't1',
      model: 'gpt-5',
      transcript_path: null,
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: {command: patch},
    })
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {hookEventName: 'PreToolUse', additionalContext: PATH_CARDS('db/migrations/005_orders.sql')},
    })
    await settle(repo)
  })

  it("Codex: SessionEnd, in Codex 0.171.0's shape, is answered with nothing and logs no error", async () => {
    const repo = await hookRepo()
    const end = {session_id: 'cx', transcript_path: null, cwd: repo.dir, hook_event_name: 'SessionEnd', reason: 'other'}
    const r = await feed(repo, 'codex', 'session-end', end)
    expect([r.stdout, r.error]).toEqual(['', undefined])
    expect(errorLog(repo)).toEqual([])
    await settle(repo)
  })

  it('Cursor: sessionStart finds the store from workspace_roots; the path cards come after the edit', async () => {
    const repo = await hookRepo()
    const common = {
      conversation_id: 'cu',
      generation_id: 'g',
      workspace_roots: [repo.dir],
      cursor_version: '2.1',
      user_email: 'a@b.c',
    }
    const start = JSON.parse(
      (await feed(repo, 'cursor', 'session-start', {...common, hook_event_name: 'sessionStart'})).stdout,
    )
    expect(start.additional_context.split('\n\n').slice(0, 2).join('\n\n')).toBe(CORE)
    const file = path.join(repo.dir, 'db/migrations/006.sql')
    const tool = {...common, cwd: repo.dir, tool_name: 'Write', tool_input: {file_path: file, content: 'x'}}
    expect((await feed(repo, 'cursor', 'pre-tool-use', {...tool, hook_event_name: 'preToolUse'})).stdout).toBe('')
    expect(
      JSON.parse((await feed(repo, 'cursor', 'post-tool-use', {...tool, hook_event_name: 'postToolUse'})).stdout),
    ).toEqual({additional_context: PATH_CARDS('db/migrations/006.sql')})
    await settle(repo)
  })

  it('Cursor: no follow-up after an aborted loop', async () => {
    const repo = await hookRepo()
    const common = {conversation_id: 'cu2', generation_id: 'g', workspace_roots: [repo.dir]}
    for (const p of ['a', 'b', 'c', 'd'])
      await feed(repo, 'cursor', 'post-tool-use', {
        ...common,
        hook_event_name: 'postToolUse',
        cwd: repo.dir,
        tool_name: 'Write',
        tool_input: {file_path: path.join(repo.dir, `${p}.txt`)},
      })
    await feed(repo, 'cursor', 'post-tool-use', {
      ...common,
      hook_event_name: 'postToolUse',
      cwd: repo.dir,
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'e.txt')},
    })
    expect(
      (await feed(repo, 'cursor', 'stop', {...common, hook_event_name: 'stop', status: 'aborted', loop_count: 0}))
        .stdout,
    ).toBe('')
    expect(
      JSON.parse(
        (await feed(repo, 'cursor', 'stop', {...common, hook_event_name: 'stop', status: 'completed', loop_count: 0}))
          .stdout,
      ).followup_message,
    ).toContain('cairn-archive')
    await settle(repo)
  })

  it('Gemini: BeforeTool denies an enforced card; AfterTool carries path cards', async () => {
    const repo = await hookRepo()
    enforce(repo)
    const tool = {
      session_id: 'gm',
      transcript_path: null,
      cwd: repo.dir,
      timestamp: '2026-11-29T10:00:00Z',
      tool_name: 'write_file',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/007.sql'), content: 'x'},
    }
    const denied = JSON.parse(
      (await feed(repo, 'gemini', 'pre-tool-use', {...tool, hook_event_name: 'BeforeTool'})).stdout,
    )
    expect(denied.decision).toBe('deny')
    expect(denied.reason).toContain('Run scripts/backup.sh and check the dump before you change a migration.')
    expect((await feed(repo, 'gemini', 'pre-tool-use', {...tool, hook_event_name: 'BeforeTool'})).stdout).toBe('')
    const other = {
      ...tool,
      session_id: 'gm2',
      tool_name: 'replace',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/008.sql'), old_string: 'a', new_string: 'b'},
    }
    expect(
      JSON.parse(
        (await feed(repo, 'gemini', 'post-tool-use', {...other, hook_event_name: 'AfterTool', tool_response: {}}))
          .stdout,
      ),
    ).toEqual({
      hookSpecificOutput: {hookEventName: 'AfterTool', additionalContext: PATH_CARDS('db/migrations/008.sql')},
    })
    await settle(repo)
  })

  it('hooks.path_cards: before_write denies the first write with the cards, in every client, then allows it', async () => {
    const repo = await hookRepo()
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('path_cards: with_write', 'path_cards: before_write'),
    )
    const file = path.join(repo.dir, 'db/migrations/010.sql')
    const denied = PATH_CARDS('db/migrations/010.sql') + '\n' + PATH_CARDS_TAIL
    const claudeTool = {cwd: repo.dir, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: {file_path: file}}
    const first = JSON.parse((await feed(repo, 'claude', 'pre-tool-use', {...claudeTool, session_id: 'c1'})).stdout)
    expect(first.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: denied,
    })
    expect((await feed(repo, 'claude', 'pre-tool-use', {...claudeTool, session_id: 'c1'})).stdout).toBe('')
    // Gemini's BeforeTool carries no context: with_write would show these cards only after the write.
    const geminiTool = {
      cwd: repo.dir,
      hook_event_name: 'BeforeTool',
      tool_name: 'write_file',
      tool_input: {file_path: file},
    }
    expect(JSON.parse((await feed(repo, 'gemini', 'pre-tool-use', {...geminiTool, session_id: 'g1'})).stdout)).toEqual({
      decision: 'deny',
      reason: denied,
    })
    expect((await feed(repo, 'gemini', 'pre-tool-use', {...geminiTool, session_id: 'g1'})).stdout).toBe('')
    const after = {...geminiTool, session_id: 'g1', hook_event_name: 'AfterTool', tool_response: {}}
    expect((await feed(repo, 'gemini', 'post-tool-use', after)).stdout).toBe('')
    // Echoed back into a prompt, none of it is matched.
    expect(withoutOwnText(`${denied}\nwhat next`).trim()).toBe('what next')
    // A card the prompt's light index already showed is not denied for again.
    const ask = {
      session_id: 'c2',
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Back up before a migration',
    }
    expect((await feed(repo, 'claude', 'user-prompt-submit', ask)).stdout).toContain('(backup-before-migration)')
    expect((await feed(repo, 'claude', 'pre-tool-use', {...claudeTool, session_id: 'c2'})).stdout).toBe('')
    await settle(repo)
  })

  it('with enforce_must and before_write, one deny carries the rule and the other cards; the retry is allowed', async () => {
    const repo = await hookRepo()
    plant(repo, 'migrations-are-reviewed', {
      title: 'Migrations are reviewed',
      summary: 'A second person reviews every migration.',
      policy: 'should',
      scope: {level: 'project', project_key: null, module_path: null, paths: ['db/migrations/**']},
    })
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'another card')
    const config = repo.read('.cairn/config.yaml').replace('enforce_must: false', 'enforce_must: true')
    repo.write('.cairn/config.yaml', config.replace('path_cards: with_write', 'path_cards: before_write'))
    const write = {
      session_id: 'eb',
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/013.sql')},
    }
    const first = JSON.parse((await feed(repo, 'claude', 'pre-tool-use', write)).stdout).hookSpecificOutput
    expect(first.permissionDecision).toBe('deny')
    expect(first.permissionDecisionReason).toContain('is a must-follow rule for db/migrations/013.sql')
    expect(first.permissionDecisionReason).toContain('(migrations-are-reviewed)')
    expect(first.permissionDecisionReason).not.toContain('[must] Back up before a migration')
    expect((await feed(repo, 'claude', 'pre-tool-use', write)).stdout).toBe('')
    expect(withoutOwnText(`${first.permissionDecisionReason}\nwhat next`).trim()).toBe('what next')
    await settle(repo)
  })

  it('a prompt that names a file gets its path cards at once; the write then shows nothing new', async () => {
    const repo = await hookRepo()
    const ask = (session: string, prompt: string) =>
      feed(repo, 'claude', 'user-prompt-submit', {
        session_id: session,
        cwd: repo.dir,
        hook_event_name: 'UserPromptSubmit',
        prompt,
      })
    const r = await ask('p1', 'Add an index to `db/migrations/011_orders.sql`, please.')
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe(PATH_CARDS('db/migrations/011_orders.sql'))
    const write = {
      session_id: 'p1',
      cwd: repo.dir,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/011_orders.sql')},
    }
    expect((await feed(repo, 'claude', 'pre-tool-use', write)).stdout).toBe('')
    // Named by an absolute path or from a subfolder too; cairn's own echoed text names no file.
    expect((await ask('p2', `look at ${path.join(repo.dir, 'db/migrations/012.sql')}`)).stdout).toContain(
      '(backup-before-migration)',
    )
    // A card the light index already lists is not listed again as a path card.
    const both = JSON.parse((await ask('p4', 'Back up before a migration: db/migrations/014.sql')).stdout)
    expect(both.hookSpecificOutput.additionalContext).toContain('cairn: cards that may apply')
    expect(both.hookSpecificOutput.additionalContext.match(/\(backup-before-migration\)/g)).toHaveLength(1)
    const echoed = `${PATH_CARDS('db/migrations/011_orders.sql')}\n\nadd a y export in src/db/y.ts`
    expect((await ask('p3', echoed)).stdout).toBe('')
    await settle(repo)
  })

  it('namedFiles reads paths and file names from a prompt, in either language, never a URL', () => {
    expect(
      namedFiles('改一下 db/migrations/004.sql 和 ./src/a.ts，再看 README.md。See https://x.io/a.ts and (src/ui/).'),
    ).toEqual(['db/migrations/004.sql', './src/a.ts', 'README.md', 'src/ui/'])
    expect(namedFiles('just words here, version 1.5 and e.g. this')).toEqual(['e.g'])
    expect(namedFiles('see @src/x.ts and src/a.ts:42:7, mail bob@example.com, www.example.com/a.ts')).toEqual([
      'src/x.ts',
      'src/a.ts',
    ])
    expect(namedFiles(`${'a '.repeat(100_000)}x/y`)).toEqual(['x/y'])
    expect(namedFiles(`${'.'.repeat(1_000_000)}x a/b`)).toEqual(['a/b'])
  })

  it('no text cairn injects holds < or >, which Gemini CLI rewrites as entities', async () => {
    const repo = await hookRepo()
    enforce(repo)
    // A pending card, so session start reminds of review; a prompt that recalls; a write the rule denies, then the
    // path cards after it.
    repo.write(
      '.cairn/pending/guideline/pending-card-waits-here.md',
      repo.read('.cairn/cards/guideline/flaky-login-test.md'),
    )
    const common = {session_id: 'gx', transcript_path: null, cwd: repo.dir, timestamp: '2026-11-29T10:00:00Z'}
    const tool = {
      ...common,
      tool_name: 'write_file',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/9.sql')},
    }
    const said = [
      await feed(repo, 'gemini', 'session-start', {...common, hook_event_name: 'SessionStart', source: 'startup'}),
      await feed(repo, 'gemini', 'user-prompt-submit', {
        ...common,
        hook_event_name: 'BeforeAgent',
        prompt: 'flaky login test',
      }),
      await feed(repo, 'gemini', 'pre-tool-use', {...tool, hook_event_name: 'BeforeTool'}),
      // Another session, whose first sight of the path cards is after its write.
      await feed(repo, 'gemini', 'post-tool-use', {
        ...tool,
        session_id: 'gy',
        hook_event_name: 'AfterTool',
        tool_response: {},
      }),
    ].map(r => r.stdout)
    expect(said.map(s => s !== '')).toEqual([true, true, true, true])
    expect(said.filter(s => /[<>]/.test(JSON.stringify(JSON.parse(s))))).toEqual([])
    await settle(repo)
  })

  it('with enforce_must, session start lists the enforced cards first', async () => {
    const repo = await hookRepo()
    enforce(repo)
    const r = JSON.parse(
      (await feed(repo, 'claude', 'session-start', {session_id: 'e', cwd: repo.dir, hook_event_name: 'SessionStart'}))
        .stdout,
    )
    expect(r.hookSpecificOutput.additionalContext.split('\n\n')[0]).toBe(
      'cairn enforced rules (the first write to these paths is denied until the rule is applied):\n' +
        '- Back up before a migration (backup-before-migration) on db/migrations/**: Take a database backup before running any migration.',
    )
    await settle(repo)
  })
})

describe('hooks and hostile local state', () => {
  it('never writes or prunes through a link named .cairn/.local', async () => {
    const repo = await hookRepo()
    const outside = tempDir()
    fs.mkdirSync(path.join(outside, 'sessions'))
    fs.writeFileSync(path.join(outside, 'sessions', 'old-report.json'), 'keep me')
    fs.utimesSync(path.join(outside, 'sessions', 'old-report.json'), new Date('2020-01-01'), new Date('2020-01-01'))
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/.local'))
    // The hook still answers; it just records nothing there.
    const r = await feed(repo, 'claude', 'session-start', {
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
    })
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('run-tests-before-push')
    await feed(repo, 'claude', 'post-tool-use', {
      session_id: 's',
      cwd: repo.dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'a.txt')},
    })
    await feed(repo, 'claude', 'stop', {session_id: 's', cwd: repo.dir, hook_event_name: 'Stop'})
    expect(fs.readdirSync(outside).sort()).toEqual(['sessions'])
    expect(fs.readFileSync(path.join(outside, 'sessions', 'old-report.json'), 'utf8')).toBe('keep me')
    expect(execFileSync('git', ['check-ignore', '.cairn/.local'], {cwd: repo.dir, encoding: 'utf8'}).trim()).toBe(
      '.cairn/.local',
    )
    await settle(repo)
  })

  it('a board record that cannot be read costs session start one line, never its core cards', async () => {
    const repo = await hookRepo()
    repo.write('.cairn/board/batches/bad-0001.json', '{"batch_id": "bad", ')
    const env = hookDeadline(repo, 60_000)
    const r = JSON.parse(
      (
        await feed(
          repo,
          'claude',
          'session-start',
          {session_id: 'b', cwd: repo.dir, hook_event_name: 'SessionStart'},
          env,
        )
      ).stdout,
    )
    const parts = r.hookSpecificOutput.additionalContext.split('\n\n')
    expect(parts.slice(0, 2).join('\n\n')).toBe(CORE)
    expect(parts.find((p: string) => p.startsWith('cairn board brief:'))).toMatch(
      /^cairn board brief:\n\(the board cannot be read: .*\.cairn\/board\/batches\/bad-0001\.json.*; run `cairn board state` for the details\)$/,
    )
    await settle(repo)
  })

  it('a pending/ that is a link is not counted as cards waiting for review', async () => {
    const repo = await hookRepo()
    const outside = tempDir()
    fs.mkdirSync(path.join(outside, 'pitfall'))
    fs.writeFileSync(path.join(outside, 'pitfall', 'planted-card-from-elsewhere.md'), '---\nid: x\n---\n')
    fs.rmSync(path.join(repo.dir, '.cairn/pending'), {recursive: true, force: true})
    fs.symlinkSync(outside, path.join(repo.dir, '.cairn/pending'))
    const r = JSON.parse(
      (await feed(repo, 'claude', 'session-start', {session_id: 'l', cwd: repo.dir, hook_event_name: 'SessionStart'}))
        .stdout,
    )
    expect(r.hookSpecificOutput.additionalContext).not.toContain('wait for review')
    await settle(repo)
  })

  it('a transcript path that is a FIFO does not hang the stop hook', async () => {
    const repo = await hookRepo()
    const fifo = path.join(tempDir(), 'fifo')
    execFileSync('mkfifo', [fifo])
    const started = Date.now()
    await feed(repo, 'claude', 'post-tool-use', {
      session_id: 'f',
      cwd: repo.dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'x.txt')},
    })
    await feed(repo, 'claude', 'stop', {
      session_id: 'f',
      cwd: repo.dir,
      hook_event_name: 'Stop',
      transcript_path: fifo,
      stop_hook_active: false,
    })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(repo.read('.cairn/.local/digests/f.md')).toContain('- x.txt')
    expect(errorLog(repo)).toEqual([])
    await settle(repo)
  })

  it('a deny is delivered even past the deadline, since the session recorded it', async () => {
    const repo = await hookRepo()
    enforce(repo)
    await feed(repo, 'claude', 'session-start', {session_id: 'w', cwd: repo.dir, hook_event_name: 'SessionStart'})
    const r = await feed(
      repo,
      'claude',
      'pre-tool-use',
      {
        session_id: 'late',
        cwd: repo.dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: {file_path: path.join(repo.dir, 'db/migrations/1.sql')},
      },
      {CAIRN_HOOK_DEADLINE_MS: '1'},
    )
    const out = r.stdout ? JSON.parse(r.stdout).hookSpecificOutput.permissionDecision : 'none'
    // Either the deadline fired while the hook waited (nothing recorded, nothing shown), or the deny came through.
    const state = fs.existsSync(path.join(repo.dir, '.cairn/.local/sessions/late.json'))
      ? JSON.parse(repo.read('.cairn/.local/sessions/late.json'))
      : {denied: []}
    expect([out, state.denied]).toEqual(
      out === 'deny' ? ['deny', ['backup-before-migration']] : ['none', expect.any(Array)],
    )
    await settle(repo)
  })

  it('a Codex transcript: its AGENTS.md and environment blocks are not user messages', () => {
    const rollout = [
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [
            {type: 'input_text', text: '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>'},
          ],
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{type: 'input_text', text: '<environment_context>\n<cwd>/w</cwd>\n</environment_context>'}],
        },
      },
      {
        type: 'response_item',
        payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'rename the export flag'}]},
      },
    ]
    expect(parseTranscript(rollout.map(l => JSON.stringify(l)).join('\n')).userMessages).toEqual([
      'rename the export flag',
    ])
  })
})

describe('scope in the session hooks', () => {
  it("a personal card scoped to another project stays out of this project's session start", async () => {
    const {openStores} = await import('../src/store/stores.js')
    const {renderCard, validateFrontmatter} = await import('../src/domain/card/format.js')
    const {renderBody} = await import('../src/domain/card/sections.js')
    const repo = await hookRepo()
    repo.git('remote', 'add', 'origin', 'https://github.com/acme/widget.git')
    const personal = await openStores(repo.ctx()).ensurePersonal()
    const put = (id: string, scope: object) => {
      const fm = validateFrontmatter({
        schema: 'cairn/card@1',
        id,
        type: 'guideline',
        status: 'active',
        title: `Title ${id}`,
        summary: `Summary of ${id}.`,
        load: 'core',
        scope,
        created: '2026-10-01T00:00:00Z',
        approved: {by: 'me', at: '2026-10-02T00:00:00Z'},
      })
      const body = renderBody(
        {
          problem: fm.summary,
          use_when: [],
          ignore_when: [],
          policy: 'may',
          risk: 'low',
          rule: `Rule of ${id}.`,
          evidence: '-',
        },
        'en',
      )
      fs.mkdirSync(path.join(personal.root, 'cards/guideline'), {recursive: true})
      fs.writeFileSync(path.join(personal.root, 'cards/guideline', `${id}.md`), renderCard({...fm, body}))
    }
    put('personal-rule-for-other-project', {level: 'project', project_key: 'github.com/acme/other'})
    put('personal-rule-for-this-project', {level: 'project', project_key: 'github.com/acme/widget'})
    put('personal-rule-everywhere-global', {level: 'global'})
    const r = JSON.parse(
      (await feed(repo, 'claude', 'session-start', {session_id: 'p', cwd: repo.dir, hook_event_name: 'SessionStart'}))
        .stdout,
    )
    const ids = [...r.hookSpecificOutput.additionalContext.matchAll(/^### .* \(([a-z-]+)\)$/gm)].map(m => m[1])
    expect(ids).toEqual(['run-tests-before-push', 'personal-rule-everywhere-global', 'personal-rule-for-this-project'])
    await settle(repo)
  })
})
