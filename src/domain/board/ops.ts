import type {Draft} from './draft.js'
import type {Declaration, Item, PatchFields} from './types.js'

/** One declaration at a time, in batch order; structural checks that need the whole batch wait for checks.ts. */
export function applyDeclaration(draft: Draft, d: Declaration, at: string, now: string): void {
  switch (d.op) {
    case 'new':
      return applyNew(draft, d, at, now)
    case 'supersedes':
    case 'children':
      return applySupersedes(draft, d, at)
    case 'merges':
      return applyMerges(draft, d, at, now)
    case 'withdraw':
      return applyWithdraw(draft, d, at)
  }
}

type Patchable = Extract<Declaration, {op: 'new' | 'supersedes' | 'children'}>

function applyNew(draft: Draft, d: Extract<Declaration, {op: 'new'}>, at: string, now: string): void {
  const existing = draft.get(d.id)
  if (existing) {
    const hint =
      existing.status === 'withdrawn'
        ? '; a withdrawn item is restored with a supersedes on its original id'
        : existing.status === 'merged'
          ? `; it was merged into "${existing.merged_into}"`
          : '; use supersedes to change it'
    return draft.fail(`${at}.id`, 'id_exists', `item "${d.id}" already exists (${existing.status})${hint}`, {
      id: d.id,
      status: existing.status,
    })
  }
  const item: Item = {
    id: d.id,
    parent: null,
    kind: d.kind,
    summary: d.summary,
    weight: d.weight,
    share: null,
    reason: null,
    due_at: null,
    stale_at: null,
    sources: [],
    budget: null,
    status: 'active',
    merged_into: null,
    merged_from: [],
    created_at: now,
    updated_at: now,
    revision: 0,
  }
  draft.setParentAt(d.id, `${at}.id`)
  patch(draft, item, d, at)
}

function applySupersedes(draft: Draft, d: Patchable, at: string): void {
  const item = draft.get(d.id)
  if (!item)
    return draft.fail(`${at}.id`, 'not_found', `item "${d.id}" does not exist; declare it with op "new"`, {id: d.id})
  if (item.status === 'merged') {
    return draft.fail(
      `${at}.id`,
      'merged',
      `item "${d.id}" was merged into "${item.merged_into}"; later updates go to the successor`,
      {id: d.id, merged_into: item.merged_into},
    )
  }
  const next = {...item}
  if (item.status === 'withdrawn') {
    // Restore: only this item comes back; its withdrawn children stay out unless declared too.
    next.status = 'active'
    draft.setRestoredAt(d.id, `${at}.id`)
  }
  patch(draft, next, d, at)
}

/** Applies the patch fields of new / supersedes / children: omitted keeps, null clears. */
function patch(draft: Draft, item: Item, d: Patchable, at: string): void {
  item.kind = d.kind
  item.weight = d.weight
  const p: PatchFields = d
  if (p.summary !== undefined) item.summary = p.summary
  if (p.share !== undefined) item.share = p.share
  if (p.reason !== undefined) item.reason = p.reason
  if (p.due_at !== undefined) item.due_at = p.due_at
  if (p.stale_at !== undefined) item.stale_at = p.stale_at
  if (p.sources !== undefined) item.sources = [...new Set(p.sources)]
  if (p.budget !== undefined) item.budget = p.budget
  if (p.share !== undefined && p.share !== null && !p.reason?.trim()) {
    draft.fail(
      `${at}.reason`,
      'reason_required',
      `an explicit share (${p.share}) needs a "reason" in the same declaration saying why the derived share does not fit`,
      {share: p.share},
    )
  }
  if (p.parent !== undefined && p.parent !== item.parent) {
    if (p.parent !== null && !draft.get(p.parent))
      return draft.fail(
        `${at}.parent`,
        'not_found',
        `parent "${p.parent}" does not exist; declare it earlier in the batch`,
        {parent: p.parent},
      )
    item.parent = p.parent
    draft.setParentAt(item.id, `${at}.parent`)
  }
  draft.put(item, at)
  if (p.children !== undefined) setChildren(draft, item.id, p.children, at)
}

/** `children` is the target set of direct active children; removals are checked at batch end. */
function setChildren(draft: Draft, parent: string, targets: string[], at: string): void {
  const decl = {path: `${at}.children`, parent, removed: [] as string[], targets: [] as {id: string; path: string}[]}
  const wanted = new Set<string>()
  targets.forEach((id, k) => {
    const path = `${at}.children[${k}]`
    const child = draft.get(id)
    if (wanted.has(id)) return draft.fail(path, 'duplicate', `"${id}" is listed twice`)
    wanted.add(id)
    if (!child)
      return draft.fail(
        path,
        'not_found',
        `child "${id}" does not exist; declare it with op "new" earlier in the batch`,
        {id},
      )
    if (child.status === 'merged')
      return draft.fail(path, 'merged', `child "${id}" was merged into "${child.merged_into}"`, {
        id,
        merged_into: child.merged_into,
      })
    decl.targets.push({id, path})
    if (child.parent !== parent) {
      draft.setParentAt(id, path)
      draft.put({...child, parent}, at)
    }
  })
  decl.removed = draft
    .activeChildren(parent)
    .filter(c => !wanted.has(c.id))
    .map(c => c.id)
  draft.addChildrenDecl(decl)
}

function applyMerges(draft: Draft, d: Extract<Declaration, {op: 'merges'}>, at: string, now: string): void {
  const errorsBefore = draft.errors.length
  if (draft.get(d.id))
    draft.fail(`${at}.id`, 'id_exists', `the merge result needs a new id; "${d.id}" already exists`, {id: d.id})
  const sources: Item[] = []
  d.from.forEach((id, k) => {
    const path = `${at}.from[${k}]`
    const item = draft.get(id)
    if (d.from.indexOf(id) !== k) return draft.fail(path, 'duplicate', `"${id}" is listed twice`)
    if (!item) return draft.fail(path, 'not_found', `item "${id}" does not exist`, {id})
    if (item.status !== 'active')
      return draft.fail(path, 'not_active', `only active items merge; "${id}" is ${item.status}`, {
        id,
        status: item.status,
      })
    if (draft.children(id).length) {
      return draft.fail(
        path,
        'not_leaf',
        `only leaves merge; "${id}" has a child layer (including withdrawn children: ${draft
          .children(id)
          .map(c => c.id)
          .join(', ')})`,
        {id},
      )
    }
    sources.push(item)
  })
  const layers = [...new Set(sources.map(s => s.parent))]
  if (layers.length > 1)
    draft.fail(
      `${at}.from`,
      'not_same_layer',
      `only items of one layer merge; these sit under ${layers.map(l => l ?? '(root)').join(' and ')}`,
      {layers},
    )
  const parent = layers[0] ?? null
  if (d.parent !== undefined && d.parent !== parent)
    draft.fail(`${at}.parent`, 'not_same_layer', `the merge result stays in its sources' layer (${parent ?? 'root'})`, {
      parent,
    })
  if (d.share != null && !d.reason?.trim())
    draft.fail(`${at}.reason`, 'reason_required', `an explicit share (${d.share}) needs a "reason"`, {share: d.share})
  if (draft.errors.length > errorsBefore) return
  const result: Item = {
    id: d.id,
    parent,
    kind: d.kind,
    summary: d.summary,
    weight: d.weight,
    share: d.share ?? null,
    reason: d.reason ?? null,
    due_at: d.due_at ?? null,
    stale_at: d.stale_at ?? null,
    sources: [...new Set([...sources.flatMap(s => s.sources), ...(d.sources ?? [])])],
    budget: null,
    status: 'active',
    merged_into: null,
    merged_from: [...d.from],
    created_at: now,
    updated_at: now,
    revision: 0,
  }
  draft.put(result, at)
  for (const s of sources) draft.put({...s, status: 'merged', merged_into: d.id}, at)
}

function applyWithdraw(draft: Draft, d: Extract<Declaration, {op: 'withdraw'}>, at: string): void {
  const item = draft.get(d.id)
  if (!item) return draft.fail(`${at}.id`, 'not_found', `item "${d.id}" does not exist`, {id: d.id})
  if (item.status === 'merged')
    return draft.fail(
      `${at}.id`,
      'merged',
      `item "${d.id}" was merged into "${item.merged_into}"; withdraw the successor instead`,
      {id: d.id, merged_into: item.merged_into},
    )
  draft.markWithdrawn(d.id)
  if (d.reason !== undefined) draft.put({...item, reason: d.reason}, at)
  if (item.status !== 'active') return
  for (const member of draft.activeSubtree(d.id)) draft.put({...draft.get(member.id)!, status: 'withdrawn'}, at)
}
