// Writes the server folders through the store writer (atomic replace, no link ever followed, every
// text redacted), skips files whose content did not change (no watcher churn), and removes only files
// the sync itself names: tool JSON files of tools that vanished, folders of servers that are gone.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { StoreWriter } from '../store/store-writer';
import { renderIndexMd, renderServerMd, toolJsonValue } from './render';
import type { McpServerState } from './types';

export const SERVER_FILE = 'SERVER.md';
export const INDEX_FILE = 'INDEX.md';

/** A tool file name the sync writes: a sanitized name (see names.ts) plus `.json`. */
const TOOL_FILE = /^[A-Za-z0-9_][A-Za-z0-9._~-]*\.json$/;

/** Writes one server's folder: its tool files and SERVER.md; removes tool files that are no longer listed. */
export async function writeServerFolder(writer: StoreWriter, mcpDir: string, s: McpServerState): Promise<void> {
  const dir = path.join(mcpDir, s.folderName);
  // The folder name is sanitized; this guards against a bug ever writing outside <out>/mcp.
  if (path.dirname(dir) !== path.resolve(mcpDir))
    throw new Error(`refusing to write outside ${mcpDir}: ${s.folderName}`);
  await writer.mkdir(dir);
  // Names compare without case: where the disk ignores it, a tool renamed `Search` -> `search` is written
  // into the file still listed as `Search.json`, which must not then be removed as a vanished tool's.
  const keep = new Set([SERVER_FILE.toLowerCase()]);
  for (const t of s.tools) {
    if (path.basename(t.fileName) !== t.fileName) throw new Error(`unsafe tool file name ${t.fileName}`);
    keep.add(t.fileName.toLowerCase());
    await writer.writeJson(path.join(dir, t.fileName), toolJsonValue(t.tool, t), { ifChanged: true });
  }
  for (const e of await readdir(dir, { withFileTypes: true }))
    if (e.isFile() && !keep.has(e.name.toLowerCase()) && TOOL_FILE.test(e.name))
      await writer.remove(path.join(dir, e.name));
  await writer.writeFile(path.join(dir, SERVER_FILE), renderServerMd(s), { ifChanged: true });
}

/**
 * Writes INDEX.md and removes folders of servers that are gone. Only real folders holding a SERVER.md
 * are removed (never through a link): anything else under `<out>/mcp` stays.
 */
export async function writeIndex(
  writer: StoreWriter,
  mcpDir: string,
  servers: readonly McpServerState[],
): Promise<void> {
  await writer.mkdir(mcpDir);
  // Without case, as tool files: a server renamed `GitHub` -> `github` has just been written into `GitHub/`.
  const current = new Set(servers.map((s) => s.folderName.toLowerCase()));
  for (const entry of await readdir(mcpDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || current.has(entry.name.toLowerCase())) continue;
    const dir = path.join(mcpDir, entry.name);
    const ours = await readdir(dir, { withFileTypes: true }).then(
      (es) => es.some((e) => e.name === SERVER_FILE && e.isFile()),
      () => false,
    );
    if (ours) await writer.removeTree(dir);
  }
  await writer.writeFile(path.join(mcpDir, INDEX_FILE), renderIndexMd(servers), { ifChanged: true });
}
