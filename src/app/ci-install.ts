import {unifiedDiff} from '../domain/agents/diff.js'
import {CairnError} from '../domain/errors.js'
import {DEFAULT_REGISTRY, keptPackage, type PackageSpec, parsePackageSpec} from '../domain/ci/package-spec.js'
import {planWorkflow, renderWorkflow, type WorkflowAction} from '../domain/ci/workflows.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'
import type {UseCaseOutput} from './use-case.js'
import type {Stores} from '../store/stores.js'

export interface CiInstallInput {
  dryRun?: boolean
  force?: boolean
  /** Where the templates are; default this package's templates/github/workflows. */
  templatesRoot?: string
  /**
   * What the workflows install (--package): a registry version, a tarball URL or a git URL. Default: the URL the
   * workflows pin already, else this cairn's `<name>@<version>`.
   */
  pkg?: string
}

export interface CiWorkflowFile {
  /** Relative to the repository: .github/workflows/cairn-review.yml. */
  file: string
  action: WorkflowAction
  /** With --dry-run: the unified diff of the change ('' when none). */
  diff?: string
}

/** Whether the registry has the version the workflows pin; not_checked for a URL, or with CAIRN_NPM_REGISTRY=off. */
export type RegistryAnswer = 'published' | 'missing' | 'unknown' | 'not_checked'

export interface CiInstallResult {
  root: string
  /** What the workflows install: cairn-memory@<version>, a tarball URL or a git URL. */
  package: string
  /** Where that came from: --package, the URL the workflows pinned already, or the cairn that runs. */
  packageFrom: 'flag' | 'workflows' | 'running'
  registry: RegistryAnswer
  dryRun: boolean
  /** Whether any file changed (or, with --dry-run, would). */
  changed: boolean
  files: CiWorkflowFile[]
}

const WORKFLOWS_DIR = '.github/workflows'
const writes = (action: WorkflowAction) =>
  action === 'created' || action === 'pinned' || action === 'edited' || action === 'replaced'

/**
 * Writes cairn's GitHub workflows into .github/workflows/, each pinned to one package: --package's, else the URL
 * they pin already, else the cairn that runs now. A file someone edited, or one of theirs with the same name, stays
 * unless forced. Each file is replaced atomically; nothing is committed. Warns when the pinned version is not on the
 * npm registry, where the workflows would fail to install it.
 */
export async function ciInstall(ctx: Context, input: CiInstallInput = {}): Promise<UseCaseOutput<CiInstallResult>> {
  const stores = openStores(ctx)
  const root = stores.requireProject().root
  const agents = await stores.agents()
  const running = agents.runningPackage()
  const flag = input.pkg === undefined ? null : flagPackage(input.pkg, running)
  const existing = agents.readWorkflowTemplates(input.templatesRoot ?? agents.workflowsRoot()).map(t => {
    const file = `${WORKFLOWS_DIR}/${t.name}`
    const path = `${root}/${file}`
    return {template: t, file, path, before: agents.readBytes(path)?.toString('utf8') ?? null}
  })
  const pins = existing.map(f => f.before)
  const kept = flag ? null : keptPackage(pins, running)
  const spec = flag ?? kept ?? runningSpec(running)
  const pkg = spec.text
  const {registry, warnings} = await packageWarnings(stores, spec)
  const planned = existing.map(({template: t, file, path, before}) => {
    const {action, text: after} = planWorkflow(before, renderWorkflow(t.text, pkg), !!input.force)
    if (action === 'kept') {
      warnings.push(
        `${file} differs from cairn's ${t.name} and was left as it is; run "cairn ci install --force" to replace it`,
      )
    } else if (action === 'edited') {
      warnings.push(
        `${file} differs from cairn's ${t.name}: only its pin was updated, to ${pkg}; run "cairn ci install --force" to replace it`,
      )
    }
    return {file, path, action, before, after}
  })
  if (!input.dryRun) {
    agents.removeStaleTemps(
      planned.map(f => f.path),
      ctx.now().getTime(),
    )
    for (const f of planned) if (writes(f.action)) agents.writeBytes(f.path, f.after)
  }
  const files = planned.map(({file, action, before, after}) =>
    input.dryRun ? {file, action, diff: writes(action) ? unifiedDiff(file, before, after, true) : ''} : {file, action},
  )
  const packageFrom = flag ? 'flag' : kept ? 'workflows' : 'running'
  const changed = planned.some(f => writes(f.action))
  const data = {root, package: pkg, packageFrom, registry, dryRun: !!input.dryRun, changed, files} as const
  return {data, warnings}
}

function flagPackage(value: string, running: {name: string; version: string}): PackageSpec {
  const parsed = parsePackageSpec(value, running)
  if (!parsed.ok) throw new CairnError('usage', `${parsed.problem}. Fix: ${parsed.fix}.`, {field: '--package'})
  return parsed.spec
}

function runningSpec(running: {name: string; version: string}): PackageSpec {
  return {kind: 'registry', text: `${running.name}@${running.version}`, ...running}
}

/**
 * What the pin is worth warning about: a registry version the registry does not have (the workflows would fail at
 * their install step), or cannot be asked about; a git ref that can move.
 */
async function packageWarnings(
  stores: Stores,
  spec: PackageSpec,
): Promise<{registry: RegistryAnswer; warnings: string[]}> {
  const instead =
    '"cairn ci install --package <spec>" with the https:// URL of its tarball, which npm pack makes, or a git URL ' +
    'such as github:owner/repo#<commit sha>'
  if (spec.kind === 'git' && !spec.commit) {
    const base = spec.text.slice(0, spec.text.indexOf('#'))
    return {
      registry: 'not_checked',
      warnings: [
        `${spec.text} names a tag or a branch, which can move, so two runs may install different code. ` +
          `Pin a commit to be sure: --package ${base}#<commit sha>.`,
      ],
    }
  }
  if (spec.kind !== 'registry') return {registry: 'not_checked', warnings: []}
  const npm = await stores.npmRegistry()
  if (npm.url === null) return {registry: 'not_checked', warnings: []}
  const answer = await npm.published(spec.name, spec.version)
  const where = npm.url === DEFAULT_REGISTRY ? 'the npm registry' : `the registry at ${npm.url}`
  if (answer === 'missing')
    return {
      registry: answer,
      warnings: [
        `${spec.text} is not on ${where}, so the workflows will fail to install it. ` +
          `Publish it, or pin a build the runner can fetch: ${instead}.`,
      ],
    }
  if (answer === 'unknown')
    return {
      registry: answer,
      warnings: [
        `Could not check whether ${spec.text} is on ${where}: no clear answer came back. If it is not published, the ` +
          `workflows will fail to install it; then publish it, or run ${instead}.`,
      ],
    }
  return {registry: answer, warnings: []}
}
