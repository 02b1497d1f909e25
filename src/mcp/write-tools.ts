import {z} from 'zod'
import {boardAnnotate} from '../app/board/annotate.js'
import {boardCommit} from '../app/board/commit.js'
import {enrichApply} from '../app/enrich.js'
import {propose} from '../app/propose.js'
import {approve, defer, reject} from '../app/review.js'
import {CairnError} from '../domain/errors.js'
import {boardStore, now, store, type ToolSpec} from './tools.js'

/**
 * The tools that write: each is one commit, as the CLI command of the same name. Propose and board_commit
 * take their JSON the way the CLI takes a file on stdin, so their per-item errors (each card's fields, each
 * JSON path of a batch) come back in the error envelope's data.
 */
const noCommit = z
  .boolean()
  .optional()
  .describe('Write the files without committing them (left unstaged), as --no-commit does.')

export const writeTools: Record<string, ToolSpec> = {
  propose: {
    hints: {title: 'Propose cards', readOnlyHint: false, destructiveHint: true, idempotentHint: true},
    description:
      'Propose cards for review (same as "cairn propose - --json" with the cards on stdin). Each card: slug, type, ' +
      'title, summary; optional rule, problem, category, load, triggers, aliases, use_when, ignore_when, layer, ... . ' +
      'A card already pending keeps its text and merges only the evidence: kept_text lists each field the proposal ' +
      'gives differently (old and new), and replace: true puts the new text in its place.',
    input: {
      cards: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .describe('The cards, as "cairn propose" reads them from a JSON file.'),
      replace: z
        .boolean()
        .optional()
        .describe("A card already pending takes the proposal's text in place of its own, as --replace does."),
      no_commit: noCommit,
    },
    stdin: a => JSON.stringify(a.cards),
    run: async (ctx, a) => ({data: await propose(ctx, {file: '-', noCommit: a.no_commit, replace: a.replace})}),
  },
  approve: {
    hints: {title: 'Approve pending cards', readOnlyHint: false, destructiveHint: false, idempotentHint: true},
    description: 'Approve pending cards by id, or all of them (same as "cairn review approve --json").',
    input: {
      ids: z.array(z.string().min(1)).optional().describe('Ids of the pending cards.'),
      all: z.boolean().optional().describe('Approve every pending card that review shows.'),
      store: store.optional(),
      no_commit: noCommit,
    },
    async run(ctx, a: {ids?: string[]; all?: boolean; store?: 'project' | 'personal' | 'all'; no_commit?: boolean}) {
      if (a.all && a.ids?.length)
        throw new CairnError('usage', 'Both ids and all were given. Fix: give ids or all, not both')
      return {data: await approve(ctx, {ids: a.ids ?? [], all: a.all, store: a.store, noCommit: a.no_commit})}
    },
  },
  reject: {
    hints: {title: 'Reject a pending card', readOnlyHint: false, destructiveHint: true, idempotentHint: true},
    description: 'Reject a pending card, with the reason (same as "cairn review reject --json").',
    input: {
      id: z.string().min(1),
      reason: z.string().min(1).describe('Why; recorded in the commit message.'),
      no_commit: noCommit,
    },
    run: async (ctx, a) => ({data: await reject(ctx, {id: a.id, reason: a.reason, noCommit: a.no_commit})}),
  },
  defer: {
    hints: {title: 'Defer a pending card', readOnlyHint: false, destructiveHint: false, idempotentHint: true},
    description: 'Hide a pending card from review until a date (same as "cairn review defer --json").',
    input: {
      id: z.string().min(1),
      until: z.string().min(1).describe('Date (YYYY-MM-DD) or ISO timestamp.'),
      no_commit: noCommit,
    },
    run: async (ctx, a) => ({data: await defer(ctx, {id: a.id, until: a.until, noCommit: a.no_commit})}),
  },
  enrich_apply: {
    hints: {title: 'Add recall phrases', readOnlyHint: false, destructiveHint: true, idempotentHint: true},
    description:
      'Add recall phrases to cards, in one commit (same as "cairn enrich --apply - --json"). Each entry: id, and any of ' +
      'triggers, aliases {en, zh}, use_when, ignore_when; a bad entry is named by its place, id and field, and nothing ' +
      'is written.',
    input: {
      entries: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .describe('The entries, as "cairn enrich --apply" reads them from a JSON file.'),
      replace: z.boolean().optional().describe('Replace each field an entry gives instead of adding to it.'),
      no_commit: noCommit,
    },
    stdin: a => JSON.stringify(a.entries),
    run: async (ctx, a) => ({data: await enrichApply(ctx, {file: '-', replace: a.replace, noCommit: a.no_commit})}),
  },
  board_commit: {
    hints: {title: 'Commit a board batch', readOnlyHint: false, destructiveHint: false, idempotentHint: true},
    description:
      'Commit a board batch, all of it or nothing (same as "cairn board commit - --json"); a rejected batch names ' +
      'each error by its JSON path.',
    input: {
      batch: z
        .record(z.string(), z.unknown())
        .describe('The batch: {batch_id, declarations: [...]}, as "cairn board commit" reads it.'),
      actor: z
        .string()
        .min(1)
        .optional()
        .describe("Name of the agent committing the batch; default CAIRN_ACTOR, else git's user.name, else $USER."),
      now,
      store: boardStore,
    },
    stdin: a => JSON.stringify(a.batch),
    run: async (ctx, a) => ({
      data: (await boardCommit(ctx, {file: '-', actor: a.actor, now: a.now, store: a.store})).receipt,
    }),
  },
  board_annotate: {
    hints: {title: 'Annotate a board item', readOnlyHint: false, destructiveHint: false, idempotentHint: true},
    description: 'Save the user\'s note on a board item (same as "cairn board annotate --json").',
    input: {
      id: z.string().min(1).describe('Item id.'),
      text: z.string().min(1),
      batch_id: z.string().min(1),
      actor: z
        .string()
        .min(1)
        .optional()
        .describe("Who writes the note; default CAIRN_ACTOR, else git's user.name, else $USER."),
      now,
      store: boardStore,
    },
    async run(ctx, a) {
      const input = {item: a.id, text: a.text, batch_id: a.batch_id, actor: a.actor, now: a.now, store: a.store}
      const r = await boardAnnotate(ctx, input)
      return {data: r.receipt}
    },
  },
}
