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
  /** What rg reads on stdin (the path "-"); without it, stdin is closed. */
  input?: string | Buffer
}

/**
 * Runs rg with these arguments (no shell, no config file: `RIPGREP_CONFIG_PATH` is cleared so a user's
 * rg defaults cannot change cairn's answers). Resolves with rg's exit code and output; rejects when
 * rg cannot start, is killed, or writes more than `maxOutputBytes`.
 */
export function runRipgrep(binary: string, args: readonly string[], options: RipgrepOptions): Promise<RipgrepRun> {
  const {cwd, signal, maxOutputBytes = 256 * 1024 * 1024, input} = options
  return new Promise((resolve, reject) => {
    const env = {...process.env}
    delete env.RIPGREP_CONFIG_PATH
    const child = spawn(binary, ['--no-config', ...args], {
      cwd,
      env,
      signal,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
    })
    // rg may exit before it reads all of its input (a refused pattern): a closed pipe is no failure then.
    if (input !== undefined) child.stdin.on('error', () => {}).end(input)
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
  spans: RipgrepSpan[]
}

export interface RipgrepSpan {
  start: number
  end: number
  text: string
  /** With `offsets`: the same span as UTF-16 offsets into the line's `text`, cut at the line's end. */
  from?: number
  to?: number
}

interface RgText {
  text?: string
  bytes?: string
}

/** rg --json writes invalid UTF-8 as base64 `bytes`; cairn reads such text as UTF-8 with replacement. */
const textOf = (t: RgText | undefined): string =>
  t?.text ?? (t?.bytes === undefined ? '' : Buffer.from(t.bytes, 'base64').toString('utf8'))

/** The line's bytes as rg read them. */
const bytesOf = (t: RgText): Buffer =>
  t.text === undefined ? Buffer.from(t.bytes ?? '', 'base64') : Buffer.from(t.text)

/** A byte offset of the line as a UTF-16 offset of its text, at most the text's length. */
function utf16Offset(bytes: Buffer, offset: number, text: string): number {
  if (offset === 0) return 0
  return Math.min(bytes.subarray(0, offset).toString('utf8').length, text.length)
}

/**
 * The `match` messages of `rg --json` output, in order; the other message kinds are left out. With `offsets`, each
 * span also gives where it is in the line's text (from, to), which a caller marking the match needs.
 */
export function parseRipgrepJson(stdout: Buffer | string, options: {offsets?: boolean} = {}): RipgrepMatch[] {
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
    const text = textOf(data.lines).replace(/\r?\n$/, '')
    const spans: RipgrepSpan[] = data.submatches.map(s => ({start: s.start, end: s.end, text: textOf(s.match)}))
    if (options.offsets) {
      // An ASCII line's byte offsets are its UTF-16 offsets.
      const raw =
        data.lines.text !== undefined && /^[\x00-\x7f]*$/.test(data.lines.text) ? undefined : bytesOf(data.lines)
      const at = (offset: number) => (raw ? utf16Offset(raw, offset, text) : Math.min(offset, text.length))
      for (const s of spans) Object.assign(s, {from: at(s.start), to: at(s.end)})
    }
    matches.push({path: textOf(data.path), line: data.line_number, text, spans})
  }
  return matches
}
