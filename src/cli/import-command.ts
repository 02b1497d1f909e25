import {Args, Flags} from '@oclif/core'
import type {Context} from '../context.js'
import {importRules, type ImportResult, SOURCE_LIMITS} from '../app/import.js'
import {someIds} from '../domain/core.js'
import {formatIssue} from '../domain/errors.js'
import {CairnCommand} from './base.js'
import {short, table} from './render.js'

/** What every `cairn import <kind>` shares: PATH, --dry-run, the report, and exit 6 when a source failed. */
export const IMPORT_RULES_TEXT =
  'Cards become pending cards for "cairn review", never active ones, in one commit. When the imported core cards, once approved, would put the core cards over core_budget, the report says which would not load at session start. Each slug comes from the file name and the heading (a Chinese one as pinyin, 提交规范 → tijiao-guifan), completed by the first words of its rule when short; a second run finds the cards it made by source path and heading, so editing the text keeps them and adds nothing. What cairn exported itself (its <!-- cairn:begin --> block, cairn-*.mdc rules) is skipped. A malformed source file, and a rule holding a secret (named with its fingerprint and the secrets.allow fix), is reported with its path and the rest is imported; the exit code is then 6. The report ends with what became no card and why, in one "not imported:" block (a refused file with its first problem; an introduction that gives no rule).'

const mb = (bytes: number) => `${bytes / (1 << 20)} MB`

/** How every importer treats links and big trees; `where` is what a link may lead to. */
export const importLinksText = (where = "the repository's work tree") =>
  `Only regular files are read, each up to ${mb(SOURCE_LIMITS.fileBytes)} (${mb(SOURCE_LIMITS.batchBytes)} in all). ` +
  `A link is followed only to a file in ${where}: one that leads out of it, into .git/ or .cairn/, or to a dot file ` +
  'is reported like a malformed file and never read, whether it is the file itself or a folder on its way. Inside a ' +
  'folder, a link to another folder is not entered (it can loop) and is named in a warning; a file reached by two ' +
  'names (CLAUDE.md a link to AGENTS.md) is read once, by its own name. A folder is read ' +
  `${SOURCE_LIMITS.depth} levels down, and at most ${SOURCE_LIMITS.entries} entries.`

/** How claude-md, copilot, cursor-rules and kiro type their cards. */
export const IMPORT_TYPE_TEXT =
  'The type is what the wording says: a heading saying pitfall, gotcha, avoid, never or don\'t (避免, 不要, 禁止) or marked ❌, or a first sentence starting with avoid, never or don\'t (after any mark), makes a pitfall; how to, steps, procedure, runbook, release, deploy, setup or checklist (步骤, 流程, 发布, 部署) with a numbered list a process; decision or "we chose" a decision; else a guideline. A frontmatter type: naming a card type wins.'

export const importFlags = {
  'dry-run': Flags.boolean({description: 'Write nothing; show the cards that would be proposed.'}),
  'no-commit': Flags.boolean({description: 'Write the files without committing them; they are left unstaged.'}),
}

export const importPathArg = (description: string) => ({path: Args.string({description})})

export abstract class ImportCommand extends CairnCommand {
  /** The kind this command imports, as `cairn import <kind>` names it. */
  protected abstract kind: string

  protected async exec(ctx: Context) {
    const {args, flags} = await this.parse(this.ctor as typeof ImportCommand)
    const r = await importRules(ctx, {
      kind: this.kind,
      path: args.path as string | undefined,
      dryRun: flags['dry-run'] as boolean,
      noCommit: flags['no-commit'] as boolean,
      activate: flags.activate as boolean | undefined,
    })
    const warnings = [
      ...r.warnings,
      ...r.failed.flatMap(f => f.issues.map(i => formatIssue({...i, file: i.file ?? f.file}))),
    ]
    // A file can fail whole (malformed) or in part (one record's id held elsewhere): name each file once.
    const files = [...new Set(r.failed.map(f => f.file))]
    const message = `Not imported, in part or whole: ${files.join(', ')}. Fix: mend each file as its warning says, then import again`
    const failure = r.failed.length ? {code: 'validation' as const, message} : undefined
    return {data: r, text: render(r), warnings, failure}
  }
}

/** Rule files name a rule, not the words a prompt says: the agent writes those next. */
const enrichNext = (n: number): string =>
  `Then: ${n === 1 ? '1 of these cards has' : `${n} of these cards have`} only the triggers cairn derived, and rules rarely hold the words prompts say. ` +
  'Run the cairn-enrich skill (or "cairn enrich") to give them triggers and aliases in English and Chinese.'

function render(r: ImportResult): string {
  if (r.cards.length === 0) return ['nothing to import', ...notImported(r)].join('\n')
  const rows = r.cards.map(c => [c.id, c.type, c.outcome, `${c.source}:${c.line}`])
  const added = r.cards.some(c => c.outcome === 'created' || c.outcome === 'merged')
  const count = (outcome: string) => r.cards.filter(c => c.outcome === outcome).length
  const why = [
    count('skipped') && `${count('skipped')} imported before`,
    count('rejected') &&
      `${count('rejected')} rejected in review before (not proposed again; "cairn propose" takes one after all)`,
    count('source-changed') &&
      `${count('source-changed')} imported before and changed in the source since (the cards keep their text: edit them to follow)`,
    r.failed.length && `${r.failed.length} file(s) not imported`,
  ].filter(Boolean)
  const tail = r.dryRun
    ? 'dry run: nothing written'
    : added
      ? [
          `commit: ${short(r.commit)}`,
          'Next: "cairn review" shows the new cards; approve, modify or reject each.',
          ...(r.derivedOnly ? [enrichNext(r.derivedOnly)] : []),
        ].join('\n')
      : `nothing added: ${why.join(', ')}`
  return [table(rows, ['ID', 'TYPE', 'OUTCOME', 'SOURCE']), ...notImported(r), ...overflowLines(r), tail].join('\n')
}

/** In one place, what became no card and why: files refused (the warnings give each fix) and text left out on purpose. */
function notImported(r: ImportResult): string[] {
  const lines = [
    ...r.failed.map(f => {
      const first = f.issues[0]
      const more = f.issues.length > 1 ? ` (and ${f.issues.length - 1} more)` : ''
      return `  ${f.file}: ${first ? `${first.field ?? '(file)'} ${first.message}` : 'not read'}${more}; the warning says how to fix it`
    }),
    ...r.leftOut.map(x => `  ${x.source}:${x.line} "${x.title}": ${x.why}`),
  ]
  return lines.length ? ['not imported:', ...lines] : []
}

/** The core budget a session start would overflow once the imported core cards are approved: said now, not found later. */
function overflowLines(r: ImportResult): string[] {
  const o = r.coreOverflow
  if (!o) return []
  return [
    `core budget: once approved, the core cards hold ${o.chars} characters, over core_budget (${o.budget}), so ${someIds(o.left)} would not load at session start. ` +
      'Fix: raise core_budget in .cairn/config.yaml, or make some of them recall cards (cairn review modify <id> --set load=recall).',
  ]
}
