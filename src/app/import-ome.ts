import type {Context} from '../context.js'
import {importRules, type ImportResult} from './import.js'

export interface ImportOmeInput {
  /** An OME JSON file (one card, an array, or {experiences: [...]}), an OME Markdown card, or a directory of them. */
  path: string
  /** Active cards under cards/, skipping review: how `cairn eval recall` and tests build a store. */
  activate?: boolean
  noCommit?: boolean
}

/** Imports OME cards through the shared import pipeline (kind "ome"). */
export function importOme(ctx: Context, input: ImportOmeInput): Promise<ImportResult> {
  return importRules(ctx, {kind: 'ome', ...input})
}
