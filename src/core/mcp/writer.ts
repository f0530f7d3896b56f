// Writes the server folders atomically (temp file + rename: a reader never sees half a file), skips
// files whose content did not change (no watcher churn), and removes tools and servers that vanished.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { renderIndexMd, renderServerMd, renderToolJson } from './render';
import type { McpServerState } from './types';
import { redactSecrets } from '../store/sanitize/secrets';

export const SERVER_FILE = 'SERVER.md';
export const INDEX_FILE = 'INDEX.md';

/** Writes `text` to `file` via a temp file in the same folder and a rename. Returns false when unchanged. */
export async function writeFileAtomic(file: string, raw: string): Promise<boolean> {
  // Server names, descriptions, instructions and stderr are the server's text: secrets in them never reach disk.
  const text = (await redactSecrets(raw)).text;
  try {
    if ((await readFile(file, 'utf8')) === text) return false;
  } catch {
    // Missing or unreadable: write it.
  }
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return true;
}

/** Writes one server's folder: its tool files and SERVER.md; removes tool files that are no longer listed. */
export async function writeServerFolder(mcpDir: string, s: McpServerState): Promise<void> {
  const dir = path.join(mcpDir, s.folderName);
  // The folder name is sanitized; this guards against a bug ever writing outside <out>/mcp.
  if (path.dirname(dir) !== path.resolve(mcpDir))
    throw new Error(`refusing to write outside ${mcpDir}: ${s.folderName}`);
  await mkdir(dir, { recursive: true });
  const keep = new Set([SERVER_FILE]);
  for (const t of s.tools) {
    if (path.basename(t.fileName) !== t.fileName) throw new Error(`unsafe tool file name ${t.fileName}`);
    keep.add(t.fileName);
    await writeFileAtomic(path.join(dir, t.fileName), renderToolJson(t.tool, t));
  }
  for (const f of await readdir(dir)) {
    if (!keep.has(f) && (f.endsWith('.json') || f.endsWith('.tmp'))) await rm(path.join(dir, f), { force: true });
  }
  await writeFileAtomic(path.join(dir, SERVER_FILE), renderServerMd(s));
}

/**
 * Writes INDEX.md and removes folders of servers that are gone. Only folders holding a SERVER.md are
 * removed: anything else a user put under `<out>/mcp` stays.
 */
export async function writeIndex(mcpDir: string, servers: readonly McpServerState[]): Promise<void> {
  await mkdir(mcpDir, { recursive: true });
  const current = new Set(servers.map((s) => s.folderName));
  for (const entry of await readdir(mcpDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || current.has(entry.name)) continue;
    const dir = path.join(mcpDir, entry.name);
    const ours = await stat(path.join(dir, SERVER_FILE)).then(
      () => true,
      () => false,
    );
    if (ours) await rm(dir, { recursive: true, force: true });
  }
  await writeFileAtomic(path.join(mcpDir, INDEX_FILE), renderIndexMd(servers));
}
