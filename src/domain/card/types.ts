/** A card file larger than this is refused: cards are short lessons, not documents. */
export const MAX_CARD_BYTES = 256 * 1024

/** Ids become file names: only plain kebab-case, never a path. */
export const isSafeId = (id: string): boolean => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id) && id.length <= 80

export const CARD_TYPES = ['model', 'decision', 'guideline', 'pitfall', 'process'] as const
export type CardType = (typeof CARD_TYPES)[number]

/** pending: waiting for review (in pending/); active, deprecated, superseded: reviewed (in cards/). */
export const STATUSES = ['pending', 'active', 'deprecated', 'superseded'] as const
export type CardStatus = (typeof STATUSES)[number]

/**
 * The older name of pending, which cairn wrote before cairn/card@5: a card saying `status: draft` is read as pending,
 * so every path sees one value, and a rewrite of it writes pending.
 */
export const LEGACY_PENDING = 'draft'

/**
 * The statuses of a record kept but never recalled. A pending card may carry one (an imported ADR that was already
 * deprecated or superseded): approving files it as such, never as active.
 */
export const RETIRED = ['deprecated', 'superseded'] as const
export const isRetired = (status: string): boolean => (RETIRED as readonly string[]).includes(status)

export const LOADS = ['core', 'recall'] as const
export type Load = (typeof LOADS)[number]

export const LANGUAGES = ['en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

const PLURALS: Record<string, CardType> = {
  models: 'model',
  decisions: 'decision',
  guidelines: 'guideline',
  pitfalls: 'pitfall',
  processes: 'process',
}

/** Accepts singular or plural type names (fabric used the plural directory form). */
export function normalizeType(value: unknown): CardType | undefined {
  if (typeof value !== 'string') return undefined
  const v = value.trim().toLowerCase()
  if ((CARD_TYPES as readonly string[]).includes(v)) return v as CardType
  return PLURALS[v]
}

/** Through what a card was proposed: a command (an agent's shell or a person), an MCP tool call, or an import. */
export const VIAS = ['cli', 'mcp', 'import'] as const
export type Via = (typeof VIAS)[number]
