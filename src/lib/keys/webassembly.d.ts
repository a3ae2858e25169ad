/**
 * The part of the WebAssembly JavaScript API that tnv uses (blst.ts). TypeScript declares it
 * only in its DOM library, which a Node.js program does not include; Node 20 has the API itself.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array)
    static imports(module: Module): { module: string; name: string; kind: string }[]
    static exports(module: Module): { name: string; kind: string }[]
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>)
    readonly exports: Record<string, unknown>
  }
  class Memory {
    readonly buffer: ArrayBuffer
  }
  class Global {
    value: unknown
  }
}
