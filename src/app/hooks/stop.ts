import type {Context} from '../../context.js'
import type {LocalFiles} from '../../store/agents/local-files.js'
import type {LedgerEvent} from '../../store/agents/local.js'
import type {StoreLanguage} from '../../domain/messages/language.js'
import {dueSignals, ENRICH_RAISED, stopReason} from './signals.js'
import {renderDigest} from './digest.js'
import {type HookAnswer, type HookInput, NOTHING} from './types.js'
import {openHookView} from './view.js'

/**
 * stop: writes the session digest, then raises the archive, review, maintain and enrich signals that are
 * due, in one reason that names each signal's skill. It blocks at most once per session and never
 * while the client reports that a stop hook is already keeping the agent going.
 */
export async function stop(ctx: Context, input: HookInput): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  const bareCards = view.index?.bareCards() ?? 0
  view.index?.close()
  const {door, primary} = view
  const local = await door.local(primary)
  const events = local.readEvents()
  writeSessionDigest(ctx, local, input, events, view.settings.language)
  const due = input.stopHookActive
    ? []
    : dueSignals({
        session: input.session,
        events,
        settings: view.settings,
        now: ctx.now(),
        pending: await door.pendingFacts(primary),
        pendingFix: local.hasPendingFix(),
        bareCards,
      })
  // Decided under the session lock: two stop hooks at once block at most once between them.
  const block = local.updateSession(input.session, state => {
    state.digest = true
    if (due.length === 0 || state.blocked) return false
    state.blocked = true
    return true
  })
  if (block && due.some(d => d.signal === 'enrich'))
    local.recordUsage({event: ENRICH_RAISED, session: input.session, agent: input.agent, count: bareCards}, ctx.now())
  return block ? {context: [], block: stopReason(due, view.settings.language)} : NOTHING
}

/** session-end: the digest, when no stop event wrote one. */
export async function sessionEnd(ctx: Context, input: HookInput): Promise<HookAnswer> {
  const view = await openHookView(ctx, input)
  if (!view) return NOTHING
  view.index?.close()
  const local = await view.door.local(view.primary)
  const first = local.updateSession(input.session, state => {
    const had = state.digest
    state.digest = true
    return !had
  })
  if (first) writeSessionDigest(ctx, local, input, local.readEvents(), view.settings.language)
  return NOTHING
}

function writeSessionDigest(
  ctx: Context,
  local: LocalFiles,
  input: HookInput,
  events: readonly LedgerEvent[],
  language: StoreLanguage,
): void {
  const edited = new Set<string>()
  for (const e of events)
    if (e.event === 'edit' && e.session === input.session) for (const p of e.paths ?? []) edited.add(p)
  let transcript = {userMessages: [] as string[], lastAssistantMessage: null as string | null}
  try {
    transcript = input.readTranscript()
  } catch {
    // A missing or unreadable transcript leaves a digest of the edited paths.
  }
  const last = input.lastAssistantMessage ?? transcript.lastAssistantMessage
  local.writeDigest(
    input.session,
    renderDigest({
      session: input.session,
      agent: input.agent,
      at: ctx.now().toISOString(),
      userMessages: transcript.userMessages,
      editedPaths: [...edited],
      lastAssistantMessage: last,
      language,
    }),
  )
}
