import type {Context} from '../context.js'
import type {Store} from '../store/layout.js'
import {openStores} from './stores.js'

/**
 * What every front end runs before its use case (cli/base.ts, agents/run.ts, mcp/server.ts): the org pins are read
 * again if config.yaml changed, and an org layer whose cache lacks its pinned commit is fetched by a CLI command, or
 * left out and logged once by a hook or MCP, which never touch the network. Light: it loads the org use cases only
 * when a cache is missing. Never throws; a layer that cannot be fetched is left out with a warning.
 */
export async function prepareOrgLayers(ctx: Context, options: {fetch: boolean}): Promise<void> {
  try {
    const stores = openStores(ctx)
    if (!stores.project) return
    const pins = await stores.orgPins()
    if (pins.length === 0) return
    const present = new Set(stores.layers().map((s: Store) => s.org && `${s.org.name} ${s.org.commit}`))
    const missing = pins.filter(p => !present.has(`${p.name} ${p.commit}`))
    if (missing.length === 0) return
    if (!options.fetch) return await stores.logMissingOrgLayers(missing)
    await (await import('./org.js')).fetchMissing(ctx, missing)
  } catch {
    // An invalid config.yaml is reported by the command that reads it; here it means no org layer.
  }
}
