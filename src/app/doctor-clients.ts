import path from 'node:path'
import {CODEX} from '../domain/agents/codex.js'
import {GEMINI} from '../domain/agents/gemini.js'
import {cairnHandlers} from '../domain/agents/settings.js'
import {codexTrust, geminiTrusted} from '../domain/agents/trust.js'
import type {Context} from '../context.js'
import type {Stores} from '../store/stores.js'
import type {Check, DoctorText} from './doctor.js'

/**
 * Whether the clients cairn's hooks are installed in will run them: Codex runs a hook only once the user trusted it
 * (and a project's only in a trusted project), Gemini CLI only in a trusted folder. Installed hooks a client skips
 * say nothing, so doctor says it. Read from the clients' own files; nothing is written.
 */
export async function clientChecks(ctx: Context, stores: Stores, root: string, t: DoctorText): Promise<Check[]> {
  const files = await stores.agents()
  const home = files.userHome(ctx)
  // One reader for every file: a repository file is never followed through a link, none is read past 1 MB. A file
  // that cannot be read is one the client cannot read either.
  const read = (file: string, inRepository: boolean): {text: string | null; error?: string} => {
    try {
      return {text: files.readClientFile(file, inRepository)?.toString('utf8') ?? null}
    } catch (error) {
      return {text: null, error: (error as Error).message.split('\n')[0]}
    }
  }
  const text = (file: string, inRepository = false) => read(file, inRepository).text
  const checks: Check[] = []
  const codexHome = ctx.env.CODEX_HOME || path.join(home, '.codex')
  const config = read(path.join(codexHome, 'config.toml'), false)
  for (const [hooksFile, project] of [
    [path.join(root, CODEX.settingsFile), root],
    [path.join(codexHome, 'hooks.json'), null],
  ] as const) {
    const hooks = text(hooksFile, project !== null)
    const found = hooks === null ? null : safe(() => codexTrust(hooksFile, hooks, config.text, project))
    if (!found || found.keys.length === 0) continue
    const trust = config.error ? {...found, configError: t.codexUnreadable(config.error)} : found
    checks.push(codexCheck(trust, hooksFile, path.join(codexHome, 'config.toml'), t))
  }
  const gemini = text(path.join(root, GEMINI.settingsFile), true)
  if (gemini !== null && safe(() => cairnHandlers(gemini, GEMINI, GEMINI.settingsFile).length)) {
    const folders = ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(home, '.gemini', 'trustedFolders.json')
    const trusted = geminiTrusted(root, text(folders), text(path.join(home, '.gemini', 'settings.json')))
    checks.push(
      trusted
        ? {store: 'project', check: 'gemini-trust', status: 'ok', detail: t.geminiTrusted(root)}
        : {
            store: 'project',
            check: 'gemini-trust',
            status: 'warning',
            detail: t.geminiUntrusted(root, GEMINI.settingsFile),
            fix: t.geminiFix(JSON.stringify(root)),
          },
    )
  }
  return checks
}

function codexCheck(trust: ReturnType<typeof codexTrust>, hooksFile: string, config: string, t: DoctorText): Check {
  const base = {store: 'project' as const, check: 'codex-hooks'}
  const n = trust.keys.length
  if (trust.configError)
    return {
      ...base,
      status: 'warning',
      detail: t.codexConfigBad(config, trust.configError, hooksFile),
      fix: t.codexConfigFix(config),
    }
  if (trust.disabled.length > 0)
    return {
      ...base,
      status: 'warning',
      detail: t.codexDisabled(trust.disabled.length, n, hooksFile, config),
      fix: t.codexDisabledFix,
    }
  if (trust.projectTrusted === false)
    return {...base, status: 'warning', detail: t.codexProject(hooksFile, config), fix: t.codexProjectFix}
  if (trust.untrusted.length > 0)
    return {
      ...base,
      status: 'warning',
      detail: t.codexUntrusted(trust.untrusted.length, n, hooksFile, config),
      fix: t.codexUntrustedFix,
    }
  return {...base, status: 'ok', detail: t.codexOk(n, hooksFile)}
}

/** A client file cairn cannot read as the client would is not this check's to report: install and lint say so. */
function safe<T>(read: () => T): T | null {
  try {
    return read()
  } catch {
    return null
  }
}
