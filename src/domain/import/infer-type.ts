import {type CardType, normalizeType} from '../card/types.js'
import {firstStatement} from './statement.js'

// Only clear wording counts: a reviewer reading the heading or its first sentence would pick the same type.
const DECISION = /\b(decisions?|we (chose|decided|picked|settled on))\b|决策|决定|我们选择/i
const PITFALL_HEADING =
  /\b(pitfalls?|gotchas?|caveats?|traps?|anti-?patterns?|avoid|never|don'?t|do not)\b|避免|不要|禁止|陷阱|坑/i
const PITFALL_LEAD = /^(avoid|never|don'?t|do not)\b|^(避免|不要|禁止|切勿|千万不要)/i
const PROCEDURE =
  /\b(how to|how-to|steps?|procedures?|runbooks?|releas(e|es|ing)|deploy(s|ing|ment)?|publish(ing)?|set ?up|install(ing|ation)?|checklists?)\b|步骤|流程|发布|部署|上线|安装|清单/i
const NUMBERED = /^\s*\d+[.)、]\s*\S/m

/**
 * The card type a rule section or file reads as: a decision ("Decision", "we chose"), a pitfall (a heading saying
 * pitfall, gotcha, avoid, never, don't, 避免, 不要, 禁止, or marked ❌; or a first sentence that starts so, after any
 * mark), a process ("how to", steps, procedure, runbook, release, deploy, setup, checklist, 步骤, 流程, 发布, 部署,
 * with a numbered list); else a guideline.
 */
export function inferType(heading: string, body: string): CardType {
  // A mark before the words ("❌ Never commit", "⚠️ 不要") is not part of them.
  const lead = firstStatement(body).replace(/^[^\p{L}\p{N}]+/u, '')
  if (DECISION.test(heading) || /\bwe (chose|decided)\b|我们选择|我们决定/i.test(lead)) return 'decision'
  if (PITFALL_HEADING.test(heading) || PITFALL_LEAD.test(lead) || /^\s*(❌|🚫|⛔)/u.test(heading)) return 'pitfall'
  if ((PROCEDURE.test(heading) || PROCEDURE.test(lead)) && NUMBERED.test(body)) return 'process'
  return 'guideline'
}

/** A frontmatter `type:` naming a cairn card type wins over the inferred one; any other value is the tool's own. */
export const givenType = (data: Record<string, unknown>): CardType | undefined => normalizeType(data.type)
