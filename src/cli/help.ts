import {Help} from '@oclif/core'
import {refuseUnknown} from './not-found.js'

/** oclif's help, except that help for an unknown command is refused like the command itself would be. */
export default class CairnHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    const words = argv.filter(a => !a.startsWith('-'))
    const id = words.join(':')
    if (words.length && !this.config.findCommand(id) && !this.config.findTopic(id)) refuseUnknown(this.config, id, argv)
    await super.showHelp(argv)
  }
}
