/**
 * The command index (dist/run/index.json, written by scripts/build.mjs from the oclif manifest
 * and package.json) and the part of oclif's Config a command uses while it runs, built from
 * that index instead of `Config.load` (which reads package.json, the whole manifest, looks for
 * plugins, a theme and the shell, and loads @oclif/core's every module).
 *
 * The direct path (src/entries/launch.ts) runs a command with this config only when nothing
 * `Config.load` would have found could change the run: the build refuses a package.json with
 * hooks, plugins, a theme, flexible taxonomy or custom exit codes (scripts/fast-bundles.mjs),
 * and the launcher takes oclif's path when the user has a theme file or asked oclif to debug.
 * test/cli/direct-path.test.ts checks every member against `Config.load` of the same tree.
 */
import { join, resolve } from 'node:path'
import { builtinModule } from '../lib/builtin-module.js'

/**
 * One command as oclif's id resolution sees it; `file` (the command's bundle) when it runs
 * directly, and `lean` when it also has a bundle without the code only `unlessFlags` reach
 * (scripts/direct-bundles.mjs LEAN_BUNDLES).
 */
export type IndexedCommand = {
  strict: boolean
  args: string[]
  file?: string
  lean?: { file: string; unlessFlags: string[] }
}

export type CommandIndex = {
  /** A hash of the command bundles of this build (names their code cache: ./run-modules.ts). */
  build: string
  name: string
  version: string
  bin: string
  dirname: string
  binAliases: string[]
  topicSeparator: ':' | ' '
  /** package.json `oclif` section, as oclif reads it (help options, additional help and version flags). */
  oclif: { additionalHelpFlags?: string[]; additionalVersionFlags?: string[]; [key: string]: unknown }
  /** Every command id and alias id oclif knows; aliases and plugin-bundled commands have no `file`. */
  commands: Record<string, IndexedCommand>
}

/** The members of oclif's Config that Command, its parser and tnv's base command read. */
export class DirectConfig {
  readonly root: string
  readonly name: string
  readonly version: string
  readonly bin: string
  readonly binAliases: string[]
  readonly dirname: string
  readonly topicSeparator: ':' | ' '
  readonly platform = process.platform
  readonly arch = process.arch === 'ia32' ? 'x86' : process.arch
  readonly windows = process.platform === 'win32'
  readonly userAgent: string
  readonly pjson: { name: string; version: string; oclif: CommandIndex['oclif'] }
  readonly flexibleTaxonomy = false
  readonly isSingleCommandCLI = false
  /** No theme: the launcher takes oclif's path when a theme file exists. */
  readonly theme = undefined
  readonly home: string
  readonly configDir: string
  readonly cacheDir: string
  readonly commandIDs: string[]
  private readonly index: CommandIndex
  private readonly env: NodeJS.ProcessEnv

  constructor(index: CommandIndex, root: string, env: NodeJS.ProcessEnv = process.env) {
    this.index = index
    this.env = env
    this.root = resolve(root)
    this.name = index.name
    this.version = index.version
    this.bin = index.bin
    this.binAliases = index.binAliases
    this.dirname = index.dirname
    this.topicSeparator = index.topicSeparator
    this.userAgent = `${this.name}/${this.version} ${this.platform}-${this.arch} node-${process.version}`
    this.pjson = { name: index.name, version: index.version, oclif: index.oclif }
    this.commandIDs = Object.keys(index.commands)
    this.home = env.HOME || builtinModule<typeof import('node:os')>('node:os').homedir()
    // oclif: scopedEnvVar('CONFIG_DIR') || XDG_CONFIG_HOME/<dirname> || ~/.config/<dirname>
    this.configDir =
      this.scopedEnvVar('CONFIG_DIR') || join(env.XDG_CONFIG_HOME || join(this.home, '.config'), this.dirname)
    // oclif: scopedEnvVar('CACHE_DIR') || ~/Library/Caches/<dirname> (macOS) || XDG_CACHE_HOME/<dirname> || ~/.cache/<dirname>
    this.cacheDir =
      this.scopedEnvVar('CACHE_DIR') ||
      (this.platform === 'darwin' ? join(this.home, 'Library', 'Caches', this.dirname) : undefined) ||
      join(env.XDG_CACHE_HOME || join(this.home, '.cache'), this.dirname)
  }

  findCommand(id: string): (IndexedCommand & { id: string }) | undefined {
    const c = this.index.commands[id]
    return c ? { ...c, id } : undefined
  }

  /** Hooks: package.json declares none (the build checks), so every hook runs nothing. */
  async runHook(): Promise<{ successes: never[]; failures: never[] }> {
    return { successes: [], failures: [] }
  }

  scopedEnvVar(k: string): string | undefined {
    const key = this.scopedEnvVarKeys(k).find((x) => this.env[x])
    return key === undefined ? undefined : this.env[key]
  }

  scopedEnvVarKey(k: string): string {
    return [this.bin, k]
      .map((p) => p.replaceAll('@', '').replaceAll(/[/-]/g, '_'))
      .join('_')
      .toUpperCase()
  }

  scopedEnvVarKeys(k: string): string[] {
    return [this.bin, ...this.binAliases]
      .filter(Boolean)
      .map((alias) => [alias.replaceAll('@', '').replaceAll(/[/-]/g, '_'), k].join('_').toUpperCase())
  }

  scopedEnvVarTrue(k: string): boolean {
    const v = this.scopedEnvVar(k)
    return v === '1' || v === 'true'
  }
}
