import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {propose} from '../app/propose.js'
import {CairnCommand} from '../cli/base.js'
import {renderPropose} from '../cli/render.js'

export default class Propose extends CairnCommand {
  static override summary = 'Write cards to pending/, where they wait for review, one commit per call.'
  static override description = `FILE (or "-" for stdin) holds one card object or an array, as JSON or YAML, or a Markdown card with frontmatter.
Required per card: slug (or id), type (singular or plural), title, summary.
Optional: rule (defaults to the summary), problem, category, load, criteria, engine_hints, recall, scope, language, keywords, links,
layer (team|personal), relevance_scope (narrow|broad), relevance_paths, edit_paths, source_sessions, recent_paths,
user_messages_summary, proposed_reason, session_context.
Proposing the same (first source session, type, slug) again merges the new evidence into the same pending card.
That card keeps its text: when the proposal gives any text field differently (title, summary, rule, triggers, ...),
the output lists each one, old → new, and --replace puts the new text in its place. Every proposal is checked for
secrets and text that steers an agent, even one whose text the pending card keeps.
Personal cards go to the personal store, always with broad scope. Bad input exits 6 and writes nothing.
--edit opens $VISUAL or $EDITOR (else vi) on a commented card template, as "git commit" does, and proposes what you save.
An empty or unchanged file, or an editor that exits nonzero, aborts with exit 2 and writes nothing. When the card is
refused, the edited file is kept and its path printed: fix it and propose that file.`
  static override examples = [
    '<%= config.bin %> propose cards.json',
    '<%= config.bin %> propose --edit',
    {description: 'The cards from stdin:', command: 'cat cards.json | <%= config.bin %> propose -'},
    '<%= config.bin %> propose --type pitfall --slug deepmerge-array-replace-trap --title "deepMerge replaces arrays" --summary "When merging hook config, deepMerge replaces arrays; append and dedupe instead."',
    {
      description: 'A better summary for the card already pending:',
      command:
        '<%= config.bin %> propose --replace --type pitfall --slug deepmerge-array-replace-trap --title "deepMerge replaces arrays" --summary "When merging hook config, deepMerge replaces arrays: append, then dedupe."',
    },
    '<%= config.bin %> propose --type pitfall --slug deepmerge-array-replace-trap --title "deepMerge replaces arrays" --summary "..." --trigger "hooks disappeared after install" --alias "配置合并覆盖数组" --use-when "merging JSON settings"',
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
      description: 'Team for the project store, the default, or personal for the personal store.',
      options: ['team', 'personal'] as const,
    })(),
    trigger: Flags.string({
      description: 'A phrase a colleague would type when the card applies (repeatable).',
      multiple: true,
    }),
    'use-when': Flags.string({description: 'A situation the card is for (repeatable).', multiple: true}),
    'ignore-when': Flags.string({description: 'A phrase that rules the card out (repeatable).', multiple: true}),
    alias: Flags.string({
      description: 'Another name for the topic, in English or Chinese; the language is detected (repeatable).',
      multiple: true,
    }),
    topic: Flags.string({description: 'A topic word (repeatable).', multiple: true}),
    edit: Flags.boolean({
      description: 'Write the card in your editor ($VISUAL, $EDITOR, else vi), starting from a commented template.',
    }),
    replace: Flags.boolean({
      description:
        "A card already pending takes the proposal's text in place of its own (without it, only the evidence merges).",
    }),
    'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
  }

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(Propose)
    const phrases = {
      triggers: flags.trigger,
      use_when: flags['use-when'],
      ignore_when: flags['ignore-when'],
      aliases: flags.alias,
      topics: flags.topic,
    }
    const phraseGiven = Object.values(phrases).some(v => v !== undefined)
    const single = flags.type ?? flags.slug ?? flags.title ?? flags.summary ?? flags.rule
    if ((single !== undefined || phraseGiven) && args.file)
      this.error('give either FILE or the card flags (--type, --slug, --title, --summary, ...), not both', {exit: 2})
    if (flags.edit) {
      if (args.file || single !== undefined || phraseGiven)
        this.error('--edit writes the card in your editor: give no FILE and no card flags with it', {exit: 2})
      // The editor path is loaded only when asked for: every other propose starts without it.
      const {proposeInEditor} = await import('../cli/propose-edit.js')
      const r = await proposeInEditor(ctx, {
        layer: flags.layer ?? 'team',
        noCommit: flags['no-commit'],
        replace: flags.replace,
      })
      return {data: r, text: renderPropose(r)}
    }
    if (phraseGiven && single === undefined)
      this.error(
        '--trigger, --use-when, --ignore-when, --alias and --topic go with --type, --slug, --title and --summary',
        {exit: 2},
      )
    const r = await propose(ctx, {
      file: args.file,
      fields:
        single !== undefined
          ? {
              type: flags.type,
              slug: flags.slug,
              title: flags.title,
              summary: flags.summary,
              rule: flags.rule,
              layer: flags.layer,
            }
          : undefined,
      phrases,
      noCommit: flags['no-commit'],
      replace: flags.replace,
    })
    return {data: r, text: renderPropose(r)}
  }
}
