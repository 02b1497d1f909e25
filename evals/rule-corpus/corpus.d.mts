import type {ImportResult, ImportInput} from '../../src/app/import.js'
import type {Context} from '../../src/context.js'

export interface Project {
  lang: 'en' | 'zh'
  dir: string
  repo: string
  commit: string
  licence: string
  kinds: string[]
  files: Record<string, string>
}
export interface Cases {
  positives: {id: string; dir: string; file: string; heading: string | null; prompt: string; lang: string; corpus: string}[]
  negatives: {id: string; dir: string; prompt: string; lang: string; corpus: string}[]
  paths: {id: string; dir: string; file: string; heading: string | null; match: string; nomatch: string}[]
}
export const CORPUS: string
export function loadProjects(): Project[]
export function loadCases(): Cases
export function ofKind(kind: string, file: string): boolean
export function importProject(
  importRules: (ctx: Context, input: ImportInput) => Promise<ImportResult>,
  ctx: Context,
  project: Project,
): Promise<ImportResult[]>
