// Loads tiktoken's WASM synchronously from files we choose, as a generation that can be dropped whole.
//
// Why not `import 'tiktoken'`: its loader looks for tiktoken_bg.wasm only next to its own file, which
// breaks once esbuild bundles the extension; and its bindings module keeps one WASM instance for the
// life of the process. A WASM memory never shrinks: the ~50-70 MB an encoding's tables take stay
// resident after `free()` (measured, README). So every generation evaluates its own copy of the
// bindings (tiktoken_bg.cjs, which caches views of *its* instance's memory) with its own instance;
// when the last encoding of a generation is freed, dropping the generation lets the whole memory go.
//   - under node (CLI, tests) the files come from `require.resolve('tiktoken/tiktoken_bg.wasm')`;
//   - in the bundled extension that resolve fails, and the caller passes the path of the copies that
//     the build puts next to the bundle: `setTiktokenWasmPath(path.join(context.extensionPath, 'dist',
//     'tiktoken_bg.wasm'))` before the first count; tiktoken_bg.cjs is expected beside it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compileFunction } from 'node:vm';
import type * as Bindings from 'tiktoken/init';

export type TiktokenBindings = Pick<typeof Bindings, 'get_encoding'>;

let wasmPath: string | undefined;

/** Where to read tiktoken_bg.wasm (and tiktoken_bg.cjs beside it) when node cannot resolve them. */
export function setTiktokenWasmPath(file: string): void {
  wasmPath = file;
}

function resolveWasm(): string {
  try {
    return require.resolve('tiktoken/tiktoken_bg.wasm');
  } catch {
    if (wasmPath !== undefined) return wasmPath;
    throw new Error(
      'tiktoken_bg.wasm not found: node cannot resolve tiktoken/tiktoken_bg.wasm; call setTiktokenWasmPath() with the path of the copy shipped next to the bundle',
    );
  }
}

// The core's lib has no DOM types, and @types/node 20 does not declare WebAssembly: the little we use.
type WasmExports = Record<string, unknown>;
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, unknown>) => { exports: WasmExports };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

function read(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`cannot read tiktoken ${what} at ${file}: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
}

/** The folder of tiktoken_bg.wasm (the build puts tiktoken's ranks files beside it, bpe.ts). */
export function tiktokenDir(): string {
  return path.dirname(resolveWasm());
}

/** A fresh copy of tiktoken's bindings over a fresh WASM instance; unreachable once dropped. */
export function loadTiktokenGeneration(): TiktokenBindings {
  const wasm = resolveWasm();
  const glue = path.join(path.dirname(wasm), 'tiktoken_bg.cjs');
  const module = { exports: {} as Record<string, unknown> };
  const source = read(glue, 'bindings').toString('utf8');
  compileFunction(source, ['module', 'exports', 'require'], { filename: glue })(module, module.exports, require);
  const bindings = module.exports as unknown as TiktokenBindings & { __wbg_set_wasm(e: WasmExports): void };
  const instance = new wasmApi.Instance(new wasmApi.Module(read(wasm, 'WASM')), { './tiktoken_bg.js': bindings });
  bindings.__wbg_set_wasm(instance.exports);
  return bindings;
}
