import { readFileSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { parse } from 'yaml'
import { createPublicClient, http, encodeFunctionData, decodeFunctionResult, numberToHex } from 'viem'
import { registryAbis } from './src/lib/registry/generations/detect.ts'
const A = 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'
for (const gen of ['adiri', 'next'] as const) {
  const g = parse(readFileSync(`networks/${gen}/genesis.yaml`, 'utf8'))
  g.alloc['0xffffFFFfFFffffffffffffffFfFFFfffFFFfFFfE'.toLowerCase()] = { balance: '0x' + (10n ** 24n).toString(16) }
  writeFileSync(`/tmp/g/${gen}-init.json`, JSON.stringify(g))
  const port = gen === 'adiri' ? 18601 : 18602
  const p = spawn(A, ['--init', `/tmp/g/${gen}-init.json`, '--port', String(port), '--hardfork', 'prague', '--accounts', '0', '--quiet'], { stdio: 'inherit' })
  await new Promise((r) => setTimeout(r, 1500))
  const c = createPublicClient({ transport: http(`http://127.0.0.1:${port}`) })
  const abi = registryAbis[gen] as any
  const reg = '0x07e17e17e17e17e17e17e17e17e17e17e17e17e1'
  const rd = (functionName: string, args: any[] = []) => c.readContract({ address: reg, abi, functionName, args } as any)
  const owner = await rd('owner') as string
  console.log(gen, 'owner', owner, 'size', await rd('getNextCommitteeSize'))
  if (gen === 'next') console.log('getValidatorsInfo(3)', await rd('getValidatorsInfo', [3]), 'getValidators(3)', await rd('getValidators', [3]))
  else console.log('getValidators(3)', (await rd('getValidators', [3]) as any[]).length)
  const req = (method: string, params: any[]) => (c.request as any)({ method, params })
  await req('anvil_impersonateAccount', [owner])
  const newV = '0x00000000000000000000000000000000000000aa'
  try {
    const h = await req('eth_sendTransaction', [{ from: owner, to: reg, data: encodeFunctionData({ abi, functionName: 'mint', args: [newV] }) }])
    const r = await c.waitForTransactionReceipt({ hash: h })
    console.log('mint as owner', r.status, r.gasUsed)
  } catch (e) { console.log('mint failed', (e as Error).message.slice(0, 300)) }
  console.log('balanceOf', await rd('balanceOf', [newV]))
  // system calls in one block
  const sys = '0xffffFFFfFFffffffffffffffFfFFFfffFFFfFFfE'
  await req('anvil_impersonateAccount', [sys])
  await req('evm_setAutomine', [false])
  const info = await rd('getCurrentEpochInfo') as any
  const committee = [...info.committee].sort((a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
  const hs = []
  hs.push(await req('eth_sendTransaction', [{ from: sys, to: reg, gas: '0x1000000', data: encodeFunctionData({ abi, functionName: 'applyIncentives', args: [committee.map((a: string) => ({ validatorAddress: a, consensusHeaderCount: 10n }))] }) }]))
  if (gen === 'next') hs.push(await req('eth_sendTransaction', [{ from: sys, to: reg, gas: '0x1000000', data: encodeFunctionData({ abi, functionName: 'applySlashes', args: [[]] }) }]))
  hs.push(await req('eth_sendTransaction', [{ from: sys, to: reg, gas: '0x1000000', data: encodeFunctionData({ abi, functionName: 'concludeEpoch', args: [committee] }) }]))
  await req('evm_mine', [])
  await req('evm_setAutomine', [true])
  for (const h of hs) { const r = await c.waitForTransactionReceipt({ hash: h }); console.log('sys', r.status, r.blockNumber, r.gasUsed) }
  console.log('epoch', await rd('getCurrentEpoch'), 'rewards', await rd('getRewards', [committee[0]]))
  p.kill()
}
