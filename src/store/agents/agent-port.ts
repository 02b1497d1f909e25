import type {Context} from '../../context.js'
import type {Lock} from '../locks/lock.js'
import {
  cliEntry,
  crashPoint,
  type InstallRecord,
  linkOnPath,
  lockTarget,
  missingDirs,
  packageSkillsRoot,
  readBytes,
  readClientFile,
  readRecord,
  readSkillTemplates,
  type RecordPlace,
  recordPaths,
  removeEmptyDirs,
  removeFile,
  removeRecord,
  type SkillFile,
  skillTemplateLangs,
  userHome,
  writeBytes,
  writeRecord,
} from './agent-files.js'
import {checkHookCommand, type HookCheck} from './hook-check.js'
import {packageWorkflowsRoot, readWorkflowTemplates, removeStaleTemps, runningPackage} from './workflow-files.js'

/**
 * The agent clients' own files (settings, skills) and install's records of them, and cairn's GitHub workflow
 * files: none is a store file, so nothing here commits, and each file is replaced atomically. As Stores.agents
 * hands them out; the same for every context, so what depends on one takes it.
 */
export interface AgentFiles {
  /** $HOME, where the clients keep their user-scope files. */
  userHome(ctx: Context): string
  /** This installation's node and entry script, for a user-scope hook command. */
  cliEntry(): {node: string; script: string}
  /**
   * Install's lock on one target, so two installs or uninstalls there do not lose each other's record: the store's
   * lock at project scope (null outside a git repository), $CAIRN_HOME's at user scope.
   */
  lockTarget(ctx: Context, scope: 'project' | 'user'): Promise<Lock | null>
  /** Test-only: CAIRN_TEST_CRASH=<step> kills the process there, so the tests can prove recovery. */
  crashPoint(ctx: Context, step: string): void
  /** The file's bytes, or null when it does not exist. */
  readBytes(file: string): Buffer | null
  /** A client's file for a check that only reads it: at most 1 MB, a regular file, no link followed in the repository. */
  readClientFile(file: string, inRepository: boolean): Buffer | null
  /** Replaces the file atomically; a symlinked file is written through the link, and keeps its permissions. */
  writeBytes(file: string, content: string | Buffer): void
  /** Removes the file; nothing when it is not there. */
  removeFile(file: string): void
  /** The first symbolic link on a root-relative path (POSIX), or null when there is none. */
  linkOnPath(root: string, rel: string): string | null
  /** The folders writing the file would create, outermost first, relative to root (POSIX). */
  missingDirs(root: string, file: string): string[]
  /** Removes those of the root-relative folders that are empty, innermost first; one with anything in it stays. */
  removeEmptyDirs(root: string, dirs: string[]): void
  /** templates/skills of this installation of cairn. */
  skillsRoot(): string
  /** The skill templates of one language under root (none when it has no such language). */
  readSkillTemplates(root: string, lang: string): SkillFile[]
  /** The languages root has skill templates in. */
  skillTemplateLangs(root: string): string[]
  /** Where install's record for one client and target lives (machine-local, never committed), in reading order. */
  recordPaths(ctx: Context, client: string, scope: 'project' | 'user', root: string): RecordPlace[]
  /** The record and the file it was read from; null when there is none or it cannot be read. */
  readRecord(places: RecordPlace[], root: string): {record: InstallRecord; file: string} | null
  /** Writes the record, where one already is, else at the first place. */
  writeRecord(places: RecordPlace[], record: InstallRecord): void
  /** Removes the record from every place. */
  removeRecord(places: RecordPlace[]): void
  /** Runs a hook command as the clients do, in an empty directory with no store, and says whether it exits 0. */
  checkHookCommand(
    command: string,
    payload: (cwd: string) => Record<string, unknown>,
    env: Record<string, string | undefined>,
  ): HookCheck
  /** templates/github/workflows of this installation of cairn. */
  workflowsRoot(): string
  /** Each `*.yml` template under root, in name order. */
  readWorkflowTemplates(root: string): {name: string; text: string}[]
  /** Name and version from this installation's package.json: what a workflow installs to run this cairn. */
  runningPackage(): {name: string; version: string}
  /** Removes the temp files killed runs left beside these files, once a minute old (`now` in ms). */
  removeStaleTemps(files: readonly string[], now: number): void
}

export const agentFiles: AgentFiles = {
  userHome,
  cliEntry,
  lockTarget,
  crashPoint,
  readBytes,
  readClientFile,
  writeBytes,
  removeFile,
  linkOnPath,
  missingDirs,
  removeEmptyDirs,
  skillsRoot: packageSkillsRoot,
  readSkillTemplates,
  skillTemplateLangs,
  recordPaths,
  readRecord,
  writeRecord,
  removeRecord,
  checkHookCommand,
  workflowsRoot: packageWorkflowsRoot,
  readWorkflowTemplates,
  runningPackage,
  removeStaleTemps,
}
