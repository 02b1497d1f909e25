import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface HookCheck {
  command: string
  ok: boolean
  /** The exit code; null when the command could not start or ran past the time limit. */
  exitCode: number | null
  /** Why it failed: its stderr's last line, or the spawn error. */
  reason?: string
}

/** Long enough for a cold node start on a busy machine; the check is whether it runs, not how fast. */
const LIMIT_MS = 20_000

/**
 * Runs a hook command the way the clients do (through the shell, the payload on stdin) and checks
 * it exits 0. It runs in an empty temporary directory that is also the payload's cwd, so the hook
 * finds no store, with CAIRN_HOME pointed at a directory that does not exist, so no personal store
 * either: it answers with nothing and records no event, digest or card shown.
 */
export function checkHookCommand(
  command: string,
  payload: (cwd: string) => Record<string, unknown>,
  env: Record<string, string | undefined>,
): HookCheck {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-install-check-')))
  try {
    const r = spawnSync(command, {
      shell: true,
      cwd: dir,
      // An empty personal home too: the check must not touch the user's own ~/.cairn.
      env: {...defined(env), CAIRN_HOME: path.join(dir, '.cairn-home')},
      input: JSON.stringify(payload(dir)),
      encoding: 'utf8',
      timeout: LIMIT_MS,
    })
    // A command that exits without reading its stdin (not found, say) also gives EPIPE: its status decides.
    if (r.error && r.status === null) return {command, ok: false, exitCode: null, reason: r.error.message}
    if (r.status === 0) return {command, ok: true, exitCode: 0}
    const last = r.stderr.trim().split('\n').pop()?.trim()
    const reason = r.status === null ? `killed by ${r.signal}` : last || `exit code ${r.status}`
    return {command, ok: false, exitCode: r.status, reason}
  } finally {
    fs.rmSync(dir, {recursive: true, force: true})
  }
}

function defined(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return out
}
