import {Transform, type TransformCallback} from 'node:stream'
import {StdioServerTransport} from '@modelcontextprotocol/sdk/server/stdio.js'
import {STDIO_DEFAULT_MAX_BUFFER_SIZE} from '@modelcontextprotocol/sdk/shared/stdio.js'
import {ErrorCode, type JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

/**
 * The largest message (one line of stdin) the server reads: the SDK's stdio transport's own limit. On a
 * longer line that transport gives up: it reports an error nobody sees, stops reading and the process exits,
 * with no reply to the client. So the lines are cut here first, and a line over the limit never reaches it.
 */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE

/**
 * The SDK's stdio transport, reading stdin through MessageLimit: a message over the limit is answered with an
 * error and the next one read, and the transport only ever sees messages it can take.
 */
export function stdioTransport(): StdioServerTransport {
  const lines = new MessageLimit(MAX_MESSAGE_BYTES, line => refuse(transport, line))
  process.stdin.on('error', error => lines.destroy(error))
  // Each line reaches the transport as one chunk, its line break included: it never holds more.
  const transport = new StdioServerTransport(process.stdin.pipe(lines), process.stdout, {
    maxBufferSize: MAX_MESSAGE_BYTES + 1,
  })
  return transport
}

/** A JSON-RPC error for a message too long to read (id null when its ends give none), and a line on stderr. */
function refuse(transport: StdioServerTransport, {bytes, id}: Oversize): void {
  const limit = `the ${MAX_MESSAGE_BYTES}-byte (10 MB) limit`
  const which = id === null ? '' : ` (id ${JSON.stringify(id)})`
  process.stderr.write(`cairn mcp: refused a message of ${bytes} bytes${which}, over ${limit}\n`)
  const message = `Message too large: ${bytes} bytes, over ${limit} of cairn mcp; it was not read`
  // JSON-RPC answers a request whose id cannot be read with id null, which the SDK's types leave out.
  const reply = {jsonrpc: '2.0', id, error: {code: ErrorCode.InvalidRequest, message}} as unknown as JSONRPCMessage
  transport.send(reply).catch(() => undefined)
}

/** What is known of a line that was too long: its size, and its request id when its first or last bytes give it. */
export interface Oversize {
  bytes: number
  id: string | number | null
}

/** Bytes kept of each end of a line over the limit, to find its id in. */
const END_BYTES = 1024
const NEWLINE = 0x0a

/**
 * Passes stdin on one whole line at a time (each its own chunk, so the transport's buffer holds one message);
 * a line over `max` bytes is dropped as it arrives, never held whole, and reported to `oversize` once it ends.
 */
export class MessageLimit extends Transform {
  private parts: Buffer[] = []
  private size = 0
  private dropping = false
  private head: Buffer = Buffer.alloc(0)
  private tail: Buffer = Buffer.alloc(0)

  constructor(
    private readonly max: number,
    private readonly oversize: (line: Oversize) => void,
  ) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      this.addBytes(chunk.subarray(start, nl))
      this.endLine(true)
      start = nl + 1
    }
    this.addBytes(chunk.subarray(start))
    done()
  }

  /** A last line without a line break is passed on as it is (the transport never reads it), or reported. */
  override _flush(done: TransformCallback): void {
    if (this.size > 0) this.endLine(false)
    done()
  }

  private addBytes(bytes: Buffer): void {
    if (bytes.length === 0) return
    this.size += bytes.length
    if (!this.dropping && this.size <= this.max) {
      this.parts.push(bytes)
      return
    }
    if (!this.dropping) {
      this.dropping = true
      this.head = Buffer.concat([...this.parts, bytes], Math.min(END_BYTES, this.size))
      this.tail = Buffer.alloc(0)
      for (const part of this.parts) this.tail = lastBytes(this.tail, part)
      this.parts = []
    }
    this.tail = lastBytes(this.tail, bytes)
  }

  private endLine(newline: boolean): void {
    if (this.dropping) {
      this.oversize({bytes: this.size, id: requestId(this.head.toString('utf8'), this.tail.toString('utf8'))})
    } else {
      this.push(Buffer.concat(newline ? [...this.parts, Buffer.from('\n')] : this.parts))
    }
    this.parts = []
    this.size = 0
    this.dropping = false
  }
}

/** The last END_BYTES of a followed by b, copied so the line they came from can be freed. */
function lastBytes(a: Buffer, b: Buffer): Buffer {
  if (b.length >= END_BYTES) return Buffer.from(b.subarray(b.length - END_BYTES))
  return Buffer.from(Buffer.concat([a, b]).subarray(Math.max(0, a.length + b.length - END_BYTES)))
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`
const SCALAR = String.raw`(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)`
/** An id among the first members of the object, after members with plain values only (so it is the object's own). */
const AT_START = new RegExp(String.raw`^\s*\{(?:\s*"(?:[^"\\]|\\.)*"\s*:\s*${SCALAR}\s*,)*?\s*${ID}\s*[,}]`)
/** An id as the object's last member (the SDK's client writes it there, after the params). */
const AT_END = new RegExp(String.raw`[{,]\s*${ID}\s*\}\s*$`)

/** The JSON-RPC id a line's first or last bytes give, or null when neither does. */
export function requestId(head: string, tail: string): string | number | null {
  const found = AT_START.exec(head)?.[1] ?? AT_END.exec(tail)?.[1]
  if (found === undefined) return null
  try {
    const id = JSON.parse(found) as unknown
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null
  } catch {
    return null
  }
}
