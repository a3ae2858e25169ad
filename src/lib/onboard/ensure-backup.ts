/**
 * The backup step of the stake flow (issue 18), before anything binds the key on chain: a
 * verified backup of this exact key, or a confirmed recovery phrase, must be on record
 * (../keys/backup-record.ts). On a terminal the wizard walks the operator through it: make a
 * backup file and verify it now, verify one made earlier, or verify the recovery phrase; or stop.
 * Without a terminal the flow stops with the commands to run (BackupUnverified, exit 4).
 * --skip-backup-check goes on with a warning saying what is accepted. The devnet asks as a real
 * network does; only --devnet-relaxed on its rehearsal chain id makes the step only report
 * (../keys/backup-gate.ts).
 */
import { isAbsolute, relative, resolve } from 'node:path'
import { assertBackupGate, assertRelaxedOnDevnet } from '../keys/backup-gate.js'
import { backupStatus } from '../keys/backup-record.js'
import { BackupUnverifiedError } from '../keys/recovery-errors.js'
import type { PassphraseSource } from '../options.js'
import type { WizardIo } from '../wizard/io.js'

export type EnsureBackupParameters = {
  /** The data directory holding the keys and the record. */
  datadir: string
  /** 0x hex of node-info.yaml's BLS public key. */
  publicKey: string
  chainId: number
  skip: boolean
  /** --devnet-relaxed: only report, on the rehearsal chain id only. */
  relaxed?: boolean | undefined
  /** The passphrase of keys made in this run, or the one the session took from the environment (kept in memory), else how to get it. */
  passphrase: string | null
  passphraseSource: PassphraseSource
}

type Choice = 'make' | 'verify-file' | 'verify-phrase' | 'stop'

export async function ensureBackup(io: WizardIo, p: EnsureBackupParameters): Promise<void> {
  assertRelaxedOnDevnet(p.relaxed === true, p.chainId)
  const status = await backupStatus(p.datadir, p.publicKey)
  if (status.ok) {
    io.emit(
      { event: 'backup', status: 'verified', how: status.proof.how, at: status.proof.at },
      `Backup: ${status.proof.how === 'backup-verified' ? 'a verified backup' : 'the recovery phrase'} proves this key can be restored (${status.proof.how}, ${status.proof.at}).`,
    )
    return
  }
  if (!io.interactive || p.skip || p.relaxed === true) {
    const r = await assertBackupGate({ ...p, action: 'the stake' })
    if (r.outcome !== 'verified')
      io.emit({ event: 'backup', status: r.outcome, message: r.message }, `Warning: ${r.message}`)
    return
  }
  io.emit({ event: 'backup', status: 'missing', reason: status.reason }, [
    '',
    `Before the stake: ${status.reason}.`,
    'Once staked, the registry binds this BLS key for good: if the data directory or its passphrase is lost, so is the validator.',
  ])
  for (;;) {
    const choice = await io.select<Choice>(
      'How do you want to prove this key can be restored?',
      [
        { value: 'make', name: 'Write a backup file now (on other media) and verify it' },
        { value: 'verify-file', name: 'Verify a backup file I made earlier (tnv keytool backup)' },
        { value: 'verify-phrase', name: 'Verify my recovery phrase (keys made with --mnemonic)' },
        { value: 'stop', name: 'Stop here (nothing is sent; run `tnv stake` again later)' },
      ],
      'make',
    )
    if (choice === 'stop')
      throw new BackupUnverifiedError({ action: 'the stake', datadir: p.datadir, reason: status.reason })
    try {
      if (choice === 'verify-phrase') await verifyPhraseStep(io, p)
      else await verifyFileStep(io, p, choice === 'make')
      return
    } catch (err) {
      // a wrong file, passphrase or phrase: say it and offer the choices again
      if (!(err instanceof Error) || !('fix' in err) || (err as { code?: string }).code === 'Aborted') throw err
      io.emit({ event: 'backup', status: 'failed', message: err.message }, `That did not work: ${err.message}`)
    }
  }
}

async function verifyFileStep(io: WizardIo, p: EnsureBackupParameters, make: boolean): Promise<void> {
  const datadir = resolve(p.datadir)
  const path = resolve(
    (
      await io.input(
        make
          ? 'Path of the new backup file (on other media than the data directory, e.g. a USB key)'
          : 'Path of the backup file',
        {
          validate: (v) => (v.trim() === '' ? 'A path is needed.' : true),
        },
      )
    ).trim(),
  )
  if (make) {
    const [{ makeBackup }, { assertOutputPath, writeNewOutputFile }, { OutputFileExistsError }] = await Promise.all([
      import('../keys/backup-file.js'),
      import('../fs/output-file.js'),
      import('../keys/recovery-errors.js'),
    ])
    await assertOutputPath(path, 'the backup file')
    const { text } = await makeBackup(datadir)
    if (!(await writeNewOutputFile(path, text, { flag: 'the backup file', mode: 0o600 })))
      throw new OutputFileExistsError(path, 'the backup file')
    const rel = relative(datadir, path)
    io.emit(
      { event: 'backup', status: 'written', file: path },
      !rel.startsWith('..') && !isAbsolute(rel)
        ? `Wrote ${path}. Warning: it is inside the data directory and is lost with it: copy it to other media.`
        : `Wrote ${path} (mode 0600).`,
    )
  }
  const [{ verifyBackup }, { openBlsKey }] = await Promise.all([
    import('../keys/verify-backup.js'),
    import('../keys/open-key.js'),
  ])
  // the passphrase is settled before the spinner starts (a hidden prompt cannot run under it); with
  // the source env it is the one the session took from the environment (`p.passphrase`)
  let passphrase = p.passphrase
  if (passphrase === null && (p.passphraseSource === 'ask' || p.passphraseSource === 'env'))
    passphrase = await io.secret(`Passphrase of the BLS key in ${path} (hidden)`)
  const r = await io.wait(`Restoring ${path} into a private temporary directory and checking it`, () =>
    verifyBackup({
      file: path,
      datadir,
      openKey: (dir) =>
        passphrase !== null
          ? openBlsKey({ datadir: dir, source: 'env', env: { TN_BLS_PASSPHRASE: passphrase } })
          : openBlsKey({ datadir: dir, source: p.passphraseSource, stdin: io.stdin(), env: {} }),
    }),
  )
  io.emit({ event: 'backup', status: 'verified', how: 'backup-verified', file: path, checks: r.checks }, [
    ...r.checks.map((c) => `  OK  ${c.field}: ${c.detail}`),
    `Backup verified; recorded in ${r.recorded}.`,
  ])
}

async function verifyPhraseStep(io: WizardIo, p: EnsureBackupParameters): Promise<void> {
  const [{ readMnemonic }, { verifyPhrase }] = await Promise.all([
    import('../keys/read-mnemonic.js'),
    import('../keys/verify-phrase.js'),
  ])
  const { phrase } = await readMnemonic({ io: { isTTY: io.interactive, ask: (m) => io.secret(m) } })
  const r = await verifyPhrase({ datadir: p.datadir, phrase })
  io.emit(
    { event: 'backup', status: 'verified', how: 'phrase-verified', keyPath: r.keyPath },
    `The recovery phrase gives this key (${r.keyPath}); recorded in ${r.recorded}.`,
  )
}
