import {describe, expect, it} from 'vitest'
import {codex, patchPaths} from '../src/agents/codex.js'
import {parseTranscript} from '../src/agents/transcript.js'
import {MAX_EVENT_PATHS} from '../src/app/hooks/types.js'
import {mentionSpans, type Span} from '../src/recall/match/context.js'
import {eventLine, type LedgerEvent, MAX_EVENT_BYTES, readEvents, ROTATE_EVENTS_AT} from '../src/store/agents/local.js'
import {projectStoreAt} from '../src/store/layout.js'
import {feed, hookRepo, settle} from './hook-helpers.js'
import {prng} from './helpers.js'

/**
 * The reproductions of issue 27 item 7 give the right results, and each rewrite of a quadratic
 * step gives what the step gave before, byte for byte, on random inputs (the old code is kept
 * here as the definition). hook-bounds.test.ts times them.
 */
const PATH_CARDS = (files: string) =>
  `cairn: cards for ${files} (read a rule with \`cairn show ID --section rule\`):\n` +
  '- [must] Back up before a migration (backup-before-migration): Take a database backup before running any migration.'
const apply = (command: string) => ({
  session_id: 'cx',
  cwd: '',
  hook_event_name: 'PreToolUse',
  tool_name: 'apply_patch',
  tool_input: {command},
})

/** The hook repo with its index built, so the hooks under test answer within the store's deadline. */
async function warmRepo() {
  const repo = await hookRepo()
  await feed(repo, 'codex', 'session-start', {session_id: 'warm', cwd: repo.dir})
  await settle(repo)
  return repo
}

describe('Codex patch paths', () => {
  const spaces = ' '.repeat(100_000)

  it('a line of 100,000 spaces: its path, once; a path that long is no file a hook works on, and is counted', async () => {
    expect(patchPaths(`*** Add File: a${spaces}b`)).toEqual([`a${spaces}b`])
    expect(patchPaths(`*** Add File: a${spaces}`)).toEqual(['a'])
    const input = codex.parse('pre-tool-use', apply(`*** Add File: a${spaces}b\n*** Add File: db/migrations/001.sql`))
    expect([input.paths, input.droppedPaths]).toEqual([['db/migrations/001.sql'], 1])
    const repo = await warmRepo()
    const payload = {
      ...apply(
        `*** Begin Patch\n*** Add File: a${spaces}b\n*** Add File: db/migrations/001.sql${spaces}\n*** End Patch`,
      ),
      cwd: repo.dir,
    }
    const pre = await feed(repo, 'codex', 'pre-tool-use', payload)
    expect(JSON.parse(pre.stdout)).toEqual({
      hookSpecificOutput: {hookEventName: 'PreToolUse', additionalContext: PATH_CARDS('db/migrations/001.sql')},
    })
    const start = (p: object) =>
      feed(repo, 'codex', 'session-start', {...p, session_id: 'cs', cwd: repo.dir, hook_event_name: 'SessionStart'})
    expect((await start(payload)).stdout).toBe((await start({})).stdout)
    await settle(repo)
  })

  it('gives what the /m pattern gave on random patches (CRLF, lone CR, U+2028, tabs), less paths of only spaces', () => {
    const PATTERN = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm
    const before = (patch: string) => [...new Set([...patch.matchAll(PATTERN)].map(m => m[1]))].filter(p => p.trim())
    const rand = prng(7)
    const pieces = [
      '*** Add File: ',
      '*** Update File: ',
      '*** Move to: ',
      '*** Delete File:',
      '***  Add File: ',
      'src/a.ts',
      'b c',
      ' ',
      '  ',
      '\t',
      '\r\n',
      '\n',
      '\r',
      '\u2028',
      '\u00a0',
      'x',
    ]
    for (let n = 0; n < 3000; n++) {
      const patch = Array.from(
        {length: 1 + Math.floor(rand() * 12)},
        () => pieces[Math.floor(rand() * pieces.length)],
      ).join('')
      expect(patchPaths(patch), JSON.stringify(patch)).toEqual(before(patch))
    }
  })
})

describe('an apply_patch of 20,000 files', () => {
  const files = Array.from({length: 20_000}, (_, i) => `db/migrations/${String(i).padStart(5, '0')}.sql`)
  // One line per file (about 840 KB as a payload), under the 1 MB a hook reads.
  const patch = `*** Begin Patch\n${files.map(f => `*** Update File: ${f}`).join('\n')}\n*** End Patch`

  it(`works on the first ${MAX_EVENT_PATHS}, names five, and records as many as fit in 4 KB, counting the rest`, async () => {
    const repo = await warmRepo()
    const payload = {...apply(patch), cwd: repo.dir}
    const pre = await feed(repo, 'codex', 'pre-tool-use', payload)
    const named = `${files.slice(0, 5).join(', ')} and ${MAX_EVENT_PATHS - 5} more`
    expect(JSON.parse(pre.stdout).hookSpecificOutput.additionalContext).toBe(PATH_CARDS(named))
    await feed(repo, 'codex', 'post-tool-use', {...payload, hook_event_name: 'PostToolUse'})
    const line = repo
      .read('.cairn/.local/events.jsonl')
      .split('\n')
      .find(l => l.includes('"edit"'))!
    const event = JSON.parse(line)
    const kept = event.paths.length
    expect(event).toEqual({
      ts: '2026-11-29T10:00:00.000Z',
      event: 'edit',
      session: 'cx',
      agent: 'codex',
      tool: 'apply_patch',
      paths: files.slice(0, kept),
      paths_dropped: 20_000 - MAX_EVENT_PATHS,
      truncated: MAX_EVENT_PATHS - kept,
    })
    // As many as fit: with one more path (and one fewer dropped) the line would not.
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_EVENT_BYTES)
    const oneMore = {...event, paths: files.slice(0, kept + 1), truncated: event.truncated - 1}
    expect(Buffer.byteLength(JSON.stringify(oneMore))).toBeGreaterThanOrEqual(MAX_EVENT_BYTES)
    await settle(repo)
  })
})

describe('the ledger line', () => {
  /** eventLine as it was: drop one entry, serialise again. */
  function before(event: LedgerEvent): string {
    let e = event
    let line = JSON.stringify(e)
    let dropped = 0
    while (Buffer.byteLength(line) >= MAX_EVENT_BYTES) {
      const list = (e.paths?.length ?? 0) >= (e.cards?.length ?? 0) ? 'paths' : 'cards'
      const items = e[list] ?? []
      if (items.length === 0) {
        line = JSON.stringify({ts: e.ts, event: e.event, session: e.session?.slice(0, 200), truncated: true})
        break
      }
      dropped++
      e = {...e, [list]: items.slice(0, -1), truncated: dropped}
      line = JSON.stringify(e)
    }
    return `${line}\n`
  }

  it('is byte for byte what dropping one entry at a time gave, on random events', () => {
    const rand = prng(11)
    const word = () =>
      ['src/a.ts', 'ü/é', '漢字/パス.md', '"quoted"', 'x'.repeat(Math.floor(rand() * 300)), ''][Math.floor(rand() * 6)]
    const list = () => Array.from({length: Math.floor(rand() * (rand() < 0.5 ? 40 : 200))}, word)
    for (let n = 0; n < 200; n++) {
      const e: LedgerEvent = {
        ts: '2026-11-29T10:00:00Z',
        event: 'edit',
        ...(rand() < 0.8 ? {session: 's'.repeat(Math.floor(rand() * 5000))} : {}),
      }
      if (rand() < 0.2) e.truncated = 3
      if (rand() < 0.8) e.paths = list()
      if (rand() < 0.6) e.cards = list()
      if (rand() < 0.3) e.tool = 'apply_patch'
      expect(eventLine(e)).toBe(before(e))
    }
  })
})

describe('mention spans', () => {
  /** Each marker's clause end found by scanning from the marker, as before. */
  const CLAUSE_END = /[，。；;！？!?,：:\n]|\.(?=\s|$)|但是|但|而是|\bbut\b|\bhowever\b/g
  const end = (text: string, from: number) => {
    CLAUSE_END.lastIndex = from
    return CLAUSE_END.exec(text)?.index ?? text.length
  }

  it('a prompt of 80,000 "no"s is 80,000 spans, each to the end of the prompt; random prompts keep every span', () => {
    const text = 'no '.repeat(80_000).trim()
    const spans = mentionSpans(text)
    expect(spans).toHaveLength(80_000)
    expect(spans.every((s, i) => s.start === 3 * i && s.end === text.length)).toBe(true)
    const rand = prng(3)
    const words = [
      'no',
      'not a',
      'e.g.',
      'for example',
      'but',
      'however',
      '但是',
      '不是',
      'fix',
      'login',
      ', ',
      '. ',
      '.',
      ' ',
      '比如',
    ]
    for (let n = 0; n < 2000; n++) {
      const prompt = Array.from({length: Math.floor(rand() * 20)}, () => words[Math.floor(rand() * words.length)]).join(
        ' ',
      )
      const spans: Span[] = mentionSpans(prompt)
      expect(
        spans.map(s => s.end),
        prompt,
      ).toEqual(spans.map(s => end(prompt, s.start + s.marker.length)))
    }
  })
})

describe('a transcript', () => {
  const user = (text: string) => JSON.stringify({type: 'user', message: {role: 'user', content: text}})

  it('reads past a torn line or two; past 100 lines that do not parse it is no transcript, and reading stops', () => {
    expect(
      parseTranscript([user('first'), '{"type":"user","mess', user('second'), '{'].join('\n')).userMessages,
    ).toEqual(['first', 'second'])
    expect(parseTranscript([...Array(99).fill('{'), user('after 99')].join('\n')).userMessages).toEqual(['after 99'])
    expect(
      parseTranscript([user('before'), ...Array(100).fill('{'), user('after 100')].join('\n')).userMessages,
    ).toEqual(['before'])
    // Lines that are no object cost nothing and count for nothing.
    expect(parseTranscript([...Array(5000).fill('x'), user('after junk')].join('\n')).userMessages).toEqual([
      'after junk',
    ])
  })
})

describe('the event ledger a clone commits', () => {
  const line = (event: string) => JSON.stringify({ts: '2026-10-09T12:00:00Z', event, session: 's'})

  it('is read as a transcript is: junk lines skipped, reading stopped after 100 torn ones, a file past 2 MB not read', async () => {
    const repo = await hookRepo()
    const store = projectStoreAt(repo.dir)
    repo.write(
      '.cairn/.local/events.jsonl',
      [line('first'), 'x', '{"event":"cut', line('second'), ...Array(100).fill('{'), line('late')].join('\n'),
    )
    expect(readEvents(store).map(e => e.event)).toEqual(['first', 'second'])
    repo.write('.cairn/.local/events.1.jsonl', `${line('rotated')}\n${'{}\n'.repeat(ROTATE_EVENTS_AT)}`)
    expect(readEvents(store).map(e => e.event)).toEqual(['first', 'second'])
  })
})
