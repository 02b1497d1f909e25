import {spawn} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'

/**
 * ripgrep, the one way cairn runs it. The binary ships in a platform package of @vscode/ripgrep
 * (`@vscode/ripgrep-<platform>-<arch>`). It is resolved here without importing @vscode/ripgrep, whose
 * import throws when the platform package is missing: then `ripgrepBinary` says none, and the caller
 * searches in Node instead.
 */

/**
 * The rg binary: `CAIRN_RG` when set (a path to an rg, or `off` for none), else the platform package's;
 * undefined when there is none for this platform or it is not a file.
 */
export function ripgrepBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.CAIRN_RG?.trim()
  if (chosen === 'off') return undefined
  const candidate = chosen || packagedBinary()
  if (!candidate) return undefined
  try {
    return fs.statSync(candidate).isFile() ? candidate : undefined
  } catch {
    return undefined
  }
}

function packagedBinary(): string | undefined {
  const name = process.platform === 'win32' ? 'rg.exe' : 'rg'
  try {
    return createRequire(import.meta.url).resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${name}`)
  } catch {
    return undefined
  }
}

export interface RipgrepRun {
  /** rg's own exit code: 0 something matched, 1 nothing matched, 2 an error (a bad pattern, an unreadable path). */
  code: number
  stdout: Buffer
  stderr: string
}

export interface RipgrepOptions {
  cwd: string
  /** Stops the run (the child is killed); the promise then rejects with the signal's reason. */
  signal?: AbortSignal
  /** Output past this many bytes kills the run and rejects: a caller bounds what it reads. */
  maxOutputBytes?: number
}

/**
 * Runs rg with these arguments (no shell, no config file: `RIPGREP_CONFIG_PATH` is cleared so a user's
 * rg defaults cannot change cairn's answers). Resolves with rg's exit code and output; rejects when
 * rg cannot start, is killed, or writes more than `maxOutputBytes`.
 */
export function runRipgrep(binary: string, args: readonly string[], options: RipgrepOptions): Promise<RipgrepRun> {
  const {cwd, signal, maxOutputBytes = 256 * 1024 * 1024} = options
  return new Promise((resolve, reject) => {
    const env = {...process.env}
    delete env.RIPGREP_CONFIG_PATH
    const child = spawn(binary, ['--no-config', ...args], {cwd, env, signal, stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    let size = 0
    let failed: Error | undefined
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxOutputBytes && !failed) {
        failed = new Error(`ripgrep wrote more than ${maxOutputBytes} bytes`)
        child.kill('SIGKILL')
      } else out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', error => {
      failed ??= error
    })
    child.on('close', (code, killedBy) => {
      if (failed) return reject(failed)
      if (code === null) return reject(new Error(`ripgrep was stopped by ${killedBy ?? 'a signal'}`))
      resolve({code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8').trim()})
    })
  })
}

/** One line rg matched (`rg --json`): the file as rg names it, the 1-based line, its text and the matched spans. */
export interface RipgrepMatch {
  path: string
  line: number
  text: string
  /** Byte offsets into the line's UTF-8, as rg reports them, with the matched text. */
  spans: {start: number; end: number; text: string}[]
}

interface RgText {
  text?: string
  bytes?: string
}

/** rg --json writes invalid UTF-8 as base64 `bytes`; cairn reads such text as UTF-8 with replacement. */
const textOf = (t: RgText | undefined): string =>
  t?.text ?? (t?.bytes === undefined ? '' : Buffer.from(t.bytes, 'base64').toString('utf8'))

/** The `match` messages of `rg --json` output, in order; the other message kinds are left out. */
export function parseRipgrepJson(stdout: Buffer | string): RipgrepMatch[] {
  const matches: RipgrepMatch[] = []
  for (const line of stdout.toString().split('\n')) {
    if (!line.startsWith('{"type":"match"')) continue
    const {data} = JSON.parse(line) as {
      data: {
        path: RgText
        lines: RgText
        line_number: number
        submatches: {match: RgText; start: number; end: number}[]
      }
    }
    matches.push({
      path: textOf(data.path),
      line: data.line_number,
      text: textOf(data.lines).replace(/\r?\n$/, ''),
      spans: data.submatches.map(s => ({start: s.start, end: s.end, text: textOf(s.match)})),
    })
  }
  return matches
}
