import {spawn} from 'node:child_process'
import {Readable} from 'node:stream'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {ErrorCode, McpError} from '@modelcontextprotocol/sdk/types.js'
import {afterEach, describe, expect, it} from 'vitest'
import {MAX_MESSAGE_BYTES, MessageLimit, type Oversize, requestId} from '../src/mcp/stdio.js'
import {BIN, initRepo, type Repo} from './helpers.js'

/**
 * Issue 27, item 11: a message over the stdio transport's 10 MB limit is refused with a reply; the server goes on.
 * Item 6: tool arguments nested deeper than what reads them can take are invalid params, not an internal error.
 */

const LIMIT = 'the 10485760-byte (10 MB) limit'
const reason = (bytes: number) => `Message too large: ${bytes} bytes, over ${LIMIT} of cairn mcp; it was not read`
const logged = (bytes: number, id?: string | number) => {
  const which = id === undefined ? '' : ` (id ${JSON.stringify(id)})`
  return `cairn mcp: refused a message of ${bytes} bytes${which}, over ${LIMIT}\n`
}

const open: Client[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

describe('cairn mcp: a message over 10 MB', () => {
  it('from the SDK client: an invalid-request error naming the limit, a line on stderr, the next calls served', async () => {
    const repo = await initRepo()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: repo.dir,
      env: repo.env as Record<string, string>,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', d => (stderr += String(d)))
    const client = new Client({name: 'cairn-test', version: '1.0.0'})
    await client.connect(transport)
    open.push(client)
    const query = 'x'.repeat(MAX_MESSAGE_BYTES)
    const error = await client.callTool({name: 'recall', arguments: {query}}).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(McpError)
    // The client writes its request id last, after the params: the server reads it from the line's end.
    const id = Number(/\(id (\d+)\)/.exec(stderr)?.[1])
    const sent = {method: 'tools/call', params: {name: 'recall', arguments: {query}}, jsonrpc: '2.0', id}
    const bytes = Buffer.byteLength(JSON.stringify(sent))
    const {code, message} = error as McpError
    expect([code, message]).toEqual([ErrorCode.InvalidRequest, `MCP error -32600: ${reason(bytes)}`])
    expect(stderr).toBe(logged(bytes, id))
    const listed = (await client.callTool({name: 'list', arguments: {}})) as {content: {text: string}[]}
    expect(JSON.parse(listed.content[0].text)).toMatchObject({ok: true, data: {cards: []}})
  })

  it('on the wire: id null when the line gives none, the id when its start does; exactly 10 MB is read', async () => {
    const repo = await initRepo()
    const {replies, stderr, code} = await exchange(repo, [
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}},
      }),
      JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}),
      'x'.repeat(MAX_MESSAGE_BYTES + 1),
      padded({jsonrpc: '2.0', id: 'big-one', method: 'ping', params: {_meta: {pad: ''}}}, MAX_MESSAGE_BYTES + 1),
      padded({jsonrpc: '2.0', id: 3, method: 'ping', params: {_meta: {pad: ''}}}, MAX_MESSAGE_BYTES),
      JSON.stringify({jsonrpc: '2.0', id: 4, method: 'ping'}),
    ])
    expect(replies.slice(1)).toEqual([
      {jsonrpc: '2.0', id: null, error: {code: ErrorCode.InvalidRequest, message: reason(MAX_MESSAGE_BYTES + 1)}},
      {jsonrpc: '2.0', id: 'big-one', error: {code: ErrorCode.InvalidRequest, message: reason(MAX_MESSAGE_BYTES + 1)}},
      {jsonrpc: '2.0', id: 3, result: {}},
      {jsonrpc: '2.0', id: 4, result: {}},
    ])
    expect([code, stderr]).toEqual([0, logged(MAX_MESSAGE_BYTES + 1) + logged(MAX_MESSAGE_BYTES + 1, 'big-one')])
  })
})

describe('cairn mcp: tool arguments nested 60,000 levels deep', () => {
  it('are a JSON-RPC invalid-params error naming the argument; nothing is written and the server goes on', async () => {
    const repo = await initRepo()
    const head = repo.git('rev-parse', 'HEAD')
    const deep = `${'['.repeat(60_000)}${']'.repeat(60_000)}`
    const call = (id: number, name: string, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`
    const {replies, stderr, code} = await exchange(repo, [
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}},
      }),
      JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}),
      call(2, 'propose', `{"cards":[{"slug":"deepmerge-array-replace-trap","keywords":${deep}}]}`),
      call(3, 'board_commit', `{"actor":"a","batch":{"batch_id":"deep","declarations":${deep}}}`),
      call(
        4,
        'board_commit',
        `{"actor":"a","batch":{"batch_id":"deep","declarations":[{"op":"new","sources":${deep}}]}}`,
      ),
      call(5, 'list', '{}'),
    ])
    const invalid = (id: number, message: string) => ({
      jsonrpc: '2.0',
      id,
      error: {code: ErrorCode.InvalidParams, message},
    })
    expect(replies.slice(1, 4)).toEqual([
      invalid(2, 'MCP error -32602: invalid arguments for propose: cards[0].keywords nests more than 64 levels deep'),
      invalid(
        3,
        'MCP error -32602: invalid arguments for board_commit: batch.declarations nests more than 64 levels deep',
      ),
      invalid(
        4,
        'MCP error -32602: invalid arguments for board_commit: batch.declarations[0].sources nests more than 64 levels deep',
      ),
    ])
    expect(replies[4]).toMatchObject({id: 5, result: {isError: false}})
    expect([code, stderr]).toEqual([0, ''])
    expect([repo.git('rev-parse', 'HEAD'), repo.git('status', '--porcelain')]).toEqual([head, ''])
  })
})

type Padded = {id: string | number; params: {_meta: {pad: string}}} & Record<string, unknown>

/** The message, its _meta.pad making its line exactly `bytes` long. */
function padded(message: Padded, bytes: number): string {
  const bare = JSON.stringify(message)
  message.params._meta.pad = 'x'.repeat(bytes - bare.length)
  return JSON.stringify(message)
}

interface Exchanged {
  replies: unknown[]
  stderr: string
  code: number | null
}

/** Writes the lines to `cairn mcp`, waits for an answer to each but the notification (or the exit), closes stdin. */
async function exchange(repo: Repo, lines: string[]): Promise<Exchanged> {
  const child = spawn(process.execPath, [BIN, 'mcp'], {cwd: repo.dir, env: repo.env, stdio: ['pipe', 'pipe', 'pipe']})
  const replies: unknown[] = []
  let out = ''
  let stderr = ''
  child.stderr.on('data', d => (stderr += String(d)))
  // A server that exits early must fail the test on what it answered, not on the pipe it closed.
  child.stdin.on('error', () => undefined)
  const replied = new Promise<void>(resolve =>
    child.stdout.on('data', d => {
      out += String(d)
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        replies.push(JSON.parse(out.slice(0, nl)))
        out = out.slice(nl + 1)
      }
      if (replies.length === lines.length - 1) resolve()
    }),
  )
  const closed = new Promise<number | null>(resolve => child.on('close', resolve))
  for (const line of lines) child.stdin.write(`${line}\n`)
  await Promise.race([replied, closed])
  child.stdin.end()
  return {replies, stderr, code: await closed}
}

/** What the filter passes on, chunk by chunk, and what it reports, for input given in the chunks shown. */
async function filtered(chunks: string[], max: number): Promise<{passed: string[]; refused: Oversize[]}> {
  const refused: Oversize[] = []
  const passed: string[] = []
  const limit = new MessageLimit(max, line => refused.push(line))
  limit.on('data', (d: Buffer) => passed.push(d.toString('utf8')))
  const input = Readable.from(chunks.map(c => Buffer.from(c)))
  await new Promise<void>((resolve, reject) => input.pipe(limit).on('finish', resolve).on('error', reject))
  await new Promise(resolve => setImmediate(resolve))
  return {passed, refused}
}

describe('the message limit on stdin', () => {
  it('passes each whole line as one chunk however it came, and drops a line over the limit as it comes', async () => {
    const long = `{"jsonrpc":"2.0","id":9,"params":"${'y'.repeat(40)}"}`
    const chunks = ['{"a":1}\n{"b"', ':2}\r\n', long.slice(0, 20), `${long.slice(20)}\n`, '\n', '{"c":3}\n{"d"']
    const r = await filtered(chunks, 30)
    expect(r.passed).toEqual(['{"a":1}\n', '{"b":2}\r\n', '\n', '{"c":3}\n', '{"d"'])
    expect(r.refused).toEqual([{bytes: long.length, id: 9}])
    // A line still over the limit when the input ends is reported too.
    const unended = `{"id":"last", "x":"${'z'.repeat(30)}`
    expect((await filtered([unended], 30)).refused).toEqual([{bytes: unended.length, id: 'last'}])
  })

  it('reads the id of the object itself from its first or last members, or gives null', () => {
    const cases: [head: string, tail: string, id: string | number | null][] = [
      ['{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"', '"}}', 7],
      ['{"method":"tools/call","jsonrpc":"2.0","id":"a\\"b","params":', '', 'a"b'],
      ['{ "id" : -3 , "params": [', '', -3],
      ['{"method":"tools/call","params":{"a":"', '"},"jsonrpc":"2.0","id":12}', 12],
      ['{"method":"x","params":{"a":"', '","id":"s-1"} \r', 's-1'],
      // A nested id is not the request's.
      ['{"params":{"id":5,"a":"', '"}}', null],
      ['{"method":"x","params":{"a":"', '","id":5}}', null],
      // Not an id JSON-RPC gives: a fraction, null, an object.
      ['{"id":1.5,"a":"', '"}', null],
      ['{"id":null,"a":"', '"}', null],
      ['{"id":{"a":1},"b":"', '"}', null],
      ['xxxxxxxx', 'xxxxxxxx', null],
    ]
    for (const [head, tail, id] of cases) expect(requestId(head, tail), head + tail).toBe(id)
  })
})
