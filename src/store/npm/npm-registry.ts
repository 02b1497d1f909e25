import {DEFAULT_REGISTRY} from '../../domain/ci/package-spec.js'
import type {Context} from '../../context.js'

/**
 * What cairn asks the npm registry: whether a version is published, so `ci install` can warn before the workflows
 * fail to install it. It asks https://registry.npmjs.org, where a runner's npm installs from (the workflows run npm
 * outside the checkout, so no .npmrc of the project's points it elsewhere); CAIRN_NPM_REGISTRY names another
 * registry, or `off` asks none. Every question answers: no answer in time, or one that is not the registry's, is
 * 'unknown', never an error.
 */
export interface NpmRegistry {
  /** The registry asked, or null when CAIRN_NPM_REGISTRY is off. */
  readonly url: string | null
  published(name: string, version: string): Promise<'published' | 'missing' | 'unknown'>
}

const TIMEOUT_MS = 4000
// A package's abbreviated document lists every version it has; cairn's is a few kilobytes.
const MAX_BYTES = 8 * 1024 * 1024

export function openNpmRegistry(ctx: Context, timeoutMs = TIMEOUT_MS): NpmRegistry {
  const setting = ctx.env.CAIRN_NPM_REGISTRY?.trim()
  const url = setting === 'off' ? null : (setting || DEFAULT_REGISTRY).replace(/\/+$/, '')
  return {
    url,
    async published(name, version) {
      if (url === null) return 'unknown'
      // A scoped name keeps its @ and escapes its slash, as npm asks for it.
      const doc = await getJson(`${url}/${name.replace('/', '%2f')}`, timeoutMs)
      if (doc === 'missing' || doc === 'unknown') return doc
      const versions = (doc as {versions?: unknown} | null)?.versions
      if (!versions || typeof versions !== 'object') return 'unknown'
      return Object.hasOwn(versions, version) ? 'published' : 'missing'
    },
  }
}

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      // The abbreviated document: the versions without their readmes.
      headers: {accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8'},
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (response.status === 404) {
      await response.body?.cancel()
      return 'missing'
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel()
      return 'unknown'
    }
    const text = await readCapped(response.body)
    return text === null ? 'unknown' : JSON.parse(text)
  } catch {
    return 'unknown'
  }
}

async function readCapped(body: ReadableStream<Uint8Array>): Promise<string | null> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
