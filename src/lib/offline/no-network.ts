/**
 * The network guard of `tnv offline sign`: once installed, every way this process could open a
 * socket (TCP and TLS connections, UDP sockets, HTTP(S) requests, DNS lookups, fetch,
 * WebSocket) throws NetworkForbiddenError instead, so a bug that reaches for the network fails
 * loudly rather than leaking a signature or a key. Installed before any file is read.
 */
import dgram from 'node:dgram'
import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import tls from 'node:tls'
import { NetworkForbiddenError } from './errors.js'

function refuse(what: string) {
  return () => {
    throw new NetworkForbiddenError(what)
  }
}

function replace(target: object, key: string, what: string): void {
  Object.defineProperty(target, key, { value: refuse(what), configurable: true, writable: true })
}

/**
 * @example forbidNetwork(); // from here on, net.connect(…) throws NetworkForbiddenError
 */
export function forbidNetwork(): void {
  replace(net.Socket.prototype, 'connect', 'a TCP connection')
  replace(net, 'connect', 'net.connect')
  replace(net, 'createConnection', 'net.createConnection')
  replace(tls, 'connect', 'a TLS connection')
  replace(dgram, 'createSocket', 'a UDP socket')
  replace(http, 'request', 'an HTTP request')
  replace(http, 'get', 'an HTTP request')
  replace(https, 'request', 'an HTTPS request')
  replace(https, 'get', 'an HTTPS request')
  replace(dns, 'lookup', 'a DNS lookup')
  replace(dns, 'resolve', 'a DNS lookup')
  replace(dns.promises, 'lookup', 'a DNS lookup')
  replace(globalThis, 'fetch', 'fetch')
  if ('WebSocket' in globalThis) replace(globalThis, 'WebSocket', 'a WebSocket')
  // `import { connect } from 'node:net'` in modules loaded later sees the guard too
  syncBuiltinESMExports()
}
