import type {Asker} from '../src/app/review-session.js'

/**
 * A reviewer that answers from a script, one answer per question: a choice by its key or value, a line
 * of text, or null for Ctrl-C. Everything said and asked is logged, and each refusal of a typed answer
 * ("! message") before the next answer is taken.
 */
export function scripted(script: (string | null)[]): {asker: Asker; log: string[]; unanswered: (string | null)[]} {
  const log: string[] = []
  const answers = [...script]
  const next = () => {
    if (answers.length === 0) throw new Error(`the script ran out of answers; last lines:\n${log.slice(-3).join('\n')}`)
    return answers.shift()!
  }
  const asker: Asker = {
    say: text => log.push(text),
    async choose(message, choices) {
      log.push(`? ${message}`, ...choices.map(c => `  ${c.key ? `${c.key}) ` : ''}${c.name}`))
      const answer = next()
      if (answer === null) return null
      const choice = choices.find(c => c.key === answer || c.value === answer)
      if (!choice) throw new Error(`"${answer}" is not a choice of "${message}"`)
      return choice.value
    },
    async text(message, validate) {
      log.push(`? ${message}`)
      for (;;) {
        const answer = next()
        if (answer === null) return null
        const verdict = validate ? validate(answer) : true
        if (verdict === true) return answer
        log.push(`! ${verdict}`)
      }
    },
  }
  // What the session never asked for: a test that expects every answer used checks it is empty.
  return {asker, log, unanswered: answers}
}
