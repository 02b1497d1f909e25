import fs from 'node:fs'
import type {Transcript} from '../app/hooks/types.js'
import {jsonLines} from '../domain/json-lines.js'

/**
 * The user messages and the last assistant message of a session transcript, for the digest.
 * Claude Code, Codex and Cursor write JSONL; Gemini CLI writes one JSON document with a messages
 * array. Rather than one parser per client that breaks when a client renames a field, one
 * tolerant reader takes any record that has a role (or type) of user or assistant/model and text
 * content, and skips what a client injects itself (text starting with "<", such as Codex's
 * <environment_context> or Claude Code's <command-name>).
 */
const HEAD_BYTES = 2 * 1024 * 1024
const TAIL_BYTES = 512 * 1024
export function readTranscript(file: string | null): Transcript {
  const empty: Transcript = {userMessages: [], lastAssistantMessage: null}
  if (!file) return empty
  const text = readHeadAndTail(file)
  if (text === null) return empty
  return parseTranscript(text)
}

export function parseTranscript(text: string): Transcript {
  const records: unknown[] = []
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') && !trimmed.includes('\n{')) {
    try {
      const doc = JSON.parse(trimmed) as Record<string, unknown>
      records.push(...(Array.isArray(doc.messages) ? doc.messages : [doc]))
    } catch {
      // Not one document after all: read it line by line.
    }
  }
  if (records.length === 0) records.push(...jsonLines(text))
  const userMessages: string[] = []
  let lastAssistantMessage: string | null = null
  for (const r of records) {
    const m = message(r)
    if (!m) continue
    if (m.role === 'user') {
      if (!injected(m.text)) userMessages.push(m.text)
    } else lastAssistantMessage = m.text
  }
  return {userMessages, lastAssistantMessage}
}

/**
 * Text a client puts in a user-role message itself: Claude Code's <command-name> and Codex's
 * <environment_context>, <user_instructions> and "# AGENTS.md instructions for <dir>" blocks.
 */
function injected(text: string): boolean {
  return text.startsWith('<') || /^# AGENTS\.md instructions\b/.test(text) || text.includes('<INSTRUCTIONS>')
}

function message(r: unknown): {role: 'user' | 'assistant'; text: string} | null {
  if (!r || typeof r !== 'object') return null
  const o = r as Record<string, any>
  const inner = (
    o.message && typeof o.message === 'object' ? o.message : o.payload && typeof o.payload === 'object' ? o.payload : o
  ) as Record<string, any>
  const roleName = String(inner.role ?? o.role ?? o.type ?? '')
  const role = roleName === 'user' ? 'user' : ['assistant', 'model', 'gemini'].includes(roleName) ? 'assistant' : null
  if (!role) return null
  const text = textOf(inner.content ?? inner.parts ?? inner.text ?? inner.message ?? o.content).trim()
  return text ? {role, text} : null
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map(part => {
      if (typeof part === 'string') return part
      if (!part || typeof part !== 'object') return ''
      const p = part as Record<string, unknown>
      // tool_use / tool_result parts are not what the user said.
      return typeof p.text === 'string' && !['tool_result', 'tool_use'].includes(String(p.type)) ? p.text : ''
    })
    .filter(Boolean)
    .join('\n')
}

/**
 * The whole file when small; else its head (first messages) and tail (last message). Only a
 * regular file is read, opened without blocking and read by bounded reads: a path from the payload
 * could name a FIFO or a device, and a read that never ends would outlive the hook's deadline.
 */
function readHeadAndTail(file: string): string | null {
  let fd: number | undefined
  try {
    if (!fs.lstatSync(file).isFile()) return null
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW)
    const st = fs.fstatSync(fd)
    if (!st.isFile()) return null
    const size = st.size
    const read = (length: number, at: number): string => {
      const buf = Buffer.alloc(length)
      const n = fs.readSync(fd!, buf, 0, length, at)
      return buf.subarray(0, n).toString('utf8')
    }
    if (size <= HEAD_BYTES + TAIL_BYTES) return read(size, 0)
    return `${read(HEAD_BYTES, 0)}\n${read(TAIL_BYTES, size - TAIL_BYTES)}`
  } catch {
    return null
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}
