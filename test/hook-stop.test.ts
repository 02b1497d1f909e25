import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {enrichApply} from '../src/app/enrich.js'
import {errorLog, feed, hookRepo, plant, settle} from './hook-helpers.js'

const base = (repo: {dir: string}, event: string, extra: object = {}) => ({
  session_id: 'sess-9',
  transcript_path: null,
  cwd: repo.dir,
  hook_event_name: event,
  ...extra,
})

function transcript(dir: string): string {
  const file = path.join(dir, '..', 'transcript.jsonl')
  const lines = [
    {type: 'user', message: {role: 'user', content: 'Add an index on users.email'}},
    {type: 'assistant', message: {role: 'assistant', content: [{type: 'text', text: 'Adding a migration.'}]}},
    {type: 'user', message: {role: 'user', content: [{type: 'text', text: 'and back it up first'}]}},
  ]
  fs.writeFileSync(file, lines.map(l => JSON.stringify(l)).join('\n'))
  return file
}

async function busySession(repo: Awaited<ReturnType<typeof hookRepo>>): Promise<void> {
  for (const prompt of ['one', 'two', 'three', 'four'])
    await feed(repo, 'claude', 'user-prompt-submit', base(repo, 'UserPromptSubmit', {prompt}))
  await feed(
    repo,
    'claude',
    'post-tool-use',
    base(repo, 'PostToolUse', {
      tool_name: 'Write',
      tool_input: {file_path: path.join(repo.dir, 'db/migrations/003.sql')},
    }),
  )
  await settle(repo)
}

describe('stop', () => {
  it('writes the digest and blocks once when the archive signal is due, naming the skill', async () => {
    const repo = await hookRepo()
    await busySession(repo)
    const file = transcript(repo.dir)
    const payload = base(repo, 'Stop', {
      transcript_path: file,
      stop_hook_active: false,
      last_assistant_message: 'Migration added; backup script run.',
    })
    const first = await feed(repo, 'claude', 'stop', payload)
    expect(JSON.parse(first.stdout)).toEqual({
      decision: 'block',
      reason: [
        'cairn: before you finish, one thing is due:',
        '- archive: 5 prompts and edits since the last proposed card; run the cairn-archive skill: it reads the session digests and proposes cards with `cairn propose`.',
        'If none of it is worth doing now, say so in one line and stop.',
      ].join('\n'),
    })
    expect(repo.read('.cairn/.local/digests/sess-9.md')).toBe(
      [
        '# Add an index on users.email',
        '',
        'session: sess-9 · agent: claude · 2026-11-29T10:00:00.000Z',
        '',
        '## First user messages',
        '',
        '1. Add an index on users.email',
        '2. and back it up first',
        '',
        '## Edited paths',
        '',
        '- db/migrations/003.sql',
        '',
        '## Last assistant message',
        '',
        'Migration added; backup script run.',
        '',
      ].join('\n'),
    )
    expect((await feed(repo, 'claude', 'stop', payload)).stdout).toBe('')
    expect(errorLog(repo)).toEqual([])
  })

  it('never blocks while stop_hook_active is true', async () => {
    const repo = await hookRepo()
    await busySession(repo)
    const r = await feed(repo, 'claude', 'stop', base(repo, 'Stop', {stop_hook_active: true}))
    expect(r.stdout).toBe('')
    // The once-per-session block is still available after the client's own continuation ends.
    expect(
      JSON.parse((await feed(repo, 'claude', 'stop', base(repo, 'Stop', {stop_hook_active: false}))).stdout).decision,
    ).toBe('block')
  })

  it('does not block a session that edited nothing', async () => {
    const repo = await hookRepo()
    for (const prompt of ['a', 'b', 'c', 'd', 'e', 'f'])
      await feed(repo, 'claude', 'user-prompt-submit', base(repo, 'UserPromptSubmit', {prompt}))
    await settle(repo)
    expect((await feed(repo, 'claude', 'stop', base(repo, 'Stop'))).stdout).toBe('')
  })

  it('Codex prints {} when there is nothing to say; Cursor sends the signal once as a follow-up; Gemini retries AfterAgent', async () => {
    const repo = await hookRepo()
    expect((await feed(repo, 'codex', 'stop', base(repo, 'Stop', {turn_id: 't'}))).stdout).toBe('{}')
    await busySession(repo)
    const cursor = {
      conversation_id: 'sess-9',
      generation_id: 'g',
      hook_event_name: 'stop',
      workspace_roots: [repo.dir],
      status: 'completed',
      loop_count: 0,
    }
    const follow = JSON.parse((await feed(repo, 'cursor', 'stop', cursor)).stdout)
    expect(Object.keys(follow)).toEqual(['followup_message'])
    expect(follow.followup_message).toContain('cairn-archive')
    expect((await feed(repo, 'cursor', 'stop', cursor)).stdout).toBe('')
    await feed(
      repo,
      'gemini',
      'post-tool-use',
      base(repo, 'AfterTool', {
        session_id: 'gem-1',
        tool_name: 'write_file',
        tool_input: {file_path: path.join(repo.dir, 'b.txt'), content: ''},
      }),
    )
    const g = JSON.parse(
      (
        await feed(
          repo,
          'gemini',
          'stop',
          base(repo, 'AfterAgent', {session_id: 'gem-1', prompt: 'p', prompt_response: 'r', stop_hook_active: false}),
        )
      ).stdout,
    )
    expect(g.decision).toBe('deny')
    expect(g.reason).toContain('cairn-archive')
  })

  it('names every due signal in one reason: archive, review, maintain and enrich', async () => {
    const repo = await hookRepo()
    repo.write(
      '.cairn/config.yaml',
      repo
        .read('.cairn/config.yaml')
        .replace('review_max_pending: 10', 'review_max_pending: 1')
        .replace('enrich_min_cards: 3', 'enrich_min_cards: 1'),
    )
    repo.write(
      '.cairn/pending/pitfall/waiting-card-one.md',
      repo.read('.cairn/cards/guideline/flaky-login-test.md').replace('status: active', 'status: draft'),
    )
    repo.write('.cairn/.local/.pending-fix', '{}\n')
    await busySession(repo)
    const reason: string = JSON.parse((await feed(repo, 'claude', 'stop', base(repo, 'Stop'))).stdout).reason
    expect(reason.split('\n').map(l => l.split(':')[0])).toEqual([
      'cairn',
      '- archive',
      '- review',
      '- maintain',
      '- enrich',
      'If none of it is worth doing now, say so in one line and stop.',
    ])
    expect(reason).toContain('cairn-review skill')
    expect(reason).toContain(
      "- enrich: 1 recall card has no triggers, aliases or use_when (the limit is 1), so prompts in people's own words miss it; run the cairn-enrich skill (`cairn enrich --json`): it writes their phrases in one commit the team reviews.",
    )
  })

  it('raises enrich once enough active cards have no phrases of their own, and only for a session that edited files', async () => {
    // hookRepo's active cards: a recall card with no triggers, aliases or use_when, one with all of them, and a
    // core card (in every session anyway, so never counted).
    const repo = await hookRepo()
    const config = repo.read('.cairn/config.yaml')
    const stop = async (session: string) => {
      const r = await feed(repo, 'claude', 'stop', base(repo, 'Stop', {session_id: session}))
      return r.stdout ? (JSON.parse(r.stdout).reason as string) : ''
    }
    const edit = (session: string) =>
      feed(
        repo,
        'claude',
        'post-tool-use',
        base(repo, 'PostToolUse', {
          session_id: session,
          tool_name: 'Write',
          tool_input: {file_path: path.join(repo.dir, 'notes.txt')},
        }),
      )
    await edit('few-1')
    expect(await stop('few-1')).toBe('') // 1 bare recall card, the default is 3
    repo.write('.cairn/config.yaml', config.replace('enrich_min_cards: 3', 'enrich_min_cards: 0'))
    await settle(repo)
    await edit('off-1')
    expect(await stop('off-1')).toBe('') // 0 turns the signal off
    repo.write('.cairn/config.yaml', config.replace('enrich_min_cards: 3', 'enrich_min_cards: 1'))
    await settle(repo)
    expect(await stop('idle-1')).toBe('') // edited nothing
    await edit('work-1')
    expect((await stop('work-1')).split('\n').map(l => l.split(':')[0])).toEqual([
      'cairn',
      '- enrich',
      'If none of it is worth doing now, say so in one line and stop.',
    ])
    expect(await stop('work-1')).toBe('') // once per session
    // Raised, it keeps quiet in the next sessions (for a week, dueSignals' test) while no more cards are bare.
    expect(repo.read('.cairn/.local/events.jsonl')).toContain('"event":"enrich_raised","session":"work-1"')
    await edit('work-1b')
    expect(await stop('work-1b')).toBe('')
    plant(repo, 'seed-data-before-demo', {title: 'Seed the demo data', summary: 'Load fixtures before a demo.'})
    repo.git('add', '-A')
    repo.git('commit', '-qm', 'one more bare card')
    await settle(repo)
    await edit('work-1c')
    expect(await stop('work-1c')).toContain('- enrich: 2 recall cards have no triggers, aliases or use_when')
    // Enriched (the write updates the index as it commits), they are bare no more.
    const entries = [
      {id: 'backup-before-migration', triggers: ['dump the database first']},
      {id: 'seed-data-before-demo', triggers: ['demo fixtures missing']},
    ]
    await enrichApply(repo.ctx({stdin: JSON.stringify(entries)}), {file: '-'})
    await edit('work-2')
    // (By now the sessions' edits make archive due.)
    expect(await stop('work-2')).not.toContain('enrich')
  })

  it('session-end writes the digest only when no stop did', async () => {
    const repo = await hookRepo()
    await feed(
      repo,
      'claude',
      'post-tool-use',
      base(repo, 'PostToolUse', {
        session_id: 'end-1',
        tool_name: 'Write',
        tool_input: {file_path: path.join(repo.dir, 'a.txt')},
      }),
    )
    expect(
      (await feed(repo, 'claude', 'session-end', base(repo, 'SessionEnd', {session_id: 'end-1', reason: 'exit'})))
        .stdout,
    ).toBe('')
    expect(repo.read('.cairn/.local/digests/end-1.md')).toContain('## Edited paths\n\n- a.txt\n')
    await settle(repo)
  })
})
