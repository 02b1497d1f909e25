import {execFile} from 'node:child_process'
import type {TeamAnswer} from '../../domain/ci/approvers.js'
import type {Context} from '../../context.js'

/**
 * What cairn asks GitHub itself, through `gh api` with the environment's token (GH_TOKEN in a workflow): only what
 * git cannot answer. Every question answers; a failure is 'unknown', never an error, so the caller can say what it
 * could not find out.
 */
export interface GitHubApi {
  /**
   * Whether `login` is an active member of the team `org/team`. 'unknown' when the token cannot tell: the workflow's
   * own token usually cannot read an organisation's teams (it has no Members permission), and GitHub answers 404 to a
   * team the token cannot see as to a person not in it, so a 404 counts as "not a member" only when the team itself
   * is visible.
   */
  teamMembership(org: string, team: string, login: string): Promise<TeamAnswer>
}

interface Answer {
  /** The HTTP status; null when gh did not answer (not installed, no network, killed). */
  status: number | null
  body: unknown
}

const TIMEOUT_MS = 30_000

export function openGitHubApi(ctx: Context): GitHubApi {
  const api = (...segments: string[]) => ghApi(ctx, segments.map(encodeURIComponent).join('/'))
  return {
    async teamMembership(org, team, login) {
      const membership = await api('orgs', org, 'teams', team, 'memberships', login)
      if (membership.status === 200) {
        return (membership.body as {state?: unknown} | null)?.state === 'active' ? 'member' : 'not_member'
      }
      if (membership.status === 404 && (await api('orgs', org, 'teams', team)).status === 200) return 'not_member'
      return 'unknown'
    },
  }
}

function ghApi(ctx: Context, endpoint: string): Promise<Answer> {
  return new Promise(resolve => {
    execFile(
      'gh',
      ['api', endpoint],
      {cwd: ctx.cwd, env: ctx.env, timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, encoding: 'utf8'},
      (error, stdout, stderr) => {
        if (!error) return resolve({status: 200, body: parseJson(stdout)})
        // gh says "gh: Not Found (HTTP 404)" on stderr for an HTTP error; anything else is no answer at all.
        const status = /\(HTTP (\d{3})\)/.exec(stderr)?.[1]
        resolve({status: status ? Number(status) : null, body: parseJson(stdout)})
      },
    )
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
