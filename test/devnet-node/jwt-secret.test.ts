/**
 * The reference node takes its JWT secret off its command line (issue 15): TNV_NODE_JWT_SECRET
 * in its own environment, as hex or `@file`; given twice it refuses to start; on the command
 * line it still works, with a warning. `tnv devnet start` moves a hex --rpc.jwtsecret of the
 * node flags into that variable (splitJwtSecret); test/devnet-node/secrets.test.ts reads the
 * processes' command lines and environments.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { splitJwtSecret } from '../../src/devnet/node/start-devnet.js'
import { createJwt } from '../../src/lib/rpc/jwt.js'
import { tempDir } from '../helpers/cli.js'
import { freePorts, httpPost, startNode } from './helpers.js'

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

describe('splitJwtSecret', () => {
  const hex = 'ab'.repeat(32)
  it('takes a hex secret out of the flags, in both spellings; leaves a path and what follows --', () => {
    assert.deepEqual(splitJwtSecret(['--http', '--rpc.jwtsecret', hex, '--ws']), {
      flags: ['--http', '--ws'],
      secret: hex,
    })
    assert.deepEqual(splitJwtSecret([`--rpc.jwtsecret=0x${hex}`, '--http']), { flags: ['--http'], secret: `0x${hex}` })
    assert.deepEqual(splitJwtSecret(['--rpc.jwtsecret', '/etc/jwt.hex']), {
      flags: ['--rpc.jwtsecret', '/etc/jwt.hex'],
      secret: null,
    })
    assert.deepEqual(splitJwtSecret(['--http', '--', '--rpc.jwtsecret', hex]), {
      flags: ['--http', '--', '--rpc.jwtsecret', hex],
      secret: null,
    })
  })
})

describe('the reference node reads its JWT secret from its environment', { timeout: 120_000 }, () => {
  const tmp = tempDir('tnv-node-jwt-')
  after(() => tmp.cleanup())
  const secret = randomBytes(32).toString('hex')

  it('TNV_NODE_JWT_SECRET=@file: requests need a token made with that secret; no warning, no secret in the log', async () => {
    const file = join(tmp.dir, 'jwt.hex')
    writeFileSync(file, `${secret}\n`, { mode: 0o600 })
    const [h] = await freePorts(1)
    const dir = join(tmp.dir, 'env')
    const node = startNode(
      ['node', '--datadir', dir, '--http', '--http.port', String(h), '--ipcdisable', '--devnet.block-time', '0'],
      { ...process.env, TNV_NODE_JWT_SECRET: `@${file}` },
    )
    try {
      const log = await node.waitFor('reference node started')
      const url = `http://127.0.0.1:${h}`
      assert.equal((await httpPost(url, CHAIN_ID)).status, 401)
      const token = await createJwt(secret)
      assert.equal((await httpPost(url, CHAIN_ID, { authorization: `Bearer ${token}` })).status, 200)
      assert.doesNotMatch(log, /command line, where every local user can read it/)
      assert.ok(!log.includes(secret))
    } finally {
      node.child.kill('SIGTERM')
      await node.exited
    }
  })

  it('given twice (flag and environment): refused before anything starts; on the command line: a warning', async () => {
    const [h] = await freePorts(1)
    const twice = startNode(
      ['node', '--datadir', join(tmp.dir, 'twice'), '--http', '--http.port', String(h), '--rpc.jwtsecret', secret],
      { ...process.env, TNV_NODE_JWT_SECRET: secret },
    )
    assert.equal(await twice.exited, 2)
    assert.match(twice.out(), /given twice: in --rpc\.jwtsecret and in TNV_NODE_JWT_SECRET/)
    assert.doesNotMatch(twice.out(), /starting the devnet chain/)

    const bad = startNode(['node', '--datadir', join(tmp.dir, 'bad'), '--http', '--http.port', String(h)], {
      ...process.env,
      TNV_NODE_JWT_SECRET: 'not-hex',
    })
    assert.equal(await bad.exited, 2)
    assert.match(bad.out(), /TNV_NODE_JWT_SECRET cannot be used/)

    const argv = startNode(
      [
        'node',
        '--datadir',
        join(tmp.dir, 'argv'),
        '--http',
        '--http.port',
        String(h),
        '--ipcdisable',
        '--devnet.block-time',
        '0',
        '--rpc.jwtsecret',
        secret,
      ],
      { ...process.env, TNV_NODE_JWT_SECRET: undefined },
    )
    try {
      const log = await argv.waitFor('reference node started')
      assert.match(log, /WARN .*the JWT secret is on this node's command line, where every local user can read it/)
    } finally {
      argv.child.kill('SIGTERM')
      await argv.exited
    }
  })
})
