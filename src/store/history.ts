import fs from 'node:fs'
import git from 'isomorphic-git'
import {gitDir} from './git.js'
import type {Store} from './layout.js'

export interface Trailers {
  op?: string
  cards: string[]
  renames: [from: string, to: string][]
  batch?: string
  actor?: string
  format?: string
}

export interface CairnCommit {
  sha: string
  subject: string
  body: string
  at: string
  author: string
  trailers: Trailers
}

/** Reads the Cairn-* trailers from the last paragraph of a commit message. */
export function parseTrailers(message: string): Trailers | undefined {
  const paragraphs = message.trim().split(/\n\s*\n/)
  const last = paragraphs[paragraphs.length - 1] ?? ''
  const t: Trailers = {cards: [], renames: []}
  let any = false
  for (const line of last.split('\n')) {
    const m = /^(Cairn-[A-Za-z]+):\s*(.*)$/.exec(line.trim())
    if (!m) continue
    any = true
    const value = m[2].trim()
    switch (m[1]) {
      case 'Cairn-Op': t.op = value; break
      case 'Cairn-Card': t.cards.push(value); break
      case 'Cairn-Rename': {
        const m2 = /^(\S+)\s*->\s*(\S+)$/.exec(value)
        if (m2) t.renames.push([m2[1], m2[2]])
        break
      }
      case 'Cairn-Batch': t.batch = value; break
      case 'Cairn-Actor': t.actor = value; break
      case 'Cairn-Format': t.format = value; break
    }
  }
  return any && t.format ? t : undefined
}

/** Cairn commits on HEAD, newest first (fast in-process read with isomorphic-git). */
export async function cairnCommits(store: Store): Promise<CairnCommit[]> {
  let entries: Awaited<ReturnType<typeof git.log>>
  try {
    entries = await git.log({fs, dir: store.root, gitdir: gitDir(store.root), ref: 'HEAD'})
  } catch (error) {
    if ((error as {code?: string}).code === 'NotFoundError') return []
    throw error
  }
  const out: CairnCommit[] = []
  for (const e of entries) {
    const trailers = parseTrailers(e.commit.message)
    if (!trailers) continue
    const [subject, ...rest] = e.commit.message.trim().split('\n')
    out.push({
      sha: e.oid,
      subject,
      body: rest.join('\n').trim(),
      at: new Date(e.commit.committer.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      author: e.commit.author.name,
      trailers,
    })
  }
  return out
}
