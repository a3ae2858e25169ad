import { basename } from 'node:path'
import { Args, Command, Flags } from '@oclif/core'

/**
 * `tnv autocomplete [bash|zsh]`: builds the completion cache (@oclif/plugin-autocomplete's
 * `autocomplete create`, bundled as tnv's own) and prints the line that installs it. The line
 * appends the script with its trailing newline (`printf '%s\n'`), so what a later tool appends
 * to the rc file starts on a line of its own.
 */
export default class AutocompleteCommand extends Command {
  static override summary = 'Build the shell completion cache and print the line that installs it (bash or zsh).'
  static override args = {
    shell: Args.string({
      description: 'Your shell (default: from $SHELL).',
      options: ['bash', 'zsh'],
      required: false,
    }),
  }
  static override flags = {
    'refresh-cache': Flags.boolean({
      char: 'r',
      summary: 'Only rebuild the completion cache (after installing a new version of tnv).',
    }),
  }
  static override examples = [
    '<%= config.bin %> <%= command.id %> bash',
    '<%= config.bin %> <%= command.id %> zsh',
    '<%= config.bin %> <%= command.id %> --refresh-cache',
  ]

  async run(): Promise<void> {
    const { args, flags } = await this.parse(AutocompleteCommand)
    await this.config.runCommand('autocomplete:create')
    if (flags['refresh-cache']) return
    const shell = args.shell ?? (basename(process.env.SHELL ?? '') === 'zsh' ? 'zsh' : 'bash')
    const rc = shell === 'zsh' ? '~/.zshrc' : '~/.bashrc'
    const script = `${this.config.bin} autocomplete script ${shell}`
    this.log(`The completion cache is built. To install completion for ${shell}, run once:

  printf '%s\\n' "$(${script})" >> ${rc}; source ${rc}

Then ${this.config.bin} <TAB>${shell === 'bash' ? '<TAB>' : ''} completes topics and commands, and ${this.config.bin} keytool generate validator --<TAB> the flags.
After installing a new version of ${this.config.bin}, run \`${this.config.bin} autocomplete --refresh-cache\`.`)
  }
}
