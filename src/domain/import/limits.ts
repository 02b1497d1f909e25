/**
 * What one import may take, so a cloned repository cannot make it read without end: a folder walk visits at
 * most `entries` names, `depth` folders down; one file is read up to `fileBytes`, a whole import up to `batchBytes`.
 */
export interface SourceLimits {
  entries: number
  depth: number
  fileBytes: number
  batchBytes: number
}

export const SOURCE_LIMITS: SourceLimits = {entries: 20_000, depth: 32, fileBytes: 16 << 20, batchBytes: 64 << 20}
