import {spawn} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {waitForIndexRebuild} from '../../src/recall/open.js'
import {projectStoreAt} from '../../src/store/layout.js'
import {BIN, tempDir} from '../helpers.js'
import {type FakeModel, type LoggedRequest, startFakeModel} from './fake-model.mjs'
import {clientBin, VERSIONS} from './install-clients.mjs'

/**
 * cairn inside the real clients, installed from npm at the versions test/clients/versions.json pins, each pointed at
 * a fake model on 127.0.0.1 (fake-model.mjs) that logs every request body. Asserted from those bodies: the core card
 * and the card the prompt matches reached the model (English and Chinese prompts), the first write to a must + high
 * path was denied with its rule and the retry went through, the Stop hook blocked once, and the MCP recall tool
 * returned a card. Nothing leaves the machine.
 */

const CARDS = [
  {
    slug: 'run-tests-before-push',
    type: 'guideline',
    title: 'Run the tests before pushing',
    summary: 'Run npm test before every git push.',
    rule: 'Run npm test before every git push.',
    load: 'core',
  },
  {
    slug: 'flaky-login-test-alone',
    type: 'pitfall',
    title: 'The login test is flaky under load',
    summary: 'The login e2e test times out under parallel load; run it alone.',
    recall: {triggers: ['flaky login test', '登录测试不稳定']},
  },
  {
    slug: 'db-exports-need-review',
    type: 'guideline',
    title: 'Database exports need a review',
    summary: 'Every export under src/db is reviewed by the data team.',
    rule: 'Add the data team as reviewer for every change under src/db.',
    recall: {policy: 'must', risk: 'high'},
    scope: {paths: ['src/db/**']},
  },
]
const PROMPTS = {
  en: 'the flaky login test failed again; add a y export in src/db/y.ts',
  zh: '登录测试不稳定，又失败了；在 src/db/y.ts 里加一个 y 导出',
}
const CORE = 'Run npm test before every git push.'
const MATCHED = '- The login test is flaky under load (flaky-login-test-alone)'
const DENIED = 'Database exports need a review (db-exports-need-review) is a must-follow rule for src/db/y.ts'
const STOP = 'cairn: before you finish'
/** The hooks' clock, two days past the cards' proposal, so the Stop hook's archive signal is due. */
const LATER = '2030-01-01T00:00:00Z'

interface Project {
  repo: string
  home: string
  env: Record<string, string>
}

/**
 * Runs a command to its end, its output joined. It runs in a process group of its own, killed whole after the
 * timeout: a client's wrapper (codex.js) does not pass a kill on to the binary and the MCP server under it, whose
 * open pipes would otherwise hold the test.
 */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 150_000) {
  return new Promise<{code: number | null; out: string}>(resolve => {
    const child = spawn(cmd, args, {cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true})
    let out = ''
    child.stdout.on('data', d => (out += d))
    child.stderr.on('data', d => (out += d))
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // Already gone.
      }
    }
    const timer = setTimeout(() => group('SIGKILL'), timeoutMs)
    let settled = false
    const done = (code: number | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      group('SIGKILL')
      resolve({code, out})
    }
    child.on('close', done)
    // A child left behind holding the pipes: the exit is enough, a moment later.
    child.on('exit', code => setTimeout(() => done(code), 5000).unref())
  })
}

/** A repository with the three cards approved and enforce_must on, `cairn` on PATH, a home of its own. */
async function project(): Promise<Project> {
  const root = tempDir('cairn-clients-')
  const repo = path.join(root, 'repo')
  const home = path.join(root, 'home')
  const bin = path.join(root, 'bin')
  for (const d of [repo, home, bin]) fs.mkdirSync(d, {recursive: true})
  fs.writeFileSync(
    path.join(bin, 'cairn'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  )
  fs.chmodSync(path.join(bin, 'cairn'), 0o755)
  // Only what the run needs: a developer's provider settings (Bedrock, Vertex, OPENAI_*) never reach a client. Any
  // HTTP a client tries besides the fake model (update checks, usage statistics, plugin sync) goes to a proxy on a
  // closed local port, so nothing leaves the machine.
  const nowhere = 'http://127.0.0.1:9'
  const env: Record<string, string> = {
    HOME: home,
    CAIRN_HOME: path.join(home, '.cairn'),
    CAIRN_ACTOR: 'tester',
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    GIT_CONFIG_NOSYSTEM: '1',
    // The hooks' deadline is not what this suite measures (test/hook-deadlines.test.ts does): a loaded CI machine
    // must not cut the context the assertions look for.
    CAIRN_HOOK_DEADLINE_MS: '4500',
    ...Object.fromEntries(
      ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'https_proxy', 'http_proxy', 'all_proxy'].map(k => [k, nowhere]),
    ),
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  }
  const steps: [string, string[]][] = [
    ['git', ['init', '-q']],
    ['git', ['config', 'user.email', 't@example.com']],
    ['git', ['config', 'user.name', 'tester']],
    ['git', ['commit', '-q', '--allow-empty', '-m', 'init']],
    ['cairn', ['init']],
    ['cairn', ['propose', path.join(root, 'cards.json')]],
    ['cairn', ['review', 'approve', '--all']],
  ]
  fs.writeFileSync(path.join(root, 'cards.json'), JSON.stringify(CARDS))
  for (const [cmd, args] of steps) {
    const r = await run(cmd, args, repo, env)
    if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.out}`)
  }
  const config = path.join(repo, '.cairn/config.yaml')
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('enforce_must: false', 'enforce_must: true'))
  await run('git', ['commit', '-qam', 'enforce must'], repo, env)
  return {repo, home, env}
}

interface Client {
  /** The client's own settings for this run: where the model is, what it may do without asking. */
  configure(p: Project, model: FakeModel): Record<string, string>
  args(prompt: string): string[]
}

const CLIENTS: Record<string, Client> = {
  claude: {
    configure: (_p, model) => ({
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    }),
    // With -p the project's hooks and .mcp.json load without a trust step; an MCP tool is allowed by name.
    args: prompt => [
      '-p',
      prompt,
      '--output-format',
      'json',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'mcp__cairn__recall',
    ],
  },
  codex: {
    configure: (p, model) => {
      write(p.home, '.codex/config.toml', codexConfig(p, model, 'gpt-5.5'))
      return {FAKE_API_KEY: 'dummy'}
    },
    // exec skips hooks nobody trusted in /hooks: this run vouches for them.
    args: prompt => [
      'exec',
      '--skip-git-repo-check',
      '--json',
      '--sandbox',
      'workspace-write',
      '--dangerously-bypass-hook-trust',
      prompt,
    ],
  },
  gemini: {
    configure: (p, model) => {
      // A read-only MCP tool is offered in headless mode only when allowed by name: Gemini CLI ignores readOnlyHint.
      const settings = {
        security: {auth: {selectedType: 'gemini-api-key'}},
        tools: {allowed: ['mcp_cairn_recall']},
        privacy: {usageStatisticsEnabled: false},
      }
      write(p.home, '.gemini/settings.json', JSON.stringify(settings))
      write(p.home, '.gemini/trustedFolders.json', JSON.stringify({[p.repo]: 'TRUST_FOLDER'}))
      return {GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: model.url}
    },
    args: prompt => ['-p', prompt, '--approval-mode', 'auto_edit'],
  },
}

/** Codex's user config: the fake provider, no approvals, and this project trusted (its .codex/ is read only then). */
function codexConfig(p: Project, model: FakeModel, slug: string): string {
  return [
    `model = "${slug}"`,
    'model_provider = "fake"',
    'approval_policy = "never"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${model.url}/v1"`,
    'env_key = "FAKE_API_KEY"',
    'wire_api = "responses"',
    '',
    `[projects.${JSON.stringify(p.repo)}]`,
    'trust_level = "trusted"',
    '',
  ].join('\n')
}

function write(home: string, rel: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(home, rel)), {recursive: true})
  fs.writeFileSync(path.join(home, rel), text)
}

interface Session {
  project: Project
  requests: LoggedRequest[]
  out: string
  code: number | null
}

/** One session of the client on a fresh project: cairn installed (hooks, skills and MCP), the prompt, its end. */
async function session(name: string, prompt: string, adjust?: (p: Project, m: FakeModel) => void): Promise<Session> {
  const p = await project()
  const model = await startFakeModel({
    file: path.join(p.repo, 'src/db/y.ts'),
    relative: 'src/db/y.ts',
    content: 'export const y = 1',
  })
  try {
    const installed = await run('cairn', ['install', '--agent', name, '--mcp'], p.repo, p.env)
    if (installed.code !== 0) throw new Error(`cairn install --agent ${name}: ${installed.out}`)
    const env = {...p.env, ...CLIENTS[name].configure(p, model), CAIRN_NOW: LATER}
    adjust?.(p, model)
    const r = await run(clientBin(name), CLIENTS[name].args(prompt), p.repo, env)
    return {project: p, requests: [...model.requests], out: r.out, code: r.code}
  } finally {
    await model.close()
    // A background index rebuild a hook started must not outlive the temp dir.
    await waitForIndexRebuild(projectStoreAt(p.repo), 30_000)
  }
}

const text = (r: LoggedRequest) => JSON.stringify(r.body)
/** The requests that carry the conversation (they offer tools), not a client's side calls (routing, titles). */
const turns = (s: Session) => s.requests.filter(r => /"tools":\[/.test(text(r)) && !/"tools":\[\]/.test(text(r)))

function expectTheSession(s: Session) {
  const main = turns(s)
  expect(main.length, s.out.slice(-2000)).toBeGreaterThanOrEqual(3)
  // The first turn, before any tool ran: session start's core card and the prompt hook's match.
  expect(text(main[0])).toContain(JSON.stringify(CORE).slice(1, -1))
  expect(text(main[0])).toContain(JSON.stringify(MATCHED).slice(1, -1))
  // The write was refused with the rule, and the retry went through.
  expect(main.some(r => text(r).includes(DENIED))).toBe(true)
  expect(fs.readFileSync(path.join(s.project.repo, 'src/db/y.ts'), 'utf8').trim()).toBe('export const y = 1')
  // The Stop hook blocked once: one continuation carries its reason.
  expect(main.filter(r => text(r).includes(STOP)).length).toBe(1)
}

/**
 * The answers the client gave the model for its MCP recall calls, in each wire format: Claude's tool_result for the
 * mcp__cairn__recall tool_use, Codex's function_call_output for the recall call in the mcp__cairn namespace, Gemini's
 * functionResponse of mcp_cairn_recall.
 */
function recallAnswers(s: Session): string[] {
  const body = turns(s).at(-1)?.body ?? {}
  const claude = (body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
  const ids = new Set(
    claude.filter((b: any) => b.type === 'tool_use' && b.name === 'mcp__cairn__recall').map((b: any) => b.id),
  )
  const codex = Array.isArray(body.input) ? body.input : []
  const calls = new Set(
    codex
      .filter((i: any) => i.type === 'function_call' && i.namespace === 'mcp__cairn' && i.name === 'recall')
      .map((i: any) => i.call_id),
  )
  const gemini = (body.contents ?? []).flatMap((c: any) => c.parts ?? [])
  return [
    ...claude.filter((b: any) => b.type === 'tool_result' && ids.has(b.tool_use_id)).map((b: any) => b.content),
    ...codex.filter((i: any) => i.type === 'function_call_output' && calls.has(i.call_id)).map((i: any) => i.output),
    ...gemini.filter((p: any) => p.functionResponse?.name === 'mcp_cairn_recall').map((p: any) => p.functionResponse),
  ].map(a => JSON.stringify(a))
}

/** The MCP recall tool answered, and its answer holds the card in cairn's envelope, ok. */
const recallAnswered = (s: Session) =>
  recallAnswers(s).some(a => a.includes('flaky-login-test-alone') && a.includes('\\"ok\\":true'))

describe.each(Object.keys(VERSIONS))('%s, the real client', name => {
  beforeAll(() => {
    clientBin(name)
  }, 600_000)

  it('English: core card, matched card, a denied first write and its retry, one Stop block, MCP recall', async () => {
    const s = await session(name, PROMPTS.en)
    expectTheSession(s)
    // Codex offers MCP tools to a model it knows only through its hosted tool search: the run below checks it.
    if (name !== 'codex') expect(recallAnswered(s)).toBe(true)
  }, 300_000)

  it('Chinese: the same, from a Chinese prompt', async () => {
    expectTheSession(await session(name, PROMPTS.zh))
  }, 300_000)

  if (name === 'gemini')
    it("recalls nothing from cairn's own text, which Gemini CLI echoes into the first prompt", async () => {
      // Gemini puts session start's context (enforced rules, core card, catalog) before the user's words.
      const s = await session(name, 'say hello in one line')
      const first = turns(s)[0]
      expect(text(first)).toContain('<hook_context>cairn enforced rules')
      // The prompt hook's answer goes into that first turn, before any tool (the MCP recall's answer) could bring it.
      expect(text(first)).not.toContain('cairn: cards that may apply to this task')
      expect(text(first)).toContain('say hello in one line')
    }, 300_000)

  if (name === 'codex')
    it('MCP recall under approval_policy "never": a read-only tool needs no approval', async () => {
      // A model Codex has no metadata for gets the MCP tools directly (and no apply_patch): the script calls recall.
      const s = await session(name, PROMPTS.en, (p, model) =>
        write(p.home, '.codex/config.toml', codexConfig(p, model, 'gpt-fake')),
      )
      expect(recallAnswered(s), s.out.slice(-2000)).toBe(true)
    }, 300_000)
})
