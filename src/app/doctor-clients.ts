import path from 'node:path'
import {CODEX} from '../domain/agents/codex.js'
import {GEMINI} from '../domain/agents/gemini.js'
import {cairnHandlers} from '../domain/agents/settings.js'
import {codexTrust, geminiTrusted} from '../domain/agents/trust.js'
import type {Context} from '../context.js'
import type {Stores} from '../store/stores.js'
import type {Check} from './doctor.js'

/**
 * Whether the clients cairn's hooks are installed in will run them: Codex runs a hook only once the user trusted it
 * (and a project's only in a trusted project), Gemini CLI only in a trusted folder. Installed hooks a client skips
 * say nothing, so doctor says it. Read from the clients' own files; nothing is written.
 */
export async function clientChecks(ctx: Context, stores: Stores, root: string): Promise<Check[]> {
  const files = await stores.agents()
  const home = files.userHome(ctx)
  // A file that cannot be read (a folder in its place, no permission) is one the client cannot read either.
  const text = (file: string) => safe(() => files.readBytes(file)?.toString('utf8') ?? null)
  const checks: Check[] = []
  const codexHome = ctx.env.CODEX_HOME || path.join(home, '.codex')
  const config = text(path.join(codexHome, 'config.toml'))
  for (const [hooksFile, project] of [
    [path.join(root, CODEX.settingsFile), root],
    [path.join(codexHome, 'hooks.json'), null],
  ] as const) {
    const hooks = text(hooksFile)
    const trust = hooks === null ? null : safe(() => codexTrust(hooksFile, hooks, config, project))
    if (!trust || trust.keys.length === 0) continue
    checks.push(codexCheck(trust, hooksFile, path.join(codexHome, 'config.toml')))
  }
  const gemini = text(path.join(root, GEMINI.settingsFile))
  if (gemini !== null && safe(() => cairnHandlers(gemini, GEMINI, GEMINI.settingsFile).length)) {
    const trusted = geminiTrusted(root, text(path.join(home, '.gemini', 'trustedFolders.json')))
    checks.push(
      trusted
        ? {
            store: 'project',
            check: 'gemini-trust',
            status: 'ok',
            detail: `Gemini CLI trusts ${root}: its cairn hooks run`,
          }
        : {
            store: 'project',
            check: 'gemini-trust',
            status: 'warning',
            detail: `Gemini CLI does not trust ${root}, so it skips the cairn hooks in ${GEMINI.settingsFile}`,
            fix: `start gemini here and trust the folder, or add ${JSON.stringify(root)}: "TRUST_FOLDER" to ~/.gemini/trustedFolders.json`,
          },
    )
  }
  return checks
}

function codexCheck(trust: ReturnType<typeof codexTrust>, hooksFile: string, config: string): Check {
  const base = {store: 'project' as const, check: 'codex-hooks'}
  if (trust.projectTrusted === false)
    return {
      ...base,
      status: 'warning',
      detail: `Codex reads ${hooksFile} only in a trusted project, and ${config} does not trust this one`,
      fix: 'start codex here and trust the project, then open /hooks and trust the cairn hooks',
    }
  if (trust.untrusted.length > 0)
    return {
      ...base,
      status: 'warning',
      detail: `Codex skips ${trust.untrusted.length} of the ${trust.keys.length} cairn hooks in ${hooksFile}: it has no trusted hash for them in ${config}`,
      fix: 'start codex, open /hooks and trust the cairn hooks (again after each cairn update: Codex trusts a hook by its hash)',
    }
  return {
    ...base,
    status: 'ok',
    detail: `Codex has a trusted hash for each of the ${trust.keys.length} cairn hooks in ${hooksFile} (/hooks shows one changed since as modified)`,
  }
}

/** A client file cairn cannot read as the client would is not this check's to report: install and lint say so. */
function safe<T>(read: () => T): T | null {
  try {
    return read()
  } catch {
    return null
  }
}
