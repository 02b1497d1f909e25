import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {errorLog, feed, hookRepo, settle} from './hook-helpers.js'
import {tempDir} from './helpers.js'
import {hookDeadline, neutralOf, within} from './red-team-helpers.js'

/**
 * Issue 27, held checks: transcript paths a payload may name. The events that read a transcript
 * (stop, session-end) answer within the deadline (a late answer would be logged), read only a
 * regular file that is no link, and of that at most its head and tail (2.5 MB), and write the
 * session digest from what they could read.
 */
const DEADLINE_MS = 5000
const AT = '2026-11-29T10:00:00.000Z'
const GB = 1024 * 1024 * 1024
const line = (role: string, content: string) => `${JSON.stringify({type: role, message: {role, content}})}\n`

/** The digest of a session that edited nothing and whose transcript gave nothing. */
const emptyDigest = (session: string, agent: string) => `# session\n\nsession: ${session} · agent: ${agent} · ${AT}\n`

function readable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK)
    return true
  } catch {
    return false
  }
}

/** A 2 GB file that holds a message at its start, one at 1 GB and one at its end; the rest is a hole (no disk). */
function sparseTranscript(file: string): void {
  const fd = fs.openSync(file, 'w')
  try {
    fs.writeSync(fd, line('user', 'head message'), 0)
    fs.writeSync(fd, `\n${line('user', 'middle message nobody reads')}`, GB)
    const tail = `\n${line('assistant', 'tail answer')}`
    fs.writeSync(fd, tail, 2 * GB - Buffer.byteLength(tail))
  } finally {
    fs.closeSync(fd)
  }
  expect(fs.statSync(file).size).toBe(2 * GB)
}

describe('red team: transcript paths', () => {
  it(
    '/etc/shadow, mode 000, a FIFO, /dev/zero, 2 GB sparse, a directory, and a link to each',
    {timeout: 120_000},
    async () => {
      const repo = await hookRepo()
      const env = hookDeadline(repo, DEADLINE_MS)
      const dir = tempDir()
      const at = (name: string) => path.join(dir, name)
      execFileSync('mkfifo', [at('fifo')])
      sparseTranscript(at('sparse.jsonl'))
      fs.mkdirSync(at('a-directory'))
      // Unreadable but to root, who reads it as any regular transcript.
      fs.writeFileSync(at('mode-000.jsonl'), line('user', 'private words'))
      fs.chmodSync(at('mode-000.jsonl'), 0o000)
      const rootReads = readable(at('mode-000.jsonl'))
      const targets: Record<string, string> = {
        '/etc/shadow': '/etc/shadow',
        'mode 000': at('mode-000.jsonl'),
        FIFO: at('fifo'),
        '/dev/zero': '/dev/zero',
        '2 GB sparse file': at('sparse.jsonl'),
        directory: at('a-directory'),
      }
      if (!fs.existsSync('/etc/shadow')) delete targets['/etc/shadow']
      const cases: [string, string][] = Object.entries(targets)
      for (const [name, target] of Object.entries(targets)) {
        const link = at(`link-${cases.length}`)
        fs.symlinkSync(target, link)
        cases.push([`a link to ${name}`, link])
      }
      const digestOf = (session: string, agent: string, name: string) => {
        const head = (title: string) =>
          `# ${title}\n\nsession: ${session} · agent: ${agent} · ${AT}\n\n## First user messages\n\n1. ${title}\n`
        if (name === '2 GB sparse file') return `${head('head message')}\n## Last assistant message\n\ntail answer\n`
        return name === 'mode 000' && rootReads ? head('private words') : emptyDigest(session, agent)
      }

      // Every client's stop, and one session-end: the adapters share the reader (commonInput).
      const runs = [
        ...['claude', 'codex', 'cursor', 'gemini'].map(agent => [agent, 'stop', 'Stop']),
        ['claude', 'session-end', 'SessionEnd'],
      ]
      let n = 0
      for (const [name, file] of cases) {
        for (const [agent, event, hookName] of runs) {
          const session = `t-${n++}`
          const payload = {
            session_id: session,
            conversation_id: session,
            cwd: repo.dir,
            workspace_roots: [repo.dir],
            hook_event_name: hookName,
            transcript_path: file,
            stop_hook_active: false,
          }
          const r = await within(
            feed(repo, agent, event, payload, env),
            2 * DEADLINE_MS,
            `${agent} ${event} on ${name}`,
          )
          const where = `${agent} ${event}: ${name}`
          expect([r.stdout, r.error], where).toEqual([neutralOf(agent, event), undefined])
          expect(repo.read(`.cairn/.local/digests/${session}.md`), where).toBe(digestOf(session, agent, name))
        }
      }
      // Within the deadline every time: a late run is logged, and none was.
      expect(errorLog(repo)).toEqual([])
      await settle(repo)
    },
  )
})
