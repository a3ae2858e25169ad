/**
 * A Node.js built-in module loaded on its first use, where a static import would load it when
 * the module is, for every command: node:os for a home directory that HOME nearly always gives
 * (about 0.3 ms). `process.getBuiltinModule` (Node 20.16 and later, the single executable's
 * included) needs no module URL; before 20.16, only the CommonJS bundles of the direct path
 * (dist/launch.cjs, dist/run/) use this, with their module's own `require`.
 */
type WithBuiltins = { getBuiltinModule?: (id: string) => unknown }

export function builtinModule<T>(id: `node:${string}`): T {
  return ((process as WithBuiltins).getBuiltinModule?.(id) ?? require(id)) as T
}
