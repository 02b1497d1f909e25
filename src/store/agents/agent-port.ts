import type {Context} from '../../context.js'
import {
  cliEntry,
  type InstallRecord,
  linkOnPath,
  readBytes,
  readRecord,
  type RecordPlace,
  recordPaths,
  userHome,
  writeBytes,
} from './agent-files.js'
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
  /** The file's bytes, or null when it does not exist. */
  readBytes(file: string): Buffer | null
  /** Replaces the file atomically; a symlinked file is written through the link, and keeps its permissions. */
  writeBytes(file: string, content: string | Buffer): void
  /** The first symbolic link on a root-relative path (POSIX), or null when there is none. */
  linkOnPath(root: string, rel: string): string | null
  /** Where install's record for one client and target lives (machine-local, never committed), in reading order. */
  recordPaths(ctx: Context, client: string, scope: 'project' | 'user', root: string): RecordPlace[]
  /** The record and the file it was read from; null when there is none or it cannot be read. */
  readRecord(places: RecordPlace[], root: string): {record: InstallRecord; file: string} | null
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
  readBytes,
  writeBytes,
  linkOnPath,
  recordPaths,
  readRecord,
  workflowsRoot: packageWorkflowsRoot,
  readWorkflowTemplates,
  runningPackage,
  removeStaleTemps,
}
