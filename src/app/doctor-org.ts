import type {OrgPin} from '../domain/org.js'
import type {Stores} from '../store/stores.js'
import type {Check, DoctorText} from './doctor.js'

/**
 * The org layers in `cairn doctor` (DESIGN: The org layer). For each pin of config.yaml: the cache's copy of the
 * pinned commit (`org-cache`: missing is a warning, since the next cairn command fetches it; a copy that does not
 * match its commit is an error, since every reader trusts it), the remote (`org-remote`: no answer is a warning,
 * the cache is still used), and the pin upstream (`org-pin`: an error when no branch or tag holds it any more, since
 * a machine without this cache cannot read the layer). Doctor never fetches a missing cache: it reports it.
 */

const short = (commit: string) => commit.slice(0, 12)

/** The pins, or none when config.yaml cannot be read (its own check reports that). */
async function pinsOf(stores: Stores): Promise<OrgPin[]> {
  try {
    return await stores.orgPins()
  } catch {
    return []
  }
}

export async function orgChecks(stores: Stores, t: DoctorText): Promise<Check[]> {
  const pins = await pinsOf(stores)
  if (pins.length === 0) return []
  const health = await stores.orgHealth()
  const checks: Check[] = []
  for (const pin of pins) {
    const facts = await health.inspectPin(stores.ctx, pin)
    const store = `org:${pin.name}` as const
    const add = (check: string, status: Check['status'], detail: string, fix?: string) =>
      checks.push({store, check, status, detail, fix})
    const commit = short(pin.commit)
    if (facts.tree === 'missing') add('org-cache', 'warning', t.orgCacheMissing(pin.url, commit), t.orgCacheMissingFix)
    else if (health.drifted(facts.tree)) {
      const {changed, added, removed} = facts.tree
      const first = [...changed, ...added, ...removed][0]
      add(
        'org-cache',
        'error',
        t.orgCacheDrift(commit, changed.length, added.length, removed.length, first),
        t.orgCacheDriftFix,
      )
    } else add('org-cache', 'ok', t.orgCacheOk(pin.url, commit))
    if (facts.remote.reachable) add('org-remote', 'ok', t.orgRemoteOk(pin.url))
    else add('org-remote', 'warning', t.orgRemoteDown(pin.url, facts.remote.reason), t.orgRemoteFix(pin.url))
    if (facts.upstream === true) add('org-pin', 'ok', t.orgPinOk(commit))
    else if (facts.upstream === false) add('org-pin', 'error', t.orgPinGone(pin.url, commit), t.orgPinFix(pin.name))
  }
  return checks
}

/** doctor --fix: makes again each cached copy that no longer matches its commit. A missing copy is left to fetch. */
export async function repairOrg(stores: Stores, t: DoctorText): Promise<string[]> {
  const pins = await pinsOf(stores)
  if (pins.length === 0) return []
  const health = await stores.orgHealth()
  const done: string[] = []
  for (const pin of pins) {
    const drift = await health.cachedTreeDrift(stores.ctx, pin)
    if (!drift || !health.drifted(drift)) continue
    await health.remakeTree(stores.ctx, pin)
    done.push(t.remadeTree(pin.name, short(pin.commit)))
  }
  return done
}
