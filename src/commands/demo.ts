import { BaseCommand } from '../lib/base-command.js'

export default class Demo extends BaseCommand {
  static override summary = 'Rehearse the validator lifecycle on an embedded devnet.'
  async run(): Promise<{ ok: boolean }> {
    await this.parse(Demo)
    this.out('demo placeholder (foundation check)')
    return { ok: true }
  }
}
