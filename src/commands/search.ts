import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {search} from '../app/search.js'
import {CairnCommand} from '../cli/base.js'
import {paletteFor} from '../cli/colour.js'
import {renderSearch} from '../cli/render-search.js'
import {terminalColumns} from '../cli/width.js'
import {CARD_TYPES} from '../domain/card/types.js'
import {SEARCH_STATES} from '../domain/search.js'

export default class Search extends CairnCommand {
  static override summary = 'Search the text of every card with a regular expression or a fixed string.'
  static override description = `Searches every line of every card file in the project and personal stores, in every state: pending, active, deprecated, superseded and archived. With --board, board records too. Each matched line is shown under its card with its line number and its field: a frontmatter key such as title or recall.triggers, or body.
The pattern is ripgrep's regular expression syntax, the Rust regex dialect: \\w, \\d, \\s and \\b are Unicode-aware, and there is no look-around and no backreference. A pattern that starts with - follows --, as in: cairn search -- -flag.
Cards are read as cairn reads them: links are never followed, a card file over 256 KiB is skipped, and invalid UTF-8 is read with replacement characters.
Where ripgrep has no binary for the platform, cairn says so and searches in Node with the same results; it refuses a pattern it cannot answer the same way there.
Exits 0 when nothing matches, and 2 for a pattern ripgrep refuses.`
  static override examples = [
    '<%= config.bin %> search "retry budget"',
    '<%= config.bin %> search "deep ?merge" --ignore-case --state active,pending',
    '<%= config.bin %> search "a(b" --fixed-strings',
    '<%= config.bin %> search "\\bTODO\\b" --type pitfall --json',
  ]
  static override args = {
    pattern: Args.string({
      description: 'The regular expression, or with --fixed-strings the text, to look for.',
      required: true,
    }),
  }
  static override flags = {
    'fixed-strings': Flags.boolean({
      char: 'F',
      description: 'Search for the pattern as it is, not as a regular expression.',
    }),
    'ignore-case': Flags.boolean({char: 'i', description: 'Match letters in either case.'}),
    state: Flags.option({
      description: 'Only cards in this state; repeat it, or separate states with commas. Every state by default.',
      options: SEARCH_STATES,
      multiple: true,
      delimiter: ',',
    })(),
    type: Flags.option({
      description: 'Only cards of this type; repeat it, or separate types with commas.',
      options: CARD_TYPES,
      multiple: true,
      delimiter: ',',
    })(),
    board: Flags.boolean({description: 'Search the board records too: board/batches/*.json.'}),
    store: Flags.option({
      description: 'Which store to search.',
      options: ['project', 'personal', 'all'] as const,
      default: 'all',
    })(),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(Search)
    const r = await search(ctx, {
      pattern: args.pattern,
      fixedStrings: flags['fixed-strings'],
      ignoreCase: flags['ignore-case'],
      states: flags.state,
      types: flags.type,
      board: flags.board,
      store: flags.store,
    })
    // --json prints the data alone: the text (tens of thousands of lines for a common word) is not drawn.
    const text = this.wantsJson
      ? undefined
      : renderSearch(r, {paint: paletteFor(process.stdout), width: terminalColumns()})
    return {data: r, text}
  }
}
