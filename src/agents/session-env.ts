import fs from 'node:fs'
import type {HookInput} from '../app/hooks/types.js'

/** A session id as clients write them (UUIDs, thread ids): safe to put in a shell line unquoted. */
const SAFE_SESSION = /^[\w.:-]{1,200}$/
const MAX_ENV_FILE = 1024 * 1024

/**
 * At session start, Claude Code hands its hooks CLAUDE_ENV_FILE, a shell script it sources before each of the
 * session's Bash commands. cairn adds CAIRN_CLIENT and CAIRN_SESSION_ID to it, so a card the agent proposes with
 * `cairn propose` records the client and session it came from (provenance). Once per file; any failure is ignored,
 * as the hook's answer never depends on it.
 */
export function exportSession(input: HookInput, env: Record<string, string | undefined>): void {
  const file = env.CLAUDE_ENV_FILE?.trim()
  if (input.event !== 'session-start' || input.agent !== 'claude' || !file || !SAFE_SESSION.test(input.session)) return
  try {
    const lines = `export CAIRN_CLIENT=claude\nexport CAIRN_SESSION_ID=${input.session}\n`
    // The client's file, read on the session's first event only, and never past 1 MB or through a link.
    const stat = fs.lstatSync(file, {throwIfNoEntry: false})
    if (stat && (!stat.isFile() || stat.size > MAX_ENV_FILE)) return
    const had = stat ? fs.readFileSync(file, 'utf8') : ''
    if (had.includes(lines)) return
    fs.appendFileSync(file, `${had && !had.endsWith('\n') ? '\n' : ''}${lines}`)
  } catch {
    // The client's file is the client's: cairn never fails a session over it.
  }
}
