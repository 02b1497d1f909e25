// A fake model server on 127.0.0.1 for the real-client tests: it speaks the three wire protocols the clients use
// (Anthropic Messages, OpenAI Responses, Gemini generateContent), streaming as they ask, logs every request body, and
// plays one scripted turn: write the scoped file, write it again when the write was refused, then answer "done".
// Nothing here reaches the network.
import http from 'node:http'

/**
 * @param {{file: string, relative: string, content: string}} write the file the model writes: its absolute path (Claude,
 *   Gemini) and its path from the repository root (Codex's patch)
 */
export async function startFakeModel(write) {
  /** @type {{url: string, body: any}[]} */
  const requests = []
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body = null
      try {
        body = text ? JSON.parse(text) : null
      } catch {
        body = text
      }
      requests.push({url: req.url ?? '', body})
      try {
        answer(req.url ?? '', body, res, write)
      } catch (error) {
        res.writeHead(500, {'content-type': 'application/json'})
        res.end(JSON.stringify({error: {message: String(error)}}))
      }
    })
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections?.()
        server.close(() => resolve(undefined))
      }),
  }
}

/**
 * The model's script, from the tool calls the conversation already holds (each with its name and whether the tool
 * refused it): the MCP recall tool once when the client offers it, then the write, again when it was refused, then
 * "done". Every later turn (a Stop hook's continuation) answers "done".
 */
function nextStep(done, offered, callable = offered) {
  // A client that keeps asking (a tool result the script cannot read) gets an end, never a loop.
  if (done.length >= MAX_CALLS) return {text: 'done'}
  const recall = offered.find(name => /(^|_)recall$/.test(name) && name.includes('cairn'))
  if (recall && !done.some(d => d.name === recall)) {
    // Claude Code defers MCP tools: their names are listed, and ToolSearch loads one before it can be called.
    if (callable.includes(recall)) return {call: recall, args: {query: 'flaky login test'}}
    if (callable.includes('ToolSearch') && !done.some(d => d.name === 'ToolSearch'))
      return {call: 'ToolSearch', args: {query: `select:${recall}`}}
  }
  const writes = done.filter(d => !d.name.includes('cairn') && d.name !== 'ToolSearch')
  if (writes.length === 0 || writes.at(-1).refused) return {call: 'write'}
  return {text: 'done'}
}

const MAX_CALLS = 8

/** Whether a tool's answer is a refusal: a hook's deny, whatever the client wraps it in. */
const refusal = text => /must-follow rule|blocked by|denied|Tool execution blocked/i.test(text)

function answer(url, body, res, write) {
  if (url.startsWith('/v1/messages')) return anthropic(body, res, write)
  if (url.includes('/responses')) return responses(body, res, write)
  if (url.includes(':generateContent') || url.includes(':streamGenerateContent')) return gemini(url, body, res, write)
  if (url.includes(':countTokens')) return json(res, {totalTokens: 10})
  if (url.startsWith('/v1/models') || url.startsWith('/models')) return json(res, {data: [], models: []})
  return json(res, {})
}

const json = (res, value) => {
  res.writeHead(200, {'content-type': 'application/json'})
  res.end(JSON.stringify(value))
}

function sse(res, events) {
  res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'})
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
  res.end()
}

// --- Anthropic Messages (Claude Code) ---------------------------------------------------------------------------

function anthropic(body, res, write) {
  const blocks = (body?.messages ?? []).flatMap(m => (Array.isArray(m.content) ? m.content : []))
  const names = new Map(blocks.filter(b => b.type === 'tool_use').map(b => [b.id, b.name]))
  const done = blocks
    .filter(b => b.type === 'tool_result')
    .map(b => ({name: names.get(b.tool_use_id) ?? '', refused: b.is_error === true && refusal(JSON.stringify(b.content))}))
  const callable = (body?.tools ?? []).map(t => t.name)
  const deferred = [...new Set(JSON.stringify(body?.messages ?? []).match(/mcp__cairn__[a-z_]+/g) ?? [])]
  const step = callable.includes('Write') ? nextStep(done, [...callable, ...deferred], callable) : {text: 'done'}
  const id = `toolu_${done.length + 1}`
  const content = step.text
    ? [{type: 'text', text: step.text}]
    : step.call === 'write'
      ? [{type: 'tool_use', id, name: 'Write', input: {file_path: write.file, content: write.content}}]
      : [{type: 'tool_use', id, name: step.call, input: step.args}]
  const stop = step.text ? 'end_turn' : 'tool_use'
  const message = {
    id: `msg_${requestsSeen++}`,
    type: 'message',
    role: 'assistant',
    model: body?.model ?? 'claude-fake',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: {input_tokens: 10, output_tokens: 5},
  }
  if (!body?.stream) return json(res, message)
  const events = [['message_start', {type: 'message_start', message: {...message, content: [], stop_reason: null}}]]
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', {type: 'content_block_start', index, content_block: {type: 'text', text: ''}}])
      events.push(['content_block_delta', {type: 'content_block_delta', index, delta: {type: 'text_delta', text: block.text}}])
    } else {
      events.push(['content_block_start', {type: 'content_block_start', index, content_block: {...block, input: {}}}])
      const partial = JSON.stringify(block.input)
      events.push(['content_block_delta', {type: 'content_block_delta', index, delta: {type: 'input_json_delta', partial_json: partial}}])
    }
    events.push(['content_block_stop', {type: 'content_block_stop', index}])
  })
  events.push(['message_delta', {type: 'message_delta', delta: {stop_reason: stop, stop_sequence: null}, usage: {output_tokens: 5}}])
  events.push(['message_stop', {type: 'message_stop'}])
  sse(res, events)
}

let requestsSeen = 0

// --- OpenAI Responses (Codex) -----------------------------------------------------------------------------------

function responses(body, res, write) {
  const input = Array.isArray(body?.input) ? body.input : []
  const names = new Map(
    input
      .filter(i => i.type === 'custom_tool_call' || i.type === 'function_call')
      .map(i => [i.call_id, i.namespace ? `${i.namespace}__${i.name}` : i.name]),
  )
  const done = input
    .filter(i => i.type === 'custom_tool_call_output' || i.type === 'function_call_output')
    .map(i => ({
      name: names.get(i.call_id) ?? '',
      refused: refusal(typeof i.output === 'string' ? i.output : JSON.stringify(i.output)),
    }))
  const tools = body?.tools ?? []
  // Codex groups an MCP server's tools in a namespace (mcp__cairn): a call names the namespace and the tool.
  const offered = tools.flatMap(t =>
    t.type === 'namespace' ? (t.tools ?? []).map(c => `${t.name}__${c.name}`) : [t.name ?? ''],
  )
  const patchTool = tools.find(t => t.name === 'apply_patch')
  // A model Codex knows no metadata for is offered no apply_patch (and its MCP tools directly, not behind tool search).
  const planned = nextStep(done, offered)
  const step = planned.call === 'write' && !patchTool ? {text: 'done'} : planned
  const patch = `*** Begin Patch\n*** Add File: ${write.relative}\n${write.content
    .split('\n')
    .map(l => `+${l}`)
    .join('\n')}\n*** End Patch\n`
  const call = `call_${done.length + 1}`
  const item = step.text
    ? {type: 'message', id: `msg_${done.length}`, role: 'assistant', content: [{type: 'output_text', text: step.text, annotations: []}]}
    : step.call !== 'write'
      ? {...namespaced(step.call), type: 'function_call', id: `fc_${call}`, call_id: call, arguments: JSON.stringify(step.args), status: 'completed'}
      : patchTool.type === 'custom'
        ? {type: 'custom_tool_call', id: `ctc_${call}`, call_id: call, name: 'apply_patch', input: patch, status: 'completed'}
        : {type: 'function_call', id: `fc_${call}`, call_id: call, name: 'apply_patch', arguments: JSON.stringify({input: patch}), status: 'completed'}
  const response = {id: `resp_${requestsSeen++}`, object: 'response', status: 'completed', output: [item]}
  const usage = {
    input_tokens: 10,
    input_tokens_details: {cached_tokens: 0},
    output_tokens: 5,
    output_tokens_details: {reasoning_tokens: 0},
    total_tokens: 15,
  }
  sse(res, [
    ['response.created', {type: 'response.created', response: {...response, status: 'in_progress', output: []}}],
    ['response.output_item.added', {type: 'response.output_item.added', output_index: 0, item}],
    ['response.output_item.done', {type: 'response.output_item.done', output_index: 0, item}],
    ['response.completed', {type: 'response.completed', response: {...response, usage}}],
  ])
}

/** `mcp__cairn__recall` as Codex's Responses items name it: the tool, and its namespace. */
function namespaced(name) {
  const m = /^(mcp__[^_]+(?:_[^_]+)*?)__(.+)$/.exec(name)
  return m ? {name: m[2], namespace: m[1]} : {name}
}

// --- Gemini generateContent (Gemini CLI) ------------------------------------------------------------------------

function gemini(url, body, res, write) {
  const config = body?.generationConfig ?? {}
  let parts
  if (config.responseMimeType === 'application/json') {
    parts = [{text: JSON.stringify(sample(config.responseJsonSchema ?? config.responseSchema ?? {type: 'OBJECT'}))}]
  } else {
    const done = (body?.contents ?? [])
      .flatMap(c => c.parts ?? [])
      .filter(p => p.functionResponse)
      .map(p => ({name: p.functionResponse.name ?? '', refused: refusal(JSON.stringify(p.functionResponse.response))}))
    const offered = (body?.tools ?? []).flatMap(t => t.functionDeclarations ?? []).map(t => t.name)
    const step = offered.includes('write_file') ? nextStep(done, offered) : {text: 'done'}
    parts = step.text
      ? [{text: step.text}]
      : step.call === 'write'
        ? [{functionCall: {name: 'write_file', args: {file_path: write.file, content: write.content}}}]
        : [{functionCall: {name: step.call, args: step.args}}]
  }
  const chunk = {
    candidates: [{content: {role: 'model', parts}, finishReason: 'STOP', index: 0}],
    usageMetadata: {promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15},
    modelVersion: 'gemini-fake',
  }
  if (url.includes(':streamGenerateContent')) return sse(res, [[null, chunk]])
  return json(res, chunk)
}

/** A value of the JSON schema's shape (Gemini's OBJECT, STRING … or JSON Schema's lower case). */
function sample(schema) {
  const type = String(schema?.type ?? 'object').toLowerCase()
  if (schema?.enum?.length) return schema.enum[0]
  if (type === 'object') {
    const out = {}
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sample(v)
    return out
  }
  if (type === 'array') return []
  if (type === 'integer' || type === 'number') return 1
  if (type === 'boolean') return false
  return 'user'
}
