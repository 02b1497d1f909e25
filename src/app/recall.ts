import type {Context} from '../context.js'
import {cannotLoad} from '../recall/index.js'
import {openStores} from './stores.js'
import {type PromptRecallInput, type PromptRecallResult, promptRecall} from './prompt-recall.js'

/**
 * Explicit `cairn recall`: the prompt hook's own path (promptRecall), so the command, the hook and
 * `eval recall` give the same answer on the same store. It runs inline: a card file edited since
 * the index was built (size or ctime changed, committed or not) is parsed again before the answer,
 * and a missing or corrupt index is built first. The result carries the whole match, which
 * --explain renders: every card the index could not rule out, with its gates and scores. Each card
 * file that cannot be loaded is a warning naming the file, the field and the fix. Outside a git repository, or in
 * one with no store, it is refused with exit 3, as every command is.
 */
export async function recall(ctx: Context, input: PromptRecallInput): Promise<PromptRecallResult> {
  // Outside a repository, or before init, with no personal store either: exit 3 as every command does. The hooks
  // call promptRecall itself, and so still say nothing there.
  openStores(ctx).readable()
  const r = await promptRecall(ctx, {
    prompt: input.prompt,
    paths: splitPaths(input.paths),
    limit: input.limit,
    mode: 'inline',
  })
  // A card that cannot be loaded would otherwise just never come up: say which, and how to fix it.
  for (const s of r.skipped) ctx.warn(cannotLoad(s, r.language))
  return r
}

/** What `cairn recall --json` (and the MCP recall tool) carry as data: the query and the answer. */
export function recallData(query: string, r: PromptRecallResult) {
  return {query, text: r.text, cards: r.cards, total: r.total, considered: r.considered}
}

/** `--path a --path b,c`: each value may hold several paths, comma-separated, as `review modify --set paths=` takes them. */
export function splitPaths(values: readonly string[] | undefined): string[] | undefined {
  return values
    ?.flatMap(v => v.split(','))
    .map(p => p.trim())
    .filter(Boolean)
}
