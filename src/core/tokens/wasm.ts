// Loads tiktoken's WASM once per process, synchronously, from a path we choose.
//
// Why not `import 'tiktoken'`: its loader looks for tiktoken_bg.wasm only next to its own file, which
// breaks once esbuild bundles the extension. `tiktoken/init` exposes the bindings without loading
// anything, so we instantiate the module ourselves:
//   - under node (CLI, tests) the path comes from `require.resolve('tiktoken/tiktoken_bg.wasm')`;
//   - in the bundled extension that resolve fails, and the caller passes the path of the copy that the
//     build puts next to the bundle: `setTiktokenWasmPath(path.join(context.extensionPath, 'dist',
//     'tiktoken_bg.wasm'))` before the first `createTokenizer`.
// The bindings keep one module-level instance: instantiating twice would orphan live encoders, so we
// never do (and reuse an instance that `import 'tiktoken'` already made).
import { readFileSync } from 'node:fs';
import * as bindings from 'tiktoken/init';

let wasmPath: string | undefined;
let loaded = false;

/** Where to read tiktoken_bg.wasm when node cannot resolve it (the bundled extension). */
export function setTiktokenWasmPath(path: string): void {
  wasmPath = path;
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

interface WasmBindings {
  __wbg_set_wasm(exports: WasmExports): void;
}

/** True when something else (e.g. `import 'tiktoken'`) already instantiated the shared bindings. */
function alreadyInstantiated(): boolean {
  try {
    bindings.get_encoding_name_for_model('gpt-4o');
    return true;
  } catch {
    return false;
  }
}

/** The tiktoken bindings, with the WASM instantiated on first use. */
export function tiktoken(): typeof bindings {
  if (!loaded && alreadyInstantiated()) loaded = true;
  if (!loaded) {
    const file = resolveWasm();
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      throw new Error(`cannot read tiktoken WASM at ${file}: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    const instance = new wasmApi.Instance(new wasmApi.Module(bytes), { './tiktoken_bg.js': bindings });
    (bindings as unknown as WasmBindings).__wbg_set_wasm(instance.exports);
    loaded = true;
  }
  return bindings;
}
