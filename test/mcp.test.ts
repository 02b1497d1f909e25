import {spawn, spawnSync} from 'node:child_process'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {pathToFileURL} from 'node:url'
import {ErrorCode, ListRootsRequestSchema, McpError} from '@modelcontextprotocol/sdk/types.js'
import {afterEach, describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {BIN, card, cli, initRepo, type Repo, repoCopy, tempDir, templateRepo} from './helpers.js'

/** cairn mcp as a real stdio child process, driven by the SDK's own client. */

const seeded = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card()})
  await approve(repo.ctx(), {ids: ['deepmerge-array-replace-trap']})
  await propose(repo.ctx(), {
    fields: card({
      slug: 'quote-shell-variables-always',
      title: 'Quote shell variables',
      summary: 'Unquoted variables split on spaces.',
    }),
  })
})

const open: Client[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

async function connect(
  repo: Repo,
  args: string[] = [],
  options: {cwd?: string; roots?: string[]} = {},
): Promise<{client: Client; stderr: () => string}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: options.cwd ?? repo.dir,
    env: repo.env as Record<string, string>,
    stderr: 'pipe',
  })
  let err = ''
  transport.stderr?.on('data', d => (err += String(d)))
  const roots = options.roots
  const client = new Client(
    {name: 'cairn-test', version: '1.0.0'},
    {capabilities: roots ? {roots: {listChanged: false}} : {}},
  )
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map(dir => ({uri: pathToFileURL(dir).href, name: 'repo'})),
    }))
  await client.connect(transport)
  open.push(client)
  return {client, stderr: () => err}
}

/** The envelope a tool call carried in its text content. */
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{isError: boolean; envelope: any}> {
  const r = (await client.callTool({name, arguments: args})) as {
    content: {type: string; text: string}[]
    isError?: boolean
  }
  expect(r.content.map(c => c.type)).toEqual(['text'])
  return {isError: r.isError ?? false, envelope: JSON.parse(r.content[0].text)}
}

async function cliJson(repo: Repo, args: string[]): Promise<any> {
  return (await cli([...args, '--json'], {cwd: repo.dir, env: repo.env})).json()
}

describe('cairn mcp: read tools', () => {
  it('lists the tools, each with a JSON schema for its input', async () => {
    const {client} = await connect(await seeded())
    const {tools} = await client.listTools()
    expect(tools.map(t => t.name).sort()).toEqual([
      'approve',
      'board_annotate',
      'board_commit',
      'board_history',
      'board_state',
      'defer',
      'enrich_apply',
      'enrich_list',
      'list',
      'propose',
      'recall',
      'reject',
      'review_list',
      'search',
      'show',
    ])
    const show = tools.find(t => t.name === 'show')!
    expect(show.inputSchema.type).toBe('object')
    expect(show.inputSchema.required).toEqual(['id'])
    expect(show.inputSchema.additionalProperties).toBe(false)
    expect(Object.keys(show.inputSchema.properties ?? {}).sort()).toEqual(['id', 'section', 'store'])
  })

  it('says which tools only read, so a client need not ask before calling them', async () => {
    const {client} = await connect(await seeded())
    const {tools} = await client.listTools()
    const hints = Object.fromEntries(
      tools.map(t => {
        const a = t.annotations ?? {}
        const kind = a.readOnlyHint ? 'reads' : a.destructiveHint ? 'removes' : 'adds'
        return [t.name, `${kind}${a.idempotentHint ? ', idempotent' : ''}; ${t.title}`]
      }),
    )
    expect(hints).toEqual({
      recall: 'reads; Recall cards for a task',
      show: 'reads; Show a card',
      list: 'reads; List cards',
      review_list: 'reads; List pending cards',
      search: 'reads; Search card text',
      enrich_list: 'reads; List cards to enrich',
      board_state: 'reads; Read the board',
      board_history: 'reads; Read board history',
      propose: 'removes, idempotent; Propose cards',
      approve: 'adds, idempotent; Approve pending cards',
      reject: 'removes, idempotent; Reject a pending card',
      defer: 'adds, idempotent; Defer a pending card',
      enrich_apply: 'removes, idempotent; Add recall phrases',
      board_commit: 'adds, idempotent; Commit a board batch',
      board_annotate: 'adds, idempotent; Annotate a board item',
    })
    expect(tools.every(t => t.annotations?.openWorldHint === false && t.annotations.title === t.title)).toBe(true)
  })

  it('answers each read tool with the envelope of the equivalent --json command', async () => {
    const repo = await seeded()
    const {client, stderr} = await connect(repo)
    const pairs: [string, Record<string, unknown>, string[]][] = [
      ['recall', {query: 'merge hook config arrays'}, ['recall', 'merge hook config arrays']],
      ['show', {id: 'deepmerge-array-replace-trap'}, ['show', 'deepmerge-array-replace-trap']],
      [
        'show',
        {id: 'deepmerge-array-replace-trap', section: 'rule'},
        ['show', 'deepmerge-array-replace-trap', '--section', 'rule'],
      ],
      ['list', {}, ['list']],
      ['list', {status: 'pending'}, ['list', '--status', 'pending']],
      ['list', {status: 'draft'}, ['list', '--status', 'draft']],
      ['review_list', {}, ['review', 'list']],
      ['enrich_list', {limit: 1}, ['enrich', '--limit', '1']],
      ['board_state', {now: '2026-11-29T10:00:00Z'}, ['board', 'state', '--now', '2026-11-29T10:00:00Z']],
      ['board_history', {}, ['board', 'history']],
      ['search', {pattern: 'arrays?|shell'}, ['search', 'arrays?|shell']],
      [
        'search',
        {
          pattern: 'DEEPMERGE',
          ignore_case: true,
          fixed_strings: true,
          states: ['pending', 'active'],
          types: ['pitfall'],
        },
        ['search', 'DEEPMERGE', '-i', '-F', '--state', 'pending,active', '--type', 'pitfall'],
      ],
      ['search', {pattern: 'a(b'}, ['search', 'a(b']],
    ]
    for (const [name, args, argv] of pairs) {
      const got = await call(client, name, args)
      const want = await cliJson(repo, argv)
      // A refused pattern is the one failing call here: a usage error, the same envelope as the CLI's.
      const refused = args.pattern === 'a(b'
      expect(want.ok, JSON.stringify(want)).toBe(!refused)
      expect([name, got.isError, got.envelope], name).toEqual([name, refused, want])
    }
    const searched = await call(client, 'search', {pattern: 'arrays?|shell'})
    expect(searched.envelope.data.hits.length).toBeGreaterThan(3)
    expect([
      ...new Set(searched.envelope.data.hits.map((h: {id: string; state: string}) => `${h.state} ${h.id}`)),
    ]).toEqual(['pending quote-shell-variables-always', 'active deepmerge-array-replace-trap'])
    const listed = await call(client, 'list')
    expect(listed.envelope.data.cards.map((c: {id: string}) => c.id).sort()).toEqual([
      'deepmerge-array-replace-trap',
      'quote-shell-variables-always',
    ])
    expect(stderr()).toBe('')
  })

  it('returns a failing use case as isError with the error envelope, the same as the CLI', async () => {
    const repo = await seeded()
    const {client} = await connect(repo)
    const got = await call(client, 'show', {id: 'no-such-card-anywhere'})
    const want = await cliJson(repo, ['show', 'no-such-card-anywhere'])
    expect(want.ok).toBe(false)
    expect(got).toEqual({isError: true, envelope: want})
  })

  it('refuses bad arguments with a JSON-RPC invalid-params error and keeps serving', async () => {
    const {client} = await connect(await seeded())
    for (const [name, args] of [
      ['recall', {query: 'x', limit: 'x'}],
      ['show', {}],
      ['list', {colour: 'red'}],
      ['search', {pattern: ''}],
      ['search', {pattern: 'x', states: ['bogus']}],
      ['nope', {}],
    ] as const) {
      const error = await client.callTool({name, arguments: args}).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, name).toBeInstanceOf(McpError)
      expect((error as McpError).code, name).toBe(ErrorCode.InvalidParams)
    }
    expect(await client.callTool({name: 'show', arguments: {}}).catch((e: McpError) => e.message)).toMatch(
      /invalid arguments for show: .*id/s,
    )
    expect((await call(client, 'show', {id: 'deepmerge-array-replace-trap'})).isError).toBe(false)
  })
})

describe('cairn mcp: card resources', () => {
  it('lists every active card as cairn://card/<id> and reads it as the card file', async () => {
    const repo = await seeded()
    const {client} = await connect(repo)
    const {resources} = await client.listResources()
    expect(resources).toEqual([
      {
        uri: 'cairn://card/deepmerge-array-replace-trap',
        name: 'deepmerge-array-replace-trap',
        title: 'deepMerge replaces arrays',
        mimeType: 'text/markdown',
        description: 'A pitfall card of the project store, loaded when a prompt or an edit recalls it.',
      },
    ])
    const {resourceTemplates} = await client.listResourceTemplates()
    expect(resourceTemplates.map(t => t.uriTemplate)).toEqual(['cairn://card/{id}'])
    const read = await client.readResource({uri: 'cairn://card/deepmerge-array-replace-trap'})
    const file = (await cliJson(repo, ['show', 'deepmerge-array-replace-trap'])).data.path
    expect(read.contents).toEqual([
      {uri: 'cairn://card/deepmerge-array-replace-trap', mimeType: 'text/markdown', text: repo.read(file)},
    ])
  })

  it('refuses an unknown or pending id with an error, and keeps serving', async () => {
    const {client} = await connect(await seeded())
    for (const [id, message] of [
      ['no-such-card-anywhere', /no active card "no-such-card-anywhere"/],
      ['quote-shell-variables-always', /it is pending/],
    ] as const) {
      const error = await client.readResource({uri: `cairn://card/${id}`}).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, id).toBeInstanceOf(McpError)
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams)
      expect((error as McpError).message).toMatch(message)
    }
    expect((await client.listResources()).resources).toHaveLength(1)
  })
})

const NOW = '2026-11-29T10:00:00Z'
const BATCH = {
  batch_id: 'run-setup',
  declarations: [
    {op: 'new', id: 'trip', kind: 'topic', weight: 4, summary: 'Business trip to Berlin on 2026-12-20.'},
    {
      op: 'new',
      id: 'visa',
      parent: 'trip',
      kind: 'request',
      weight: 4,
      summary: 'Visa agent needs the bank statement.',
    },
  ],
}
const NEW_CARD = card({
  slug: 'always-run-lint-before-push',
  title: 'Run lint before push',
  summary: 'Push without lint fails CI; run npm run lint first.',
})

const ENRICHED = {
  id: 'quote-shell-variables-always',
  triggers: ['spaces in file names break the script'],
  aliases: {zh: ['变量加引号']},
}

/** Each write tool next to its CLI command, run in order on two copies of the same repo. */
const WRITES: [string, Record<string, unknown>, string[], string?][] = [
  ['propose', {cards: [NEW_CARD]}, ['propose', '-'], JSON.stringify([NEW_CARD])],
  ['approve', {ids: ['quote-shell-variables-always']}, ['review', 'approve', 'quote-shell-variables-always']],
  ['enrich_apply', {entries: [ENRICHED]}, ['enrich', '--apply', '-'], JSON.stringify([ENRICHED])],
  [
    'defer',
    {id: 'always-run-lint-before-push', until: '2026-12-15'},
    ['review', 'defer', 'always-run-lint-before-push', '--until', '2026-12-15'],
  ],
  [
    'reject',
    {id: 'always-run-lint-before-push', reason: 'a duplicate'},
    ['review', 'reject', 'always-run-lint-before-push', '--reason', 'a duplicate'],
  ],
  [
    'board_commit',
    {batch: BATCH, actor: 'agent-1', now: NOW},
    ['board', 'commit', '-', '--actor', 'agent-1', '--now', NOW],
    JSON.stringify(BATCH),
  ],
  [
    'board_annotate',
    {id: 'visa', text: 'Statement sent.', batch_id: 'note-1', now: NOW},
    ['board', 'annotate', 'visa', 'Statement sent.', '--batch-id', 'note-1', '--now', NOW],
  ],
]

/**
 * Annotation ids are random (newId), the one field besides the clock that two runs never share; and a card proposed
 * over MCP says so in its provenance, so its commit, and every one after it, differs from the CLI's.
 */
const unrandom = (text: string) => text.replace(/\ba-[0-9a-f]{8}\b/g, 'a-ID').replace(/\b[0-9a-f]{40}\b/g, 'SHA')
const same = (value: unknown) => JSON.parse(unrandom(JSON.stringify(value)))
const commits = (repo: Repo) => unrandom(repo.git('log', '--format=%s%n%b').trim())
const count = (repo: Repo) => Number(repo.git('rev-list', '--count', 'HEAD').trim())

/**
 * The one difference between a card proposed over MCP and by the CLI: where it came from. The client is the name it
 * gave on initialize; the session, the one the proposal names.
 */
function expectOrigin(viaMcp: Repo, viaCli: Repo): void {
  const file = '.cairn/pending/pitfall/always-run-lint-before-push.md'
  const origin = (text: string) => text.split('\n').filter(l => /^ {2}(proposed_by|client|via|session):/.test(l))
  expect(origin(viaMcp.read(file))).toEqual([
    '  proposed_by: tester',
    '  client: cairn-test',
    '  via: mcp',
    '  session: session-1',
  ])
  expect(origin(viaCli.read(file))).toEqual(['  proposed_by: tester', '  via: cli', '  session: session-1'])
  const common = (text: string) => text.replace(/\n {2}(client|via|session):.*/g, '')
  expect(common(viaMcp.read(file))).toBe(common(viaCli.read(file)))
}

describe('cairn mcp: write tools', () => {
  it('writes one commit per call, with the same envelope and commit as the CLI command', async () => {
    const viaMcp = await seeded()
    const viaCli = repoCopy(viaMcp)
    const {client, stderr} = await connect(viaMcp)
    for (const [name, args, argv, input] of WRITES) {
      const before = count(viaMcp)
      const got = await call(client, name, args)
      const want = (await cli([...argv, '--json'], {cwd: viaCli.dir, env: viaCli.env, input})).json()
      expect(want.ok, JSON.stringify(want)).toBe(true)
      expect([name, got.isError, same(got.envelope)], name).toEqual([name, false, same(want)])
      expect(count(viaMcp), name).toBe(before + 1)
      expect(commits(viaMcp), name).toBe(commits(viaCli))
      if (name === 'propose') expectOrigin(viaMcp, viaCli)
    }
    expect(stderr()).toBe('')
  })

  it("a card that names no session records the server's connection, one per client session", async () => {
    const repo = await seeded()
    const first = await connect(repo)
    const {source_sessions: _, ...bare} = NEW_CARD
    const other = {...bare, slug: 'always-run-tests-before-push', title: 'Run tests before push'}
    expect((await call(first.client, 'propose', {cards: [bare]})).isError).toBe(false)
    expect((await call(first.client, 'propose', {cards: [other]})).isError).toBe(false)
    const second = await connect(repo)
    const third = {...bare, slug: 'always-check-types-before-push', title: 'Check types before push'}
    expect((await call(second.client, 'propose', {cards: [third]})).isError).toBe(false)
    const session = (slug: string) => /\n {2}session: (\S+)\n/.exec(repo.read(`.cairn/pending/pitfall/${slug}.md`))?.[1]
    const [a, b, c] = [bare.slug, other.slug, third.slug].map(s => session(s as string))
    expect(a).toMatch(/^mcp-[0-9a-f]{8}$/)
    expect([b, c === a]).toEqual([a, false])
    expect(c).toMatch(/^mcp-[0-9a-f]{8}$/)
  })

  it('with no_commit, writes the files as --no-commit does and makes no commit', async () => {
    const viaMcp = await seeded()
    const viaCli = repoCopy(viaMcp)
    const {client} = await connect(viaMcp)
    const before = count(viaMcp)
    const got = await call(client, 'propose', {cards: [NEW_CARD], no_commit: true})
    const want = (
      await cli(['propose', '-', '--no-commit', '--json'], {
        cwd: viaCli.dir,
        env: viaCli.env,
        input: JSON.stringify([NEW_CARD]),
      })
    ).json()
    expect([got.isError, same(got.envelope)]).toEqual([false, same(want)])
    expect(got.envelope.data.commit).toBe(null)
    expect(count(viaMcp)).toBe(before)
    expect(viaMcp.git('status', '--porcelain')).toBe(viaCli.git('status', '--porcelain'))
    const id = got.envelope.data.cards[0].id
    const approved = await call(client, 'approve', {ids: [id], no_commit: true})
    expect([approved.isError, approved.envelope.data.commits, count(viaMcp)]).toEqual([false, {project: null}, before])
    expect(viaMcp.git('status', '--porcelain')).toMatch(new RegExp(`^\\?\\? \\.cairn/cards/[a-z]+/${id}\\.md$`, 'm'))
  })

  it("propose keeps a pending card's text and lists what differs; with replace it takes the new text, as --replace", async () => {
    const viaMcp = await seeded()
    const viaCli = repoCopy(viaMcp)
    const {client} = await connect(viaMcp)
    const reworded = card({
      slug: 'quote-shell-variables-always',
      title: 'Quote every shell variable',
      summary: 'Unquoted variables split on spaces.',
    })
    const kept = await call(client, 'propose', {cards: [reworded]})
    expect(kept.envelope.data.cards[0]).toMatchObject({
      outcome: 'unchanged',
      kept_text: [{field: 'title', old: 'Quote shell variables', new: 'Quote every shell variable'}],
    })
    const replaced = await call(client, 'propose', {cards: [reworded], replace: true})
    const want = (
      await cli(['propose', '-', '--replace', '--json'], {
        cwd: viaCli.dir,
        env: viaCli.env,
        input: JSON.stringify([reworded]),
      })
    ).json()
    expect([replaced.isError, same(replaced.envelope)]).toEqual([false, same(want)])
    expect(replaced.envelope.data.cards[0].outcome).toBe('replaced')
    expect(viaMcp.read('.cairn/pending/pitfall/quote-shell-variables-always.md')).toContain(
      'title: Quote every shell variable',
    )
  })

  it('returns per-item errors of a batch tool in the error envelope, and writes nothing', async () => {
    const repo = await seeded()
    const {client} = await connect(repo)
    const head = repo.git('rev-parse', 'HEAD')
    const badCards = [NEW_CARD, card({slug: 'x', type: 'nonsense'})]
    const proposed = await call(client, 'propose', {cards: badCards})
    expect(proposed).toEqual({
      isError: true,
      envelope: (
        await cli(['propose', '-', '--json'], {cwd: repo.dir, env: repo.env, input: JSON.stringify(badCards)})
      ).json(),
    })
    expect(proposed.envelope.error.code).toBe('validation')
    expect(JSON.stringify(proposed.envelope.error.data)).toMatch(/\[1\]\.type/)
    const badBatch = {
      batch_id: 'run-bad',
      declarations: [{op: 'new', id: 'trip', kind: 'topic', weight: 9, summary: 'x'}],
    }
    const committed = await call(client, 'board_commit', {batch: badBatch, actor: 'agent-1', now: NOW})
    expect(committed.isError).toBe(true)
    expect(committed.envelope).toEqual(
      (
        await cli(['board', 'commit', '-', '--actor', 'agent-1', '--now', NOW, '--json'], {
          cwd: repo.dir,
          env: repo.env,
          input: JSON.stringify(badBatch),
        })
      ).json(),
    )
    expect(JSON.stringify(committed.envelope.error.data)).toMatch(/declarations\[0\]\.weight/)
    expect(repo.git('rev-parse', 'HEAD')).toBe(head)
  })
})

describe('cairn mcp: scope', () => {
  const ids = async (client: Client) =>
    (await call(client, 'list')).envelope.data.cards.map((c: {id: string}) => c.id).sort()
  const BOTH = ['deepmerge-array-replace-trap', 'quote-shell-variables-always']

  it('serves the store of --cwd when the client offers no roots, and of the working directory without --cwd', async () => {
    const repo = await seeded()
    const elsewhere = tempDir()
    expect(await ids((await connect(repo, ['--cwd', repo.dir], {cwd: elsewhere})).client)).toEqual(BOTH)
    expect(await ids((await connect(repo)).client)).toEqual(BOTH)
    const outside = await call((await connect(repo, [], {cwd: elsewhere})).client, 'list')
    expect(outside.envelope).toEqual((await cli(['list', '--json'], {cwd: elsewhere, env: repo.env})).json())
  })

  it("serves the store of the client's first file:// root, over --cwd and the working directory", async () => {
    const repo = await seeded()
    const empty = await initRepo()
    const {client} = await connect(repo, ['--cwd', empty.dir], {cwd: empty.dir, roots: [repo.dir, empty.dir]})
    expect(await ids(client)).toEqual(BOTH)
    expect((await client.listResources()).resources.map(r => r.uri)).toEqual([
      'cairn://card/deepmerge-array-replace-trap',
    ])
    expect(await ids((await connect(repo, ['--cwd', empty.dir], {cwd: empty.dir})).client)).toEqual([])
  })
})

describe('cairn mcp: stdout', () => {
  it('goes on without roots when a client offers them but never answers roots/list: asked once, then --cwd', async () => {
    const repo = await seeded()
    const child = spawn(process.execPath, [BIN, 'mcp', '--cwd', repo.dir], {
      cwd: repo.home,
      env: repo.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const got: any[] = []
    let buffered = ''
    child.stdout.on('data', d => {
      buffered += d
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        got.push(JSON.parse(buffered.slice(0, nl)))
        buffered = buffered.slice(nl + 1)
      }
    })
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {roots: {listChanged: false}},
        clientInfo: {name: 't', version: '1'},
      },
    })
    send({jsonrpc: '2.0', method: 'notifications/initialized'})
    send({jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'list', arguments: {}}})
    const answered = (id: number) => got.some(m => m.id === id && ('result' in m || 'error' in m))
    const until = Date.now() + 30_000
    while (!answered(2) && Date.now() < until) await new Promise(r => setTimeout(r, 50))
    send({jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'list', arguments: {}}})
    while (!answered(3) && Date.now() < until) await new Promise(r => setTimeout(r, 50))
    child.stdin.end()
    await new Promise(r => child.on('close', r))
    const ids = (id: number) =>
      JSON.parse(got.find(m => m.id === id).result.content[0].text)
        .data.cards.map((c: {id: string}) => c.id)
        .sort()
    expect(ids(2)).toEqual(['deepmerge-array-replace-trap', 'quote-shell-variables-always'])
    expect(ids(3)).toEqual(ids(2))
    // One roots/list went out, for the first call; the second did not wait for it again.
    expect(got.filter(m => m.method === 'roots/list')).toHaveLength(1)
  })

  it('writes nothing but JSON-RPC messages to stdout, a write and a failure included, and exits when stdin closes', async () => {
    const repo = await seeded()
    const send = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 't', version: '1'}},
      },
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'propose', arguments: {cards: [NEW_CARD]}}},
      {jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'show', arguments: {id: 'no-such-card-anywhere'}}},
      {jsonrpc: '2.0', id: 4, method: 'resources/read', params: {uri: 'cairn://card/deepmerge-array-replace-trap'}},
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: {name: 'approve', arguments: {ids: ['quote-shell-variables-always']}},
      },
    ]
    const before = count(repo)
    const r = spawnSync(process.execPath, [BIN, 'mcp'], {
      cwd: repo.dir,
      env: repo.env,
      input: send.map(m => JSON.stringify(m)).join('\n') + '\n',
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect([r.status, r.stderr]).toEqual([0, ''])
    // Requests run concurrently: the answers come in any order.
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map(l => JSON.parse(l))
      .sort((a, b) => a.id - b.id)
    expect(lines.map(m => [m.jsonrpc, m.id, m.error === undefined])).toEqual(
      [1, 2, 3, 4, 5].map(id => ['2.0', id, true]),
    )
    // The two writes, sent at once, both land (the store's lock puts them in turn): one commit each.
    expect(lines.map(m => m.result.isError ?? null)).toEqual([null, false, true, null, false])
    expect(count(repo)).toBe(before + 2)
  })
})
