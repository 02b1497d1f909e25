import {z} from 'zod'
import {boardHistory} from '../app/board/history.js'
import {boardState} from '../app/board/read.js'
import {enrichList} from '../app/enrich.js'
import type {Context} from '../context.js'
import {list, unreadableWarnings} from '../app/list.js'
import {recall, recallData} from '../app/recall.js'
import {review} from '../app/review.js'
import {show} from '../app/show.js'
import type {UseCaseOutput} from '../app/use-case.js'
import {SECTIONS} from '../domain/card/sections.js'
import {CARD_TYPES, LEGACY_PENDING, LOADS, STATUSES} from '../domain/card/types.js'

/**
 * What a client may assume of a tool without calling it (MCP tool annotations): a client such as Codex asks the user
 * before a call unless the tool says it only reads. None reaches outside the repository (openWorldHint false).
 */
export interface ToolHints {
  title: string
  /** Reads only: changes no file and no commit. */
  readOnlyHint: boolean
  /** May remove or overwrite what is there (a reject deletes a card); false: adds or moves only. */
  destructiveHint?: boolean
  /** The same call again changes nothing more (an id already approved, a batch id already committed). */
  idempotentHint?: boolean
}

/** One MCP tool: its input schema and the app function it runs, returning what the CLI command returns. */
export interface ToolSpec {
  description: string
  hints: ToolHints
  input: z.ZodRawShape
  /** What the use case reads as its "-" file (the CLI's stdin), from the arguments. */
  stdin?: (args: any) => string
  run: (ctx: Context, args: any) => Promise<UseCaseOutput>
}

export const store = z.enum(['project', 'personal', 'all'])
export const boardStore = z.enum(['project', 'personal']).default('project')
export const now = z.string().optional().describe('Time to act at, RFC 3339 (default: the clock).')

/** The read-only tools: each mirrors the CLI command of the same name, so data matches its --json. */
export const readTools: Record<string, ToolSpec> = {
  recall: {
    hints: {title: 'Recall cards for a task', readOnlyHint: true},
    description: 'Find the active cards that apply to a task (same as "cairn recall --json").',
    input: {
      query: z.string().trim().min(1).describe('The task or question, in English or Chinese.'),
      paths: z.array(z.string()).optional().describe('Repo-relative paths the task touches.'),
      limit: z.number().int().min(1).optional().describe('At most this many cards.'),
    },
    async run(ctx, a: {query: string; paths?: string[]; limit?: number}) {
      const r = await recall(ctx, {prompt: a.query, paths: a.paths, limit: a.limit})
      return {data: recallData(a.query, r)}
    },
  },
  show: {
    hints: {title: 'Show a card', readOnlyHint: true},
    description: 'A card, or one section of it (same as "cairn show --json").',
    input: {
      id: z.string().min(1).describe('Card id.'),
      section: z.enum(SECTIONS).optional(),
      store: store.default('all'),
    },
    run: async (ctx, a) => ({data: await show(ctx, a)}),
  },
  list: {
    hints: {title: 'List cards', readOnlyHint: true},
    description:
      'List cards, optionally filtered (same as "cairn list --json"); a deferred pending card gives its deferred_until.',
    input: {
      status: z
        .enum([...STATUSES, 'archived', LEGACY_PENDING])
        .optional()
        .describe('Pending means waiting for review; the older name draft lists the same cards.'),
      type: z.enum(CARD_TYPES).optional(),
      load: z.enum(LOADS).optional(),
      category: z.string().optional(),
      store: store.default('all'),
    },
    async run(ctx, a) {
      const r = await list(ctx, a)
      return {data: r, warnings: unreadableWarnings(r)}
    },
  },
  review_list: {
    hints: {title: 'List pending cards', readOnlyHint: true},
    description: 'The pending cards awaiting review (same as "cairn review list --json").',
    input: {since: z.string().optional().describe('Only pending cards added since this git ref.')},
    run: async (ctx, a: {since?: string}) => ({data: await review(ctx, {format: 'text', since: a.since})}),
  },
  enrich_list: {
    hints: {title: 'List cards to enrich', readOnlyHint: true},
    description:
      'The cards whose recall fields are thin, each with a brief for writing the phrases prompts will say, and the ' +
      'rules for good phrases (same as "cairn enrich --json"). Give the phrases back with enrich_apply.',
    input: {
      ids: z.array(z.string().min(1)).optional().describe('Only these cards, thin or not.'),
      limit: z.number().int().min(1).optional().describe('At most this many briefs (default 20).'),
    },
    run: async (ctx, a: {ids?: string[]; limit?: number}) => ({data: await enrichList(ctx, a)}),
  },
  board_state: {
    hints: {title: 'Read the board', readOnlyHint: true},
    description: 'The board: layers, items with share, rank and durations (same as "cairn board state --json").',
    input: {now, store: boardStore},
    run: async (ctx, a) => ({data: await boardState(ctx, {now: a.now, store: a.store})}),
  },
  board_history: {
    hints: {title: 'Read board history', readOnlyHint: true},
    description:
      'Records of committed batches: all, one item\'s, or one batch id\'s (same as "cairn board history --json").',
    input: {id: z.string().optional().describe('Item id.'), batch: z.string().optional(), now, store: boardStore},
    run: async (ctx, a) => ({data: await boardHistory(ctx, a)}),
  },
}
