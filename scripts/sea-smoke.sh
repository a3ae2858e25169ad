#!/usr/bin/env bash
# The operator's path through the single executable (release/tnv-<version>-<platform>-<arch>),
# each command under `env -i`: an empty environment, no PATH (so no Node.js, no node_modules),
# plus only the variables that command names. Keys (generate, verify, export-staking-args with
# the proof of possession checked), rpc plan, and a stake on the devnet after a verified backup.
set -euo pipefail
cd "$(dirname "$0")/.."
exe="$PWD/release/tnv-$(sed -n 's/^  "version": "\(.*\)",$/\1/p' package.json)-linux-x64"
test -x "$exe"
(cd release && sha256sum --check "$(basename "$exe").sha256")
work=$(mktemp -d)
home="$work/home"
mkdir -p "$home"
stop() {
  env -i HOME="$home" "$exe" devnet stop --datadir "$work/devnet" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
tnv() { env -i HOME="$home" "$exe" "$@"; }

env -i "$exe" --version
printf 'smoke passphrase' | tnv keytool generate validator --datadir "$work/keys" \
  --address 0x3333333333333333333333333333333333333333 --bls-passphrase-source stdin >/dev/null
printf 'smoke passphrase' | tnv keytool verify --datadir "$work/keys" --bls-passphrase-source stdin >/dev/null
tnv keytool export-staking-args --node-info "$work/keys" --calldata --bls-passphrase-source no-passphrase | grep -q '^0x'
tnv rpc plan -- --http --http.api eth,net,web3,rpc,tn >/dev/null

tnv devnet start --detach --json --datadir "$work/devnet" >"$work/devnet.json"   # free ports when 8545/8546 are taken
address=$(sed -n '/"accounts"/,/]/s/.*"address": "\(0x[0-9a-fA-F]*\)".*/\1/p' "$work/devnet.json" | head -n 1)
key=$(sed -n '/"accounts"/,/]/s/.*"privateKey": "\(0x[0-9a-fA-F]*\)".*/\1/p' "$work/devnet.json" | head -n 1)
printf 'smoke passphrase' | tnv keytool generate validator --datadir "$work/validator" --address "$address" \
  --bls-passphrase-source stdin >/dev/null
# the devnet asks for a verified backup before the stake, as a real network does
mkdir -p "$work/media"
tnv keytool backup --datadir "$work/validator" --out "$work/media/tn-backup.json" >/dev/null
printf 'smoke passphrase' | env -i HOME="$home" TNV_DEVNET_DIR="$work/devnet" "$exe" keytool backup verify \
  "$work/media/tn-backup.json" --datadir "$work/validator" --bls-passphrase-source stdin >/dev/null
env -i HOME="$home" TNV_DEVNET_DIR="$work/devnet" "$exe" devnet governance mint "$address" --datadir "$work/devnet" >/dev/null
printf 'smoke passphrase' | env -i HOME="$home" TNV_DEVNET_DIR="$work/devnet" TN_PRIVATE_KEY="$key" "$exe" \
  stake --chain devnet --datadir "$work/validator" --through staked --yes --non-interactive \
  --bls-passphrase-source stdin --json | tail -n 1 | grep -q '"status":"Staked"'
echo "sea-smoke: keys, rpc plan and a devnet stake through $(basename "$exe") with an empty environment: ok"
