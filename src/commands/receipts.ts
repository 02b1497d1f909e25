import {Flags} from '@oclif/core'
import {receipts} from '../app/receipts.js'
import type {Context} from '../context.js'
import {CairnCommand} from '../cli/base.js'
import {renderReceipts} from '../cli/render-receipts.js'

export default class Receipts extends CairnCommand {
  static override summary = 'List what the hooks injected: per hook call, the cards, why each was chosen, and its size.'
  static override description = `Every hook call that puts cards in front of an agent (session start's core cards, enforced rules and catalog; the prompt's light index; the path cards of a file) leaves one line in .cairn/.local/receipts.jsonl: the time, the session, the client, the event, each card with why it was chosen (a trigger or alias it matched, a path glob, core, catalog) and the characters its entry took, and the characters the hook added in all. The file is machine-local (never committed); past 1 MB it rotates, and the two older generations are read too.
Receipts are listed oldest first. Without --store they are the hooks' store's: the project's, else the personal one. A personal card given in a project is in both stores' receipts, marked in the project's.
A --session that no receipt names is refused (exit 4, with the closest sessions); a --since that is no date is a usage error (exit 2).`
  static override examples = [
    '<%= config.bin %> receipts --limit 5',
    '<%= config.bin %> receipts --session 5f2c9a1e-7d4b-4a65-9c3e-0b7d4a653f2a',
    '<%= config.bin %> receipts --since 7d --json',
  ]
  static override flags = {
    session: Flags.string({description: "Only this session's receipts (the client's session id)."}),
    since: Flags.string({
      description: 'Only receipts from then on: a date (2026-11-01), an RFC 3339 time, or a span back (7d, 12h, 2w).',
    }),
    limit: Flags.integer({description: 'Only the latest this many receipts.', min: 1}),
    store: Flags.option({
      description: 'Whose receipts (default: the project store, else the personal one).',
      options: ['project', 'personal'] as const,
    })(),
  }

  protected async exec(ctx: Context) {
    const {flags} = await this.parse(Receipts)
    const r = await receipts(ctx, {session: flags.session, since: flags.since, limit: flags.limit, store: flags.store})
    return {data: r, text: renderReceipts(r)}
  }
}
