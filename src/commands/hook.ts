import {Args, Command, Flags} from '@oclif/core'
import {AGENTS} from '../agents/adapter.js'
import {main} from '../agents/run.js'
import {HOOK_EVENTS} from '../app/hooks/types.js'

/**
 * The agent hook entry. bin/run.js runs `cairn hook` without loading oclif; this class exists so
 * `cairn hook --help` documents it, and runs the same runner if oclif is ever the one to start it.
 */
export default class Hook extends Command {
  static override summary = "Run one agent hook event: read the client's JSON on stdin, write its JSON on stdout."
  static override description = [
    "What an agent's hook config runs (`cairn install` writes it). The store is found from the payload's cwd (or workspace roots), never from the process's.",
    'session-start: core cards, the recall catalog, a review reminder and the board brief. user-prompt-submit: the cards that may apply to the prompt, and the path cards of a file it names. pre-tool-use: cards whose paths match the file about to be written (hooks.path_cards: before_write denies the first write once with them; hooks.enforce_must lets a must + high-risk card deny the first write). post-tool-use: records edited paths and lints edited cards. stop: writes the session digest and raises the archive, review, maintain and enrich signals once per session. session-end: writes the digest if stop did not. Every call that gives the agent cards appends one receipt line to .cairn/.local/receipts.jsonl (cairn receipts, cairn stats).',
    "It always exits 0: any error, a stdin over 1 MB or passing its deadline (hooks.deadline_ms, 1.5 s; hooks.session_deadline_ms, 4 s, for session start, stop and session end; CAIRN_HOOK_DEADLINE_MS replaces both) prints the client's neutral answer and appends one line to .cairn/.local/hook-errors.log.",
  ].join('\n\n')
  static override examples = [
    'echo \'{"session_id":"s1","cwd":"\'$PWD\'","hook_event_name":"UserPromptSubmit","prompt":"fix the flaky login test"}\' | <%= config.bin %> hook user-prompt-submit --agent claude',
  ]
  static override args = {
    event: Args.string({description: 'The hook event.', required: true, options: [...HOOK_EVENTS]}),
  }
  static override flags = {
    agent: Flags.string({
      description: 'The client whose wire format stdin and stdout use.',
      required: true,
      options: [...AGENTS],
    }),
  }

  async run(): Promise<void> {
    await main(this.argv)
  }
}
