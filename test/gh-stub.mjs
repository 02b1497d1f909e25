// A stand-in for the `gh` CLI in the workflow tests: it logs every call (argv, stdin, the token) to
// GH_STUB_LOG as JSON lines, and answers the `gh api` calls the cairn workflows make from the JSON
// state in GH_STUB_STATE, which it updates. Only the GitHub API is simulated; everything else is real.
import fs from 'node:fs'

const argv = process.argv.slice(2)
const stdin = process.stdin.isTTY
  ? ''
  : (() => {
      try {
        return fs.readFileSync(0, 'utf8')
      } catch {
        return ''
      }
    })()
fs.appendFileSync(process.env.GH_STUB_LOG, `${JSON.stringify({argv, stdin, token: process.env.GH_TOKEN ?? null})}\n`)
const state = JSON.parse(fs.readFileSync(process.env.GH_STUB_STATE, 'utf8'))
const fail = (message, code = 1) => {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

if (argv[0] !== 'api') fail(`gh stub: only "gh api" is simulated, not: gh ${argv.join(' ')}`)
let method,
  endpoint,
  paginate = false,
  slurp = false
const fields = {}
for (let i = 1; i < argv.length; i++) {
  const a = argv[i]
  if (a === '-X' || a === '--method') method = argv[++i]
  else if (a === '--paginate') paginate = true
  else if (a === '--slurp') slurp = true
  else if (a === '-f' || a === '--raw-field' || a === '-F' || a === '--field') {
    const typed = a === '-F' || a === '--field'
    const [key, ...rest] = argv[++i].split('=')
    let value = rest.join('=')
    if (typed && value.startsWith('@')) value = fs.readFileSync(value.slice(1), 'utf8')
    else if (typed && /^(true|false|null|\d+)$/.test(value)) value = JSON.parse(value)
    fields[key] = value
  } else if (a.startsWith('-')) fail(`gh stub: unknown flag ${a}`)
  else if (endpoint === undefined) endpoint = a
  else fail(`gh stub: a second endpoint ${a}`)
}
if (slurp && !paginate) fail('gh stub: --slurp needs --paginate')
method = (method ?? (Object.keys(fields).length ? 'POST' : 'GET')).toUpperCase()
const [route, query = ''] = endpoint.split('?')
const params = Object.fromEntries(new URLSearchParams(query))
const repo = state.repository
const prefix = `repos/${repo}/`
if (!route.startsWith(prefix) && !route.startsWith('orgs/')) fail(`gh stub: ${endpoint} is not in ${repo}`)
const rest = route.slice(prefix.length)
const bot = {login: 'github-actions[bot]', type: 'Bot'}
const nextId = () => (state.nextId = (state.nextId ?? 1000) + 1)
// GitHub's timestamps, to the second; a test pins the clock with state.now.
const now = () => state.now ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z')

/**
 * An organisation's teams (state.teams: "org/team" → member logins), as a token that can read them sees them; with
 * state.teamsForbidden, as the workflow's own token does (no Members permission). A team not in state.teams is one
 * the token cannot see: 404, as GitHub answers for a person not in a team.
 */
function teamAnswer() {
  if (state.teamsForbidden) fail('gh: Resource not accessible by integration (HTTP 403)')
  const teams = Object.fromEntries(Object.entries(state.teams ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
  let m
  if ((m = /^orgs\/([^/]+)\/teams\/([^/]+)\/memberships\/([^/]+)$/.exec(route)) && method === 'GET') {
    const members = teams[`${m[1]}/${m[2]}`.toLowerCase()] ?? []
    if (!members.some(login => login.toLowerCase() === m[3].toLowerCase())) fail('gh: Not Found (HTTP 404)')
    return {state: 'active', role: 'member', url: `https://api.github.com/${route}`}
  }
  if ((m = /^orgs\/([^/]+)\/teams\/([^/]+)$/.exec(route)) && method === 'GET') {
    if (!teams[`${m[1]}/${m[2]}`.toLowerCase()]) fail('gh: Not Found (HTTP 404)')
    return {slug: m[2], name: m[2]}
  }
  fail(`gh stub: no route for ${method} ${endpoint}`)
}

function answer() {
  if (route.startsWith('orgs/')) return teamAnswer()
  let m
  if ((m = /^issues\/(\d+)\/comments$/.exec(rest))) {
    const issue = Number(m[1])
    if (method === 'GET') return state.comments.filter(c => c.issue === issue)
    if (method === 'POST') {
      const comment = {id: nextId(), issue, body: fields.body, user: bot, created_at: now(), updated_at: now()}
      state.comments.push(comment)
      return comment
    }
  }
  if ((m = /^issues\/comments\/(\d+)$/.exec(rest)) && method === 'PATCH') {
    const comment = state.comments.find(c => c.id === Number(m[1]))
    if (!comment) fail('gh: Not Found (HTTP 404)')
    comment.body = fields.body
    comment.updated_at = now()
    return comment
  }
  if ((m = /^issues\/comments\/(\d+)\/reactions$/.exec(rest)) && method === 'POST') {
    const reaction = {comment: Number(m[1]), content: fields.content}
    state.reactions.push(reaction)
    return {id: nextId(), content: fields.content}
  }
  if ((m = /^statuses\/([0-9a-f]{40})$/.exec(rest)) && method === 'POST') {
    const status = {sha: m[1], state: fields.state, context: fields.context, description: fields.description}
    state.statuses.push(status)
    return status
  }
  if (rest === 'pulls' && method === 'GET') {
    return state.pulls.filter(
      p =>
        (!params.state || p.state === params.state) &&
        (!params.head || `${repo.split('/')[0]}:${p.head.ref}` === params.head),
    )
  }
  if (rest === 'pulls' && method === 'POST') {
    if (state.refusePullCreate)
      fail('gh: GitHub Actions is not permitted to create or approve pull requests. (HTTP 403)')
    const pr = {
      number: nextId(),
      state: 'open',
      title: fields.title,
      body: fields.body,
      head: {ref: fields.head, repo: {full_name: repo}},
      base: {ref: fields.base},
    }
    state.pulls.push(pr)
    return pr
  }
  if ((m = /^collaborators\/([^/]+)\/permission$/.exec(rest)) && method === 'GET') {
    return {permission: state.permissions?.[m[1]] ?? 'read', user: {login: m[1]}}
  }
  if ((m = /^pulls\/(\d+)$/.exec(rest))) {
    const pr = state.pulls.find(p => p.number === Number(m[1]))
    if (!pr) fail('gh: Not Found (HTTP 404)')
    if (method === 'GET') return pr
    if (method === 'PATCH') return Object.assign(pr, fields)
  }
  fail(`gh stub: no route for ${method} ${endpoint}`)
}

const result = answer()
fs.writeFileSync(process.env.GH_STUB_STATE, JSON.stringify(state, null, 2))
process.stdout.write(JSON.stringify(slurp ? [result] : result))
