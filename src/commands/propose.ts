import {Args, Flags} from '@oclif/core'
import type {Context} from '../app/context.js'
import {propose} from '../app/propose.js'
import {CairnCommand} from '../cli/base.js'
import {renderPropose} from '../cli/render.js'

export default class Propose extends CairnCommand {
  static override summary = 'Write proposed cards to pending/, one commit per call.'
  static override description = `FILE (or "-" for stdin) holds one card object or an array, as JSON or YAML, or a Markdown card with frontmatter.
Required per card: slug (or id), type (singular or plural), title, summary.
Optional: rule (defaults to the summary), problem, category, load, criteria, engine_hints, recall, scope, language, keywords, links,
layer (team|personal), relevance_scope (narrow|broad), relevance_paths, edit_paths, source_sessions, recent_paths,
user_messages_summary, proposed_reason, session_context.
Proposing the same (first source session, type, slug) again merges the new evidence into the same pending card.
Personal cards go to the personal store, always with broad scope. Bad input exits 6 and writes nothing.`
  static override examples = [
    '<%= config.bin %> propose cards.json',
    'cat cards.json | <%= config.bin %> propose -',
    '<%= config.bin %> propose --type pitfall --slug deepmerge-array-replace-trap --title "deepMerge replaces arrays" --summary "When merging hook config, deepMerge replaces arrays; append and dedupe instead."',
  ]
  static override args = {
    file: Args.string({description: 'JSON/YAML/Markdown file with the card(s), or "-" for stdin.', required: false}),
  }
  static override flags = {
    type: Flags.string({description: 'Card type: model, decision, guideline, pitfall or process (plural accepted).'}),
    slug: Flags.string({description: 'Card id: kebab-case, 2–5 words, 20–40 characters.'}),
    title: Flags.string({description: 'Short title.'}),
    summary: Flags.string({description: 'One sentence: when it applies, the common wrong turn, the right action.'}),
    rule: Flags.string({description: 'The full reusable rule (defaults to the summary).'}),
    layer: Flags.option({
      description: 'team (project store, default) or personal (personal store).',
      options: ['team', 'personal'] as const,
    })(),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(Propose)
    const single = flags.type ?? flags.slug ?? flags.title ?? flags.summary ?? flags.rule
    if (single !== undefined && args.file) this.error('give either FILE or the --type/--slug/--title/--summary flags, not both', {exit: 2})
    const r = await propose(ctx, {
      file: args.file,
      fields: single !== undefined ? {type: flags.type, slug: flags.slug, title: flags.title, summary: flags.summary, rule: flags.rule, layer: flags.layer} : undefined,
      noCommit: flags['no-commit'],
    })
    return {data: r, text: renderPropose(r)}
  }
}
