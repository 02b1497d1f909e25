import type {Item, Weight} from './types.js'

/**
 * The documented scale (config `board`): each weight derives a share of its layer's budget.
 * Defaults: budget 100; weights 1..5 → 3, 6, 12, 20, 30. Roughly each step doubles the
 * attention, so three weight-5 items fill most of a layer and leave room for context.
 */
export interface BoardSettings {
  budget: number
  weight_shares: Record<Weight, number>
  /** Brief folds items whose weight is below this (default 3: weights 1 and 2). */
  fold_below: number
}

export const DEFAULT_BOARD_SETTINGS: BoardSettings = {
  budget: 100,
  weight_shares: {1: 3, 2: 6, 3: 12, 4: 20, 5: 30},
  fold_below: 3,
}

export const derivedShare = (s: BoardSettings, weight: Weight): number => s.weight_shares[weight]

/** The final share: the explicit override when there is one, else derived from the weight. */
export const effectiveShare = (s: BoardSettings, item: Pick<Item, 'share' | 'weight'>): number =>
  item.share ?? derivedShare(s, item.weight)

/** Budget of the layer under `parent` (null: the root layer). */
export function layerBudget(
  s: BoardSettings,
  items: {get(id: string): Item | undefined},
  parent: string | null,
): number {
  if (parent === null) return s.budget
  return items.get(parent)?.budget ?? s.budget
}

/** Shares are decimals; sums are rounded so 0.1 + 0.2 does not go over a budget of 0.3. */
export const roundShare = (x: number): number => Math.round(x * 1e6) / 1e6
