import fs from 'node:fs'
import path from 'node:path'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {parse} from 'smol-toml'
import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {install} from '../src/app/install.js'
import {uninstall} from '../src/app/uninstall.js'
import {cliEntry} from '../src/store/agents/agent-files.js'
import {BIN, type Repo, tempDir, tempRepo} from './helpers.js'
import {shim, skillTemplates, tree, withPath} from './install-helpers.js'

/** `cairn install --mcp`: cairn's server merged into each client's MCP config, and taken out again by uninstall. */

/** The user's own Codex config: comments, a server of theirs, a profile after it. */
const CODEX_CONFIG = `# my Codex settings
model = "o4-mini"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"] # pinned

[profiles.fast]
model = "o4-mini"
`

/** The user's own Claude Code / Cursor MCP config, four-space indented. */
const JSON_CONFIG = `{
    "mcpServers": {
        "db": {
            "command": "db-mcp",
            "env": {"DB_URL": "postgres://localhost/dev"}
        }
    }
}
`

const files = (repo: Repo) => tree(repo.dir).filter(f => !f.startsWith('.git/'))

function setup(seed: Record<string, string> = {}) {
  const repo = tempRepo(seed)
  return {repo, ctx: withPath(repo, shim(0)), skillsRoot: skillTemplates()}
}

describe('cairn install --mcp', () => {
  it('claude: adds "cairn" to .mcp.json beside the user\'s server, once; uninstall gives the bytes back', async () => {
    const {repo, ctx, skillsRoot} = setup({'.mcp.json': JSON_CONFIG})
    const before = files(repo)
    const r = await install(ctx, {agent: 'claude', mcp: true, skillsRoot})
    expect(r.data.mcp).toEqual({file: '.mcp.json', server: 'cairn', command: 'cairn', args: ['mcp'], action: 'added'})
    expect(r.data.files.find(f => f.file === '.mcp.json')).toMatchObject({kind: 'mcp', action: 'modified'})
    expect(repo.read('.mcp.json')).toBe(`{
    "mcpServers": {
        "db": {
            "command": "db-mcp",
            "env": {"DB_URL": "postgres://localhost/dev"}
        },
        "cairn": {
            "command": "cairn",
            "args": [
                "mcp"
            ]
        }
    }
}
`)
    expect(r.data.trust).toContain('approve the "cairn" server from .mcp.json')
    const again = await install(ctx, {agent: 'claude', mcp: true, skillsRoot})
    expect([again.data.changed, again.data.mcp?.action]).toEqual([false, 'present'])
    const u = await uninstall(ctx, {agent: 'claude', skillsRoot})
    expect(u.data.mcp).toEqual({file: '.mcp.json', server: 'cairn', action: 'removed'})
    expect(repo.read('.mcp.json')).toBe(JSON_CONFIG)
    expect(files(repo)).toEqual(before)
  })

  it('cursor: a new .cursor/mcp.json that passes the workspace folder; uninstall deletes it and the folder', async () => {
    const {repo, ctx, skillsRoot} = setup()
    const before = files(repo)
    const r = await install(ctx, {agent: 'cursor', mcp: true, skillsRoot})
    expect(r.data.files.find(f => f.file === '.cursor/mcp.json')?.action).toBe('created')
    expect(JSON.parse(repo.read('.cursor/mcp.json'))).toEqual({
      mcpServers: {cairn: {command: 'cairn', args: ['mcp', '--cwd', '${workspaceFolder}']}},
    })
    await uninstall(ctx, {agent: 'cursor', skillsRoot})
    expect(files(repo)).toEqual(before)
    expect(fs.existsSync(path.join(repo.dir, '.cursor'))).toBe(false)
  })

  it('codex: appends [mcp_servers.cairn] to config.toml, keeping comments and order; uninstall restores it', async () => {
    const {repo, ctx, skillsRoot} = setup({'.codex/config.toml': CODEX_CONFIG})
    await install(ctx, {agent: 'codex', mcp: true, skillsRoot})
    expect(repo.read('.codex/config.toml')).toBe(
      `${CODEX_CONFIG}\n[mcp_servers.cairn]\ncommand = "cairn"\nargs = ["mcp"]\n`,
    )
    expect((await install(ctx, {agent: 'codex', mcp: true, skillsRoot})).data.changed).toBe(false)
    await uninstall(ctx, {agent: 'codex', skillsRoot})
    expect(repo.read('.codex/config.toml')).toBe(CODEX_CONFIG)
  })

  it("codex: after the user edits config.toml, uninstall cuts out cairn's table alone and keeps their edit", async () => {
    const {repo, ctx, skillsRoot} = setup({'.codex/config.toml': CODEX_CONFIG})
    await install(ctx, {agent: 'codex', mcp: true, skillsRoot})
    const edited = `${repo.read('.codex/config.toml')}\n[mcp_servers.search]\ncommand = "search-mcp"\n`
    repo.write('.codex/config.toml', edited)
    const u = await uninstall(ctx, {agent: 'codex', skillsRoot})
    expect(u.data.files.find(f => f.file === '.codex/config.toml')?.action).toBe('modified')
    expect(repo.read('.codex/config.toml')).toBe(`${CODEX_CONFIG}\n[mcp_servers.search]\ncommand = "search-mcp"\n`)
    expect(parse(repo.read('.codex/config.toml')).mcp_servers).toEqual({
      docs: {command: 'npx', args: ['-y', 'docs-mcp']},
      search: {command: 'search-mcp'},
    })
  })

  it('gemini: the server goes into the settings file beside the hooks; one uninstall takes both out', async () => {
    const settings = '{\n  // mine\n  "theme": "dark"\n}\n'
    const {repo, ctx, skillsRoot} = setup({'.gemini/settings.json': settings})
    const r = await install(ctx, {agent: 'gemini', mcp: true, skillsRoot})
    expect(r.data.files.filter(f => f.file === '.gemini/settings.json')).toHaveLength(1)
    const text = repo.read('.gemini/settings.json')
    expect(text.startsWith('{\n  // mine\n  "theme": "dark",')).toBe(true)
    expect(text).toContain('"mcpServers": {\n    "cairn": {\n      "command": "cairn"')
    expect(text).toContain('"hooks": {')
    // A second install without --mcp leaves the server in place.
    expect((await install(ctx, {agent: 'gemini', skillsRoot})).data.changed).toBe(false)
    // The user adds a setting: uninstall can no longer restore bytes, so it takes out cairn's entries alone.
    repo.write('.gemini/settings.json', text.replace('"theme": "dark",', '"theme": "dark",\n  "vimMode": true,'))
    const u = await uninstall(ctx, {agent: 'gemini', skillsRoot})
    expect([u.data.mcp?.action, u.data.hooks.length]).toEqual(['removed', 6])
    expect(repo.read('.gemini/settings.json')).toBe('{\n  // mine\n  "theme": "dark",\n  "vimMode": true\n}\n')
  })

  it('user scope: ~/.claude.json and ~/.codex/config.toml run this copy of cairn by its absolute path', async () => {
    const {repo, ctx, skillsRoot} = setup()
    fs.writeFileSync(path.join(repo.home, '.claude.json'), '{"numStartups": 3}\n')
    const {node, script} = cliEntry()
    await install(ctx, {agent: 'claude', scope: 'user', mcp: true, skillsRoot})
    expect(JSON.parse(fs.readFileSync(path.join(repo.home, '.claude.json'), 'utf8'))).toEqual({
      numStartups: 3,
      mcpServers: {cairn: {command: node, args: [script, 'mcp']}},
    })
    await install(ctx, {agent: 'codex', scope: 'user', mcp: true, skillsRoot})
    expect(parse(fs.readFileSync(path.join(repo.home, '.codex/config.toml'), 'utf8'))).toEqual({
      mcp_servers: {cairn: {command: node, args: [script, 'mcp']}},
    })
    await uninstall(ctx, {agent: 'claude', scope: 'user', skillsRoot})
    await uninstall(ctx, {agent: 'codex', scope: 'user', skillsRoot})
    expect(fs.readFileSync(path.join(repo.home, '.claude.json'), 'utf8')).toBe('{"numStartups": 3}\n')
    expect(fs.existsSync(path.join(repo.home, '.codex'))).toBe(false)
  })

  it('keeps a "cairn" server that does not run cairn, says so, and uninstall leaves it too', async () => {
    const theirs = '{"mcpServers": {"cairn": {"command": "python", "args": ["cairn_server.py"]}}}\n'
    const {repo, ctx, skillsRoot} = setup({'.mcp.json': theirs})
    const r = await install(ctx, {agent: 'claude', mcp: true, skillsRoot})
    expect(r.data.mcp?.action).toBe('kept')
    expect(r.data.trust).not.toContain('"cairn" server')
    expect(r.warnings).toContain(
      '.mcp.json: kept the "cairn" server there: it does not run cairn. Rename or remove it, then run install --mcp again',
    )
    expect(repo.read('.mcp.json')).toBe(theirs)
    await uninstall(ctx, {agent: 'claude', skillsRoot})
    expect(repo.read('.mcp.json')).toBe(theirs)
  })

  it("a stale command (cairn moved) is updated in place; the user's env for it stays", async () => {
    const old =
      '[mcp_servers.cairn]\ncommand = "/old/node"\nargs = ["/old/cairn/bin/run.js", "mcp"]\nenv = { CAIRN_LOG = "1" }\n'
    const {repo, ctx, skillsRoot} = setup({'.codex/config.toml': old})
    const r = await install(ctx, {agent: 'codex', mcp: true, skillsRoot})
    expect(r.data.mcp?.action).toBe('updated')
    expect(repo.read('.codex/config.toml')).toBe(
      '[mcp_servers.cairn]\ncommand = "cairn"\nargs = ["mcp"]\nenv = { CAIRN_LOG = "1" }\n',
    )
  })

  it('refuses invalid TOML, or an inline mcp_servers it cannot append to, with exit 6 and nothing written', async () => {
    for (const [text, field, message] of [
      ['model = "o3"\n[mcp_servers.docs\ncommand = "x"\n', 'line 2, column 18', 'not valid TOML'],
      [
        'mcp_servers = { docs = { command = "x" } }\n',
        'mcp_servers.cairn',
        'cannot be added without rewriting the file',
      ],
      ['mcp_servers = "none"\n', 'mcp_servers', 'is not a table'],
    ]) {
      const {repo, ctx, skillsRoot} = setup({'.codex/config.toml': text})
      const before = files(repo)
      const error = await install(ctx, {agent: 'codex', mcp: true, skillsRoot}).then(
        () => null,
        (e: any) => e,
      )
      expect(error?.code).toBe('validation')
      expect(error.data.issues[0]).toMatchObject({
        file: '.codex/config.toml',
        field,
        message: expect.stringContaining(message),
      })
      if (field === 'mcp_servers.cairn') {
        // The fix, followed by hand, gives a file Codex reads, with cairn's server in it.
        const fixed = text.replace(
          'docs = { command = "x" }',
          'docs = { command = "x" }, cairn = { command = "cairn", args = ["mcp"] }',
        )
        expect(error.data.issues[0].fix).toContain(
          'add cairn = { command = "cairn", args = ["mcp"] } inside the mcp_servers table',
        )
        expect(parse(fixed).mcp_servers).toEqual({docs: {command: 'x'}, cairn: {command: 'cairn', args: ['mcp']}})
      }
      expect(repo.read('.codex/config.toml')).toBe(text)
      expect(files(repo)).toEqual(before)
      expect(tree(path.join(repo.home, '.cairn/.local/install'))).toEqual([])
    }
  })

  it("--dry-run shows the MCP file's diff and writes nothing", async () => {
    const {repo, ctx, skillsRoot} = setup({'.codex/config.toml': CODEX_CONFIG})
    const r = await install(ctx, {agent: 'codex', mcp: true, dryRun: true, skillsRoot})
    expect(r.data.files.find(f => f.file === '.codex/config.toml')?.diff).toBe(
      '--- a/.codex/config.toml\n+++ b/.codex/config.toml\n@@ -7,3 +7,7 @@\n \n [profiles.fast]\n model = "o4-mini"\n+\n+[mcp_servers.cairn]\n+command = "cairn"\n+args = ["mcp"]',
    )
    expect(repo.read('.codex/config.toml')).toBe(CODEX_CONFIG)
  })

  it('the server each client is given starts, and answers a real MCP client from the project', async () => {
    const repo = tempRepo()
    await init(repo.ctx(), {})
    // `cairn` on PATH, as a user's global install puts it.
    const bin = tempDir('cairn-bin-')
    fs.writeFileSync(path.join(bin, 'cairn'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
    fs.chmodSync(path.join(bin, 'cairn'), 0o755)
    const ctx = withPath(repo, shim(0))
    for (const agent of ['claude', 'cursor', 'codex', 'gemini'] as const) {
      const r = await install(ctx, {agent, mcp: true, skillsRoot: skillTemplates()})
      const {command, args} = r.data.mcp as {command: string; args: string[]}
      // Cursor puts the workspace folder in for ${workspaceFolder}; the others start the server in the project.
      const argv = args.map(a => a.replace('${workspaceFolder}', repo.dir))
      const env = {...repo.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`} as Record<string, string>
      const client = new Client({name: agent, version: '1.0.0'})
      await client.connect(
        new StdioClientTransport({
          command,
          args: argv,
          cwd: agent === 'cursor' ? repo.home : repo.dir,
          env,
          stderr: 'pipe',
        }),
      )
      try {
        const {tools} = await client.listTools()
        expect(tools.map(t => t.name)).toContain('recall')
        const listed = await client.callTool({name: 'list', arguments: {}})
        expect(JSON.parse((listed.content as {text: string}[])[0].text)).toMatchObject({ok: true, data: {cards: []}})
      } finally {
        await client.close()
      }
    }
  })
})
