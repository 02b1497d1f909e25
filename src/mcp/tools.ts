import {z} from 'zod'
import {boardHistory} from '../app/board/history.js'
import {boardState} from '../app/board/read.js'
import {enrichList} from '../app/enrich.js'
import type {Context} from '../context.js'
import {list, unreadableWarnings} from '../app/list.js'
import {recall, recallData} from '../app/recall.js'
import {review} from '../app/review.js'
import {search} from '../app/search.js'
import {show} from '../app/show.js'
import type {UseCaseOutput} from '../app/use-case.js'
import {SECTIONS} from '../domain/card/sections.js'
import {CARD_TYPES, LEGACY_PENDING, LOADS, STATUSES} from '../domain/card/types.js'
import {SEARCH_STATES} from '../domain/search.js'

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
  search: {
    hints: {title: 'Search card text', readOnlyHint: true},
    description:
      'Every line of every card (all stores and states; board records with board) that matches a pattern, with the ' +
      'card id, store, state, type, file, field, line and matched text (same as "cairn search --json"). The pattern ' +
      "is ripgrep's regular expression syntax, the Rust regex dialect; fixed_strings searches for the text as it is.",
    input: {
      pattern: z.string().min(1).describe('The regular expression, or with fixed_strings the text, to look for.'),
      fixed_strings: z.boolean().optional().describe('Search for the pattern as it is, not as a regular expression.'),
      ignore_case: z.boolean().optional().describe('Match letters in either case.'),
      states: z.array(z.enum(SEARCH_STATES)).optional().describe('Only cards in these states (default: every state).'),
      types: z.array(z.enum(CARD_TYPES)).optional().describe('Only cards of these types.'),
      board: z.boolean().optional().describe('Search the board records too.'),
      store: store.default('all'),
    },
    run: async (ctx, a) => ({
      data: await search(ctx, {
        pattern: a.pattern,
        fixedStrings: a.fixed_strings,
        ignoreCase: a.ignore_case,
        states: a.states,
        types: a.types,
        board: a.board,
        store: a.store,
      }),
    }),
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
