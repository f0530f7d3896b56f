// A Codex fork's or sub-agent's rollout starts with a copy of its parent's, and where that copy ends is
// written nowhere when Codex minted turn ids that are not UUIDv7. The parent's own rollout shows it: the
// copy is that file's records as they were at the fork. Codex names rollouts `rollout-<time>-<session
// id>.jsonl` under `sessions/YYYY/MM/DD/`, so the parent is looked for by its id in that tree (or beside
// the file when it is not in one).
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { codex, readCodex, unmarkedForkParent } from '../formats/codex';
import type { ImportedRun, Importer } from '../importer';
import { Notes } from '../notes';
import { readSource, type Input } from './source';

/** The folder Codex's dated rollout tree starts at, or the file's own folder. */
function sessionsRoot(file: string): string {
  const day = dirname(file);
  const month = dirname(day);
  const year = dirname(month);
  const dated = /^\d{2}$/.test(basename(day)) && /^\d{2}$/.test(basename(month)) && /^\d{4}$/.test(basename(year));
  return dated ? dirname(year) : day;
}

async function findRollout(root: string, session: string): Promise<string | undefined> {
  const suffix = `-${session}.jsonl`;
  let names: string[];
  try {
    names = await readdir(root, { recursive: true });
  } catch {
    return undefined;
  }
  const hit = names.find((n) => basename(n).startsWith('rollout-') && n.endsWith(suffix));
  return hit === undefined ? undefined : join(root, hit);
}

/**
 * Reads a Codex rollout again with its parent's records when its copy of the parent has no marked end
 * and the parent's rollout is found; otherwise keeps what was read (the copy's calls refused, said).
 */
export async function withCodexParent(
  file: string,
  input: Input,
  imported: { runs: ImportedRun[]; notes: Notes; importer: Importer },
): Promise<{ runs: ImportedRun[]; notes: Notes; importer: Importer }> {
  if (imported.importer !== codex) return imported;
  const parent = unmarkedForkParent(input);
  if (parent === undefined || !/^[\w-]{1,100}$/.test(parent)) return imported;
  const found = await findRollout(sessionsRoot(file), parent);
  if (found === undefined || found === file) return imported;
  let records;
  try {
    const read = await readSource(found);
    if (read.kind !== 'lines') return imported;
    records = read.records;
  } catch {
    return imported;
  }
  const notes = new Notes();
  const runs = readCodex(input, notes, records).filter((r) => r.calls.length > 0);
  return runs.length > 0 ? { runs, notes, importer: codex } : imported;
}
