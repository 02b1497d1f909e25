import fs from 'node:fs'
import path from 'node:path'
import {type Repo, tempDir} from './helpers.js'

/** A `cairn` on PATH that reads its stdin and exits with `code`: the install check's subject. */
export function shim(code = 0, name = 'cairn'): string {
  const dir = tempDir('cairn-shim-')
  const file = path.join(dir, name)
  const fail = code ? 'echo "hook failed" >&2\n' : ''
  fs.writeFileSync(file, `#!/bin/sh\ncat > "${dir}/stdin.json"\necho "$@" > "${dir}/args"\n${fail}exit ${code}\n`)
  fs.chmodSync(file, 0o755)
  return dir
}

/** The repo's context with the shim directory first on PATH. */
export const withPath = (repo: Repo, dir: string) =>
  repo.ctx({env: {...repo.env, PATH: `${dir}${path.delimiter}${process.env.PATH}`}})

/** Skill templates in a temp dir: `<lang>/<name>/SKILL.md` (and a reference file for one). */
export function skillTemplates(): string {
  const root = tempDir('cairn-skills-')
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), {recursive: true})
    fs.writeFileSync(path.join(root, rel), text)
  }
  const skill = (name: string, description: string, body: string) =>
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`
  write('en/cairn-archive/SKILL.md', skill('cairn-archive', 'Archive a lesson as a card.', 'Run cairn propose.'))
  write('en/cairn-archive/references/types.md', 'model, decision, guideline, pitfall, process\n')
  write('en/cairn-recall/SKILL.md', skill('cairn-recall', 'Recall cards for a task.', 'Run cairn recall.'))
  write('zh-CN/cairn-archive/SKILL.md', skill('cairn-archive', '把经验归档为卡片。', '运行 cairn propose。'))
  write('zh-CN/cairn-recall/SKILL.md', skill('cairn-recall', '为任务召回卡片。', '运行 cairn recall。'))
  return root
}

/** The user's own Claude Code settings: their PreToolUse and Stop hooks and a permissions block, 4-space indented. */
export const USER_SETTINGS = `{
    "permissions": {
        "allow": [
            "Bash(npm test)",
            "Read(src/**)"
        ],
        "deny": [
            "Bash(rm -rf *)"
        ]
    },
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "./scripts/guard.sh",
                        "timeout": 30
                    }
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "say done"
                    }
                ]
            }
        ]
    }
}
`

/** Every file under dir (relative paths), to show what a run created or left. */
export function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter(e => e.isFile())
    .map(e => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
}
