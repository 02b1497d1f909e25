import path from 'node:path'
import {Command, Flags} from '@oclif/core'

export default class Mcp extends Command {
  static override summary = 'Serve cairn to MCP clients (Claude Code, Cursor, Codex, ...) over stdio.'
  static override description = `An MCP stdio server. Tools: recall, show, list, propose, review_list, approve, reject, defer,
enrich_list, enrich_apply, board_state, board_commit, board_annotate and board_history; each answers with the envelope of
the CLI's --json (a failure is a result with isError), and carries annotations (a title; readOnlyHint on the seven that
only read; destructiveHint on reject, and on enrich_apply and propose for their replace). Resources: every active card as cairn://card/<id>. The store is the client's first file:// root when it offers roots,
else --cwd, else the working directory. Only the protocol goes to stdout; logs go to stderr.
A message over 10 MB is answered with a JSON-RPC invalid-request error, and the next one is read.`
  static override examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --cwd /path/to/repo']
  static override flags = {
    cwd: Flags.string({description: 'Directory whose store to serve when the client offers no roots.'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Mcp)
    // The SDK is loaded only here: no other command pays for it.
    const {serveMcp} = await import('../mcp/server.js')
    await serveMcp({cwd: flags.cwd ? path.resolve(flags.cwd) : undefined, version: this.config.version})
  }
}
