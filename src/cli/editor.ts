import {spawn} from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

type Env = Record<string, string | undefined>

/**
 * The editor as git picks it: $VISUAL, then $EDITOR, then vi; but vi only on a terminal that can
 * run it: off a terminal (an agent's shell, a pipe) it would write escape codes into the output or
 * wait for keys forever, and on a dumb one (TERM unset or "dumb") it cannot work. Then there is none.
 */
export function editorCommand(env: Env, onTerminal: boolean): string | undefined {
  const chosen = env.VISUAL?.trim() || env.EDITOR?.trim()
  if (chosen) return chosen
  return onTerminal && env.TERM && env.TERM !== 'dumb' ? 'vi' : undefined
}

/** How the editor ended: closed normally, or the reason it did not. */
export type EditorExit = {ok: true} | {ok: false; reason: string}

/**
 * Runs the editor on file, on this terminal, and waits for it to close. The command goes through
 * the shell as git runs it, so "code --wait" or an editor path with arguments works. While it runs,
 * Ctrl-C belongs to the editor: cairn ignores SIGINT and SIGQUIT instead of dying under it.
 */
export async function runEditor(editor: string, file: string, env: Env): Promise<EditorExit> {
  const child =
    process.platform === 'win32'
      ? spawn(`${editor} "${file}"`, {shell: true, stdio: 'inherit', env: defined(env)})
      : spawn('/bin/sh', ['-c', `${editor} "$@"`, editor, file], {stdio: 'inherit', env: defined(env)})
  const signals = process.platform === 'win32' ? [] : (['SIGINT', 'SIGQUIT'] as const)
  const ignore = () => {}
  for (const s of signals) process.on(s, ignore)
  try {
    return await new Promise<EditorExit>(resolve => {
      child.on('error', error => resolve({ok: false, reason: `could not start: ${error.message}`}))
      child.on('close', (code, signal) => {
        if (code === 0) resolve({ok: true})
        else if (signal) resolve({ok: false, reason: `was stopped by ${signal}`})
        // The shell's answer for a command it cannot find.
        else if (code === 127) {
          resolve({ok: false, reason: 'could not be run, exit 127; set VISUAL or EDITOR to an installed editor'})
        } else resolve({ok: false, reason: `exited with code ${code}`})
      })
    })
  } finally {
    for (const s of signals) process.off(s, ignore)
  }
}

/** A file of its own in a fresh temp dir, for the user to edit; removed only when asked. */
export interface Draft {
  file: string
  read(): string
  remove(): void
}

export function createDraft(name: string, text: string): Draft {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-edit-'))
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return {
    file,
    read: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''),
    remove: () => fs.rmSync(dir, {recursive: true, force: true}),
  }
}

function defined(env: Env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return out
}
