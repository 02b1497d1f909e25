import {applyBatch} from '../../domain/board/apply.js'
import {boardError, rejection} from '../../domain/board/errors.js'
import {parseJsonLocated} from '../../domain/board/json.js'
import {parseCommitRequest} from '../../domain/board/request.js'
import type {BoardError} from '../../domain/board/types.js'
import type {Context} from '../../context.js'
import {openStores} from '../stores.js'
import {type BoardInput, openBoard} from './open.js'
import {boardActor, rejectedReceipt, writeBatch, type WriteResult} from './write.js'

export interface CommitInput extends BoardInput {
  /** A JSON file, or "-" for stdin. */
  file: string
  /** Who commits the batch; default the actor rule (CAIRN_ACTOR, git's user.name, $USER). */
  actor?: string
}

/** `board commit`: validate a whole batch, apply all of it or nothing, and answer with a receipt. */
export async function boardCommit(ctx: Context, input: CommitInput): Promise<WriteResult> {
  const actor = boardActor(ctx, input.actor)
  const {text, label} = await (await openStores(ctx).input()).read(input.file)
  const json = parseJson(text, label)
  const parsed = json.ok
    ? parseCommitRequest(json.data, actor)
    : {ok: false as const, batch_id: null, errors: json.errors}
  if (!parsed.ok) {
    // Refused before touching the store; the receipt still reports the revision it left alone.
    const board = await openBoard(ctx, input, {write: false})
    throw rejection(rejectedReceipt(parsed.batch_id, actor, board.now, board.state.revision), parsed.errors)
  }
  const board = await openBoard(ctx, input, {write: true})
  return writeBatch(board, parsed.request, state => applyBatch(state, parsed.request, board.now, board.settings))
}

/** Strict JSON (the batch format); a syntax error is located by line and column. */
function parseJson(text: string, label: string): {ok: true; data: unknown} | {ok: false; errors: BoardError[]} {
  const r = parseJsonLocated(text)
  if (r.ok) return r
  return {
    ok: false,
    errors: [
      boardError(
        '(root)',
        'malformed_json',
        `${label} is not valid JSON: at line ${r.line}, column ${r.column}: ${r.message}`,
        {line: r.line, column: r.column},
      ),
    ],
  }
}
