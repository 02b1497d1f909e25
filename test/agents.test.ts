import {describe, expect, it} from 'vitest'
import {claude} from '../src/agents/claude.js'
import {codex, patchPaths} from '../src/agents/codex.js'
import {cursor} from '../src/agents/cursor.js'
import {fitContext, sizeOf} from '../src/agents/fit.js'
import {gemini} from '../src/agents/gemini.js'
import {parseTranscript} from '../src/agents/transcript.js'
import type {HookAnswer} from '../src/app/hooks/types.js'

/** Pure wire-format tests: each client's documented stdin becomes cairn's input, and cairn's answer its stdout. */
const ctx: HookAnswer = {context: [{kind: 'cards', text: 'cairn: cards'}]}
const plain = (i: object) => JSON.parse(JSON.stringify(i, (k, v) => (typeof v === 'function' ? undefined : v)))

describe('Claude Code adapter', () => {
  it('reads the documented PreToolUse payload (Write names an absolute file_path)', () => {
    const input = claude.parse('pre-tool-use', {
      session_id: 'abc123',
      transcript_path: '/tmp/t.jsonl',
      cwd: '/work/p',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: {file_path: '/work/p/src/a.ts', content: 'x'},
      tool_use_id: 'toolu_01',
    })
    expect(plain(input)).toEqual({
      event: 'pre-tool-use',
      agent: 'claude',
      session: 'abc123',
      cwd: '/work/p',
      prompt: null,
      tool: 'Write',
      paths: ['/work/p/src/a.ts'],
      transcriptPath: '/tmp/t.jsonl',
      lastAssistantMessage: null,
      stopHookActive: false,
    })
    expect(
      claude.parse('pre-tool-use', {tool_name: 'NotebookEdit', tool_input: {notebook_path: '/w/n.ipynb'}}).paths,
    ).toEqual(['/w/n.ipynb'])
  })

  it('answers each event in its documented shape', () => {
    expect(JSON.parse(claude.render('session-start', ctx, 'core'))).toEqual({
      hookSpecificOutput: {hookEventName: 'SessionStart', additionalContext: 'core'},
    })
    expect(JSON.parse(claude.render('user-prompt-submit', ctx, 'x'))).toEqual({
      hookSpecificOutput: {hookEventName: 'UserPromptSubmit', additionalContext: 'x'},
    })
    expect(JSON.parse(claude.render('pre-tool-use', ctx, 'x'))).toEqual({
      hookSpecificOutput: {hookEventName: 'PreToolUse', additionalContext: 'x'},
    })
    expect(JSON.parse(claude.render('post-tool-use', ctx, 'x'))).toEqual({
      hookSpecificOutput: {hookEventName: 'PostToolUse', additionalContext: 'x'},
    })
    expect(JSON.parse(claude.render('pre-tool-use', {context: [], deny: 'the rule'}, ''))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'the rule',
      },
    })
    expect(JSON.parse(claude.render('stop', {context: [], block: 'why'}, ''))).toEqual({
      decision: 'block',
      reason: 'why',
    })
    expect(claude.render('stop', {context: []}, '')).toBe('')
    expect(claude.render('session-end', ctx, 'x')).toBe('')
    expect(claude.render('session-start', {context: []}, '')).toBe('')
  })

  it('reads stop_hook_active and last_assistant_message', () => {
    const input = claude.parse('stop', {
      session_id: 's',
      cwd: '/w',
      stop_hook_active: true,
      last_assistant_message: 'done',
    })
    expect([input.stopHookActive, input.lastAssistantMessage]).toEqual([true, 'done'])
  })
})

describe('Codex adapter', () => {
  const patch = [
    '*** Begin Patch',
    '*** Add File: src/new.ts',
    '+export const x = 1',
    '*** Update File: src/old.ts',
    '*** Move to: src/moved.ts',
    '@@',
    '-a',
    '+b',
    '*** Delete File: docs/gone.md',
    '*** End Patch',
  ].join('\n')

  it('takes the edited paths from the apply_patch text', () => {
    expect(patchPaths(patch)).toEqual(['src/new.ts', 'src/old.ts', 'src/moved.ts', 'docs/gone.md'])
    const input = codex.parse('pre-tool-use', {
      session_id: 's',
      turn_id: 't1',
      model: 'gpt-5',
      cwd: '/w',
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: {command: patch},
    })
    expect(input.paths).toEqual(['src/new.ts', 'src/old.ts', 'src/moved.ts', 'docs/gone.md'])
    expect(input.transcriptPath).toBeNull()
  })

  it('answers like Claude Code, and a Stop with nothing to say prints {}', () => {
    expect(JSON.parse(codex.render('user-prompt-submit', ctx, 'x'))).toEqual({
      hookSpecificOutput: {hookEventName: 'UserPromptSubmit', additionalContext: 'x'},
    })
    expect(codex.neutral('stop')).toBe('{}')
    expect(codex.neutral('user-prompt-submit')).toBe('')
  })

  it('leaves the deny reason\'s last period to Codex, which adds its own ("retry is allowed..")', () => {
    const deny = 'cairn: rule.\nApply the rule, then retry the write; the retry is allowed.'
    expect(JSON.parse(codex.render('pre-tool-use', {context: [], deny}, '')).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'cairn: rule.\nApply the rule, then retry the write; the retry is allowed',
    })
    expect(
      JSON.parse(claude.render('pre-tool-use', {context: [], deny}, '')).hookSpecificOutput.permissionDecisionReason,
    ).toBe(deny)
  })
})

describe('Cursor adapter', () => {
  it('finds the store from workspace_roots when there is no cwd, and the session from conversation_id', () => {
    const input = cursor.parse('session-start', {
      conversation_id: 'c1',
      generation_id: 'g1',
      hook_event_name: 'sessionStart',
      workspace_roots: ['/w/p'],
      cursor_version: '2.0',
    })
    expect([input.session, input.cwd]).toEqual(['c1', '/w/p'])
    const edit = cursor.parse('post-tool-use', {
      conversation_id: 'c1',
      hook_event_name: 'afterFileEdit',
      workspace_roots: ['/w/p'],
      file_path: '/w/p/a.ts',
      edits: [],
    })
    expect(edit.paths).toEqual(['/w/p/a.ts'])
  })

  it('puts context on sessionStart and postToolUse, denies with permission, and sends the stop signal as a follow-up', () => {
    expect(JSON.parse(cursor.render('session-start', ctx, 'core'))).toEqual({additional_context: 'core'})
    expect(JSON.parse(cursor.render('post-tool-use', ctx, 'cards'))).toEqual({additional_context: 'cards'})
    expect(JSON.parse(cursor.render('pre-tool-use', {context: [], deny: 'r'}, ''))).toEqual({
      permission: 'deny',
      user_message: 'r',
      agent_message: 'r',
    })
    expect(cursor.render('pre-tool-use', ctx, 'x')).toBe('')
    expect(JSON.parse(cursor.render('stop', {context: [], block: 'archive'}, ''))).toEqual({
      followup_message: 'archive',
    })
    expect(cursor.render('user-prompt-submit', ctx, 'x')).toBe('')
    expect(cursor.caps.preToolContext).toBe(false)
  })
})

describe('Gemini CLI adapter', () => {
  it('reads BeforeTool and AfterAgent payloads', () => {
    const tool = gemini.parse('pre-tool-use', {
      session_id: 's',
      cwd: '/w',
      hook_event_name: 'BeforeTool',
      timestamp: '2026-11-30T00:00:00Z',
      tool_name: 'replace',
      tool_input: {file_path: '/w/a.ts', old_string: 'a', new_string: 'b'},
    })
    expect(tool.paths).toEqual(['/w/a.ts'])
    const stop = gemini.parse('stop', {
      session_id: 's',
      cwd: '/w',
      hook_event_name: 'AfterAgent',
      prompt: 'p',
      prompt_response: 'answer',
      stop_hook_active: false,
    })
    expect(stop.lastAssistantMessage).toBe('answer')
  })

  it('adds context on SessionStart, BeforeAgent and AfterTool; denies on BeforeTool; retries AfterAgent with the reason', () => {
    expect(JSON.parse(gemini.render('session-start', ctx, 'c'))).toEqual({
      hookSpecificOutput: {hookEventName: 'SessionStart', additionalContext: 'c'},
    })
    expect(JSON.parse(gemini.render('user-prompt-submit', ctx, 'c'))).toEqual({
      hookSpecificOutput: {hookEventName: 'BeforeAgent', additionalContext: 'c'},
    })
    expect(JSON.parse(gemini.render('post-tool-use', ctx, 'c'))).toEqual({
      hookSpecificOutput: {hookEventName: 'AfterTool', additionalContext: 'c'},
    })
    expect(gemini.render('pre-tool-use', ctx, 'c')).toBe('')
    expect(JSON.parse(gemini.render('pre-tool-use', {context: [], deny: 'r'}, ''))).toEqual({
      decision: 'deny',
      reason: 'r',
    })
    expect(JSON.parse(gemini.render('stop', {context: [], block: 'b'}, ''))).toEqual({decision: 'deny', reason: 'b'})
  })
})

describe('fitting context to a client cap', () => {
  it('keeps must-cards, then core, then the brief, then the catalog, cutting at a line', () => {
    const parts = [
      {kind: 'catalog' as const, text: `catalog\n${'- c\n'.repeat(50)}`},
      {kind: 'brief' as const, text: 'brief line'},
      {kind: 'core' as const, text: 'core rules\nrule one'},
      {kind: 'must' as const, text: 'MUST rule'},
    ]
    expect(
      fitContext(parts, {unit: 'chars', max: 10_000})
        .split('\n\n')
        .map(p => p.split('\n')[0]),
    ).toEqual(['MUST rule', 'core rules', 'brief line', 'catalog'])
    const tight = fitContext(parts, {unit: 'chars', max: 60})
    expect(tight).toBe('MUST rule\n\ncore rules\nrule one\n\nbrief line')
    const cut = fitContext(parts, {unit: 'chars', max: 110})
    expect(cut.startsWith('MUST rule\n\ncore rules\nrule one\n\nbrief line\n\ncatalog\n- c\n')).toBe(true)
    expect(cut.endsWith('… (cut to fit the hook size limit)')).toBe(true)
    expect(sizeOf(cut, 'chars')).toBeLessThanOrEqual(110)
  })

  it('counts a Chinese character as one token', () => {
    expect(sizeOf('数据库迁移', 'tokens')).toBe(5)
    expect(sizeOf('abcdef', 'tokens')).toBe(2)
    const zh = {kind: 'core' as const, text: `核心规则\n${'迁移前先备份数据库。\n'.repeat(400)}`}
    expect(sizeOf(fitContext([zh], {unit: 'tokens', max: 2500}), 'tokens')).toBeLessThanOrEqual(2500)
  })
})

describe('transcripts', () => {
  it('reads Claude Code JSONL: user text, not tool results or injected commands; the last assistant text', () => {
    const lines = [
      {type: 'user', message: {role: 'user', content: 'Fix the login redirect'}},
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            {type: 'text', text: 'Looking.'},
            {type: 'tool_use', name: 'Read'},
          ],
        },
      },
      {type: 'user', message: {role: 'user', content: [{type: 'tool_result', content: 'file text'}]}},
      {type: 'user', message: {role: 'user', content: '<command-name>/clear</command-name>'}},
      {type: 'user', message: {role: 'user', content: [{type: 'text', text: 'Also keep the query string'}]}},
      {type: 'assistant', message: {role: 'assistant', content: [{type: 'text', text: 'Done: redirect keeps ?next.'}]}},
    ]
    expect(parseTranscript(`${lines.map(l => JSON.stringify(l)).join('\n')}\n{"cut`)).toEqual({
      userMessages: ['Fix the login redirect', 'Also keep the query string'],
      lastAssistantMessage: 'Done: redirect keeps ?next.',
    })
  })

  it('reads a Codex rollout and a Gemini session document', () => {
    const codexLines = [
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{type: 'input_text', text: '<environment_context>cwd</environment_context>'}],
        },
      },
      {
        type: 'response_item',
        payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'add a migration'}]},
      },
      {
        type: 'response_item',
        payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'Added.'}]},
      },
    ]
    expect(parseTranscript(codexLines.map(l => JSON.stringify(l)).join('\n'))).toEqual({
      userMessages: ['add a migration'],
      lastAssistantMessage: 'Added.',
    })
    const doc = {
      sessionId: 's',
      messages: [
        {type: 'user', content: 'rename the flag'},
        {type: 'gemini', content: 'Renamed.'},
      ],
    }
    expect(parseTranscript(JSON.stringify(doc, null, 2))).toEqual({
      userMessages: ['rename the flag'],
      lastAssistantMessage: 'Renamed.',
    })
  })
})

describe('path card pre-filter', () => {
  it('takes the literal directory head of a glob, so only cards that could match compile their globs', async () => {
    const {literalHead} = await import('../src/domain/card/scope-paths.js')
    expect(
      [
        'db/migrations/**',
        'src/api/*.ts',
        'src/a.ts',
        '**/*.sql',
        '!src/gen/**',
        'src/{a,b}/x.ts',
        'docs/v1.[0-9]/**',
      ].map(literalHead),
    ).toEqual(['db/migrations/', 'src/api/', 'src/a.ts', '', '', 'src/', 'docs/'])
  })
})
