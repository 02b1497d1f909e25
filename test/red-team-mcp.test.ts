import fs from 'node:fs'
import path from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {ErrorCode, McpError} from '@modelcontextprotocol/sdk/types.js'
import {afterEach, describe, expect, it} from 'vitest'
import {boardCommit} from '../src/app/board/commit.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {BIN, card, type Repo, tempDir, templateRepo} from './helpers.js'

/**
 * Issue 27, held checks: ids that try to leave the store, through every MCP tool and the card
 * resource of a real `cairn mcp` over stdio. Each is refused with an error, nothing is read from
 * outside or written, and the server keeps serving. Needs `npm run build`.
 */
const TRAP = 'deepmerge-array-replace-trap'
const SECRET = 'SECRET-MARKER-4321'
const TRAVERSALS = [
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '/etc/passwd',
  `${TRAP}\u0000`,
  'a\u0000b',
  '..\\..\\etc\\passwd',
  `pitfall/${TRAP}`,
  `${TRAP}/../../../etc/passwd`,
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
]
/** Ids as they stand in a resource URI, percent-encoded: never decoded into a path. */
const ENCODED = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2Fetc%2Fpasswd',
  'a%00b',
  '..%5C..%5Cetc%5Cpasswd',
  `${TRAP}%2F..%2F..`,
  TRAP.replaceAll('-', '%2D'),
]
const LINKED = ['linked-outside-card', 'linked-pending-card']

const seeded = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card()})
  await approve(repo.ctx(), {ids: [TRAP]})
  const visa = {op: 'new', id: 'visa', kind: 'request', weight: 3, summary: 'Visa needs a statement.'}
  const batch = {batch_id: 'setup', declarations: [visa]}
  await boardCommit(repo.ctx({stdin: JSON.stringify(batch)}), {
    file: '-',
    actor: 'agent-1',
    now: '2026-11-29T10:00:00Z',
  })
})

/** A card file that is a link to a card-shaped file outside the repository (committed as a clone would have it). */
function linkCard(repo: Repo, outside: string, id: string, where: 'cards' | 'pending'): void {
  const status = `status: ${where === 'cards' ? 'active' : 'draft'}`
  const text = repo.read(`.cairn/cards/pitfall/${TRAP}.md`).replaceAll(TRAP, id).replace('status: active', status)
  fs.writeFileSync(path.join(outside, `${id}.md`), text.replace('## Problem', `## Problem\n\n${SECRET}`))
  fs.mkdirSync(path.join(repo.dir, `.cairn/${where}/pitfall`), {recursive: true})
  fs.symlinkSync(path.join(outside, `${id}.md`), path.join(repo.dir, `.cairn/${where}/pitfall/${id}.md`))
}

const open: Client[] = []
afterEach(async () => {
  while (open.length) await open.pop()!.close()
})

async function connect(repo: Repo): Promise<{client: Client; stderr: () => string}> {
  const env = repo.env as Record<string, string>
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo.dir,
    env,
    stderr: 'pipe',
  })
  let err = ''
  transport.stderr?.on('data', d => (err += String(d)))
  const client = new Client({name: 'red-team', version: '1.0.0'})
  await client.connect(transport)
  open.push(client)
  return {client, stderr: () => err}
}

const notAnId = (id: string) =>
  `"${id}" is not a valid card id: ids are kebab-case slugs of lowercase letters, digits ` +
  'and single hyphens. Fix: pass the id as "cairn list" shows it.'
const LINK = 'is a symbolic link; cairn never follows links under .cairn/. Fix:'
const linkRefused = (id: string, where: string) =>
  expect.stringContaining(`.cairn/${where}/pitfall/${id}.md: (file): ${LINK}`)

describe('red team: traversal ids over MCP', () => {
  it(
    'every tool and the card resource refuse them, read nothing outside, and keep serving',
    {timeout: 180_000},
    async () => {
      const repo = await seeded()
      const outside = tempDir()
      linkCard(repo, outside, LINKED[0], 'cards')
      linkCard(repo, outside, LINKED[1], 'pending')
      repo.git('add', '-A')
      repo.git('commit', '-qm', 'links from a clone')
      const head = repo.git('rev-parse', 'HEAD').trim()
      const outsideBefore = fs.readdirSync(outside).map(f => fs.readFileSync(path.join(outside, f), 'utf8'))
      const {client, stderr} = await connect(repo)
      const answers: string[] = []
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({name, arguments: args})) as {content: {text: string}[]; isError?: boolean}
        answers.push(r.content[0].text)
        return {
          isError: r.isError ?? false,
          error: JSON.parse(r.content[0].text).error as {code: string; message: string},
        }
      }
      const refusals = (id: string) =>
        [
          ['show', {id}],
          ['approve', {ids: [id]}],
          ['reject', {id, reason: 'no'}],
          ['defer', {id, until: '2027-01-01'}],
        ] as const
      const refused = (message: unknown) => ({
        isError: true,
        error: expect.objectContaining({code: 'validation', message}),
      })

      for (const id of TRAVERSALS) {
        for (const [name, args] of refusals(id)) {
          expect([name, id, await call(name, args)]).toEqual([name, id, refused(notAnId(id))])
        }
        const board: [string, Record<string, unknown>, string][] = [
          ['board_annotate', {id, text: 'note', batch_id: 'note-1'}, 'rejected'],
          ['board_annotate', {id: 'visa', text: 'note', batch_id: id}, 'rejected'],
          ['board_commit', {batch: {batch_id: id, declarations: []}, actor: 'agent-1'}, 'rejected'],
          ['board_history', {batch: id}, 'not_found'],
        ]
        for (const [name, args, code] of board) {
          expect([name, id, (await call(name, args)).error?.code]).toEqual([name, id, code])
        }
      }
      for (const [id, where] of [
        [LINKED[0], 'cards'],
        [LINKED[1], 'pending'],
      ]) {
        for (const [name, args] of refusals(id)) {
          expect([name, id, await call(name, args)]).toEqual([name, id, refused(linkRefused(id, where))])
        }
      }

      // The resource: the URI's dot segments are resolved first (the result matches no template, or names a plain id
      // that is no card); the rest reaches the id check undecoded. An id check refusal is an internal error (-32603).
      const resources: [string, number, string][] = [
        ['cairn://card/../../etc/passwd', ErrorCode.InvalidParams, 'Resource cairn://card/etc/passwd not found'],
        ['cairn://card//etc/passwd', ErrorCode.InvalidParams, 'Resource cairn://card//etc/passwd not found'],
        ['cairn://card/%2e%2e', ErrorCode.InvalidParams, 'Resource cairn://card not found'],
        [`cairn://card/${TRAP}/../../x`, ErrorCode.InvalidParams, 'no active card "x"'],
        ...ENCODED.map((id): [string, number, string] => [`cairn://card/${id}`, ErrorCode.InternalError, notAnId(id)]),
        ...LINKED.map((id): [string, number, string] => [`cairn://card/${id}`, ErrorCode.InternalError, LINK]),
      ]
      for (const [uri, code, message] of resources) {
        const error = await client.readResource({uri}).then(
          () => undefined,
          (e: unknown) => e,
        )
        expect([uri, error instanceof McpError, (error as McpError).code], uri).toEqual([uri, true, code])
        expect((error as McpError).message, uri).toContain(message)
      }

      // Still serving: the real card reads, the resource list holds it alone, and nothing was written or read from outside.
      const real = await client.readResource({uri: `cairn://card/${TRAP}`})
      const text = repo.read(`.cairn/cards/pitfall/${TRAP}.md`)
      expect(real.contents).toEqual([{uri: `cairn://card/${TRAP}`, mimeType: 'text/markdown', text}])
      expect((await client.listResources()).resources.map(r => r.uri)).toEqual([`cairn://card/${TRAP}`])
      expect((await call('show', {id: TRAP})).isError).toBe(false)
      expect(answers.filter(a => a.includes(SECRET))).toEqual([])
      expect([repo.git('rev-parse', 'HEAD').trim(), repo.git('status', '--porcelain')]).toEqual([head, ''])
      expect(fs.readdirSync(outside).map(f => fs.readFileSync(path.join(outside, f), 'utf8'))).toEqual(outsideBefore)
      expect(stderr()).toBe('')
    },
  )
})
