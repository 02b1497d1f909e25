import {unifiedDiff} from '../domain/agents/diff.js'
import {planWorkflow, renderWorkflow, type WorkflowAction} from '../domain/ci/workflows.js'
import type {Context} from '../context.js'
import {openStores} from './stores.js'
import type {UseCaseOutput} from './use-case.js'

export interface CiInstallInput {
  dryRun?: boolean
  force?: boolean
  /** Where the templates are; default this package's templates/github/workflows. */
  templatesRoot?: string
  /** The package spec workflows install; default this cairn's `<name>@<version>`. */
  pkg?: string
}

export interface CiWorkflowFile {
  /** Relative to the repository: .github/workflows/cairn-review.yml. */
  file: string
  action: WorkflowAction
  /** With --dry-run: the unified diff of the change ('' when none). */
  diff?: string
}

export interface CiInstallResult {
  root: string
  /** What the workflows install: cairn-memory@<version>. */
  package: string
  dryRun: boolean
  /** Whether any file changed (or, with --dry-run, would). */
  changed: boolean
  files: CiWorkflowFile[]
}

const WORKFLOWS_DIR = '.github/workflows'
const writes = (action: WorkflowAction) =>
  action === 'created' || action === 'pinned' || action === 'edited' || action === 'replaced'

/**
 * Writes cairn's GitHub workflows into .github/workflows/, each pinned to the package that runs
 * now. A file someone edited, or one of theirs with the same name, stays unless forced. Each file
 * is replaced atomically; nothing is committed.
 */
export async function ciInstall(ctx: Context, input: CiInstallInput = {}): Promise<UseCaseOutput<CiInstallResult>> {
  const stores = openStores(ctx)
  const root = stores.requireProject().root
  const agents = await stores.agents()
  const running = agents.runningPackage()
  const pkg = input.pkg ?? `${running.name}@${running.version}`
  const warnings: string[] = []
  const planned = agents.readWorkflowTemplates(input.templatesRoot ?? agents.workflowsRoot()).map(t => {
    const file = `${WORKFLOWS_DIR}/${t.name}`
    const path = `${root}/${file}`
    const before = agents.readBytes(path)?.toString('utf8') ?? null
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
  const data = {root, package: pkg, dryRun: !!input.dryRun, changed: planned.some(f => writes(f.action)), files}
  return {data, warnings}
}
