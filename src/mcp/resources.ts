import {type McpServer, ResourceTemplate} from '@modelcontextprotocol/sdk/server/mcp.js'
import {ErrorCode, McpError} from '@modelcontextprotocol/sdk/types.js'
import {createContext} from '../context.js'
import {gitUserName} from '../app/stores.js'
import {list} from '../app/list.js'
import {show} from '../app/show.js'
import {CairnError} from '../domain/errors.js'

const MIME = 'text/markdown'
const LOAD = {core: 'at every session start', recall: 'when a prompt or an edit recalls it'} as const

/** Every active card as cairn://card/<id>: listed with its title, read as its card file's text. */
export function registerCardResources(server: McpServer, cwd: () => Promise<string>): void {
  const template = new ResourceTemplate('cairn://card/{id}', {
    list: async () => {
      const {cards} = await list(createContext({cwd: await cwd(), lookupActor: gitUserName}), {status: 'active'})
      const seen = new Set<string>()
      // A project card hides an org or personal card of the same id, as show does.
      const unique = cards.filter(c => !seen.has(c.id) && seen.add(c.id))
      const resources = unique.map(c => ({
        uri: `cairn://card/${c.id}`,
        name: c.id,
        title: c.title,
        description: `A ${c.type} card of the ${c.layer ? `org layer ${c.layer.slice(4)}` : `${c.store} store`}, loaded ${LOAD[c.load]}.`,
        mimeType: MIME,
      }))
      return {resources}
    },
  })
  server.registerResource(
    'card',
    template,
    {description: 'An active cairn card (Markdown with YAML frontmatter).', mimeType: MIME},
    async (uri, variables) => {
      const id = String(variables.id)
      const r = await show(createContext({cwd: await cwd(), lookupActor: gitUserName}), {id}).catch(
        (error: unknown) => {
          if (error instanceof CairnError && error.code === 'not_found')
            throw new McpError(ErrorCode.InvalidParams, `no active card "${id}"`)
          throw error
        },
      )
      if (r.location === 'archive' || r.card.status !== 'active')
        throw new McpError(
          ErrorCode.InvalidParams,
          `no active card "${id}" (it is ${r.location === 'archive' ? 'archived' : r.card.status})`,
        )
      return {contents: [{uri: uri.href, mimeType: MIME, text: r.text}]}
    },
  )
}
