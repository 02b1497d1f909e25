import path from 'node:path'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve} from '../src/app/review.js'
import {card, git, type Repo, tempDir, tempRepo} from './helpers.js'

/**
 * An org store for the doctor and CI tests: a cairn store in its own repository, reviewed there, pushed to a local
 * bare repository that projects subscribe to.
 */
export interface Org {
  repo: Repo
  /** The bare repository projects fetch from (an absolute path: the URL config.yaml records). */
  url: string
  /** Proposes and approves a card in the org store, then pushes main. */
  addCard: (slug: string, title?: string) => Promise<void>
  /** Removes an active card in the org store, then pushes main. */
  removeCard: (slug: string) => void
  /** The commit main is at in the bare repository. */
  head: () => string
}

export async function makeOrg(slugs: string[] = ['never-log-personal-data']): Promise<Org> {
  const repo = tempRepo()
  await init(repo.ctx())
  const url = path.join(tempDir('cairn-org-remote-'), 'org.git')
  const push = () => repo.git('push', '-q', url, 'main')
  const addCard = async (slug: string, title = `Org rule ${slug}`) => {
    await propose(repo.ctx(), {
      fields: card({slug, type: 'guideline', title, summary: `The org says ${slug}.`}),
      phrases: {triggers: [slug.replace(/-/g, ' ')]},
    })
    await approve(repo.ctx(), {ids: [slug]})
    push()
  }
  git(path.dirname(url), 'init', '-q', '--bare', '-b', 'main', url)
  push()
  for (const slug of slugs) await addCard(slug)
  return {
    repo,
    url,
    addCard,
    removeCard: slug => {
      repo.git('rm', '-q', `.cairn/cards/guideline/${slug}.md`)
      repo.git('commit', '-q', '-m', `remove ${slug}`)
      push()
    },
    head: () => git(path.dirname(url), '--git-dir', url, 'rev-parse', 'main').trim(),
  }
}
