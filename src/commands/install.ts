import {Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {install} from '../app/install.js'
import {CairnCommand} from '../cli/base.js'
import {renderInstall} from '../cli/render-install.js'
import {AGENT_CLIENTS, SKILL_LANGS} from '../domain/agents/types.js'

export default class Install extends CairnCommand {
  static override summary =
    'Connect an agent (Claude Code, Codex, Cursor, Gemini CLI) to cairn: its hooks, skills and, with --mcp, the MCP server.'
  static override description = `Merges cairn's hook entries into the client's settings file and copies the cairn skills into its skill folder. It never overwrites: the user's own hooks and settings stay, and a second run changes nothing. Nothing is committed; it prints what changed.
Project scope (the default) writes into this git repository and runs "cairn" from PATH, so the config can be committed and shared. User scope writes under your home directory and runs this copy of cairn by its absolute path.
With --mcp it also adds "cairn mcp" as the "cairn" server in the client's MCP config: .mcp.json for Claude Code (~/.claude.json for the user), .cursor/mcp.json for Cursor, [mcp_servers.cairn] in .codex/config.toml for Codex, and mcpServers in .gemini/settings.json for Gemini CLI. The same rules apply: merged next to the user's own servers, never replacing one; a server named "cairn" that does not run cairn is kept, with a warning.
The skills are in the language --lang names; without it, in the one an earlier --lang chose for the same client and scope, else in the store's knowledge_language.
Invalid JSON or TOML in a file it merges into exits 6 and writes nothing. "cairn uninstall" takes it all out again, the MCP server included, and gives back a file nobody but cairn changed since install byte for byte.`
  static override examples = [
    '<%= config.bin %> install --agent claude',
    '<%= config.bin %> install --agent codex --scope user',
    '<%= config.bin %> install --agent cursor --mcp',
    '<%= config.bin %> install --agent gemini --lang zh-CN --dry-run',
  ]
  static override flags = {
    agent: Flags.option({description: 'The agent client to connect.', options: AGENT_CLIENTS, required: true})(),
    scope: Flags.option({
      description: 'Write into this repository (project) or your home directory (user).',
      options: ['project', 'user'] as const,
      default: 'project',
    })(),
    lang: Flags.option({
      description:
        "Language of the skills; default the one an earlier --lang chose for this client and scope, else the store's knowledge_language.",
      options: SKILL_LANGS,
    })(),
    mcp: Flags.boolean({description: 'Also add the cairn MCP server ("cairn mcp") to the client\'s MCP config.'}),
    'dry-run': Flags.boolean({description: 'Print the diff of each file instead of writing it.'}),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Install)
    const r = await install(ctx, {
      agent: flags.agent,
      scope: flags.scope,
      lang: flags.lang,
      mcp: flags.mcp,
      dryRun: flags['dry-run'],
    })
    return {...r, text: renderInstall(r.data)}
  }
}
