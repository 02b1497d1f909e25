import {applyAnnotation} from '../../domain/board/apply.js'
import {boardError, rejection} from '../../domain/board/errors.js'
import {BATCH_ID, ITEM_ID} from '../../domain/board/request.js'
import type {AnnotateRequest, BoardError} from '../../domain/board/types.js'
import type {Context} from '../../context.js'
import {type BoardInput, openBoard} from './open.js'
import {boardActor, rejectedReceipt, writeBatch, type WriteResult} from './write.js'

export interface AnnotateInput extends BoardInput {
  item: string
  text: string
  batch_id: string
  /** Who writes the note; default the actor rule (CAIRN_ACTOR, git's user.name, $USER). */
  actor?: string
}

/** `board annotate`: a person's note on an item, saved until a batch acknowledges it. */
export async function boardAnnotate(ctx: Context, input: AnnotateInput): Promise<WriteResult> {
  const actor = boardActor(ctx, input.actor)
  const errors: BoardError[] = []
  if (!BATCH_ID.test(input.batch_id))
    errors.push(
      boardError(
        'batch_id',
        'invalid_value',
        'the batch id must be letters, digits, ".", "_" or "-", starting with a letter or digit, at most 128 characters',
      ),
    )
  if (!ITEM_ID.test(input.item)) errors.push(boardError('item', 'invalid_value', `"${input.item}" is not an item id`))
  if (!input.text.trim() || input.text.length > 4000)
    errors.push(
      boardError('text', 'invalid_value', 'the annotation text must be non-empty and at most 4000 characters'),
    )
  const board = await openBoard(ctx, input, {write: errors.length === 0})
  if (errors.length)
    throw rejection(
      rejectedReceipt(BATCH_ID.test(input.batch_id) ? input.batch_id : null, actor, board.now, board.state.revision),
      errors,
    )
  const request: AnnotateRequest = {
    kind: 'annotate',
    batch_id: input.batch_id,
    actor,
    item: input.item,
    text: input.text,
  }
  const id = `a-${board.ctx.newId()}`
  return writeBatch(board, request, state => applyAnnotation(state, request, board.now, id), id)
}
