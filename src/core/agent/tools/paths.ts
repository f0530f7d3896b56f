// Path safety for the agent's tools: a path must lie inside the workspace root or the store, both as
// written (no `..` escapes, no absolute paths elsewhere) and after symlinks are resolved.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

export interface PathRoots {
  workspaceRoot: string;
  /** The Context Desk store (often `<workspace>/.context-desk`, may be elsewhere). */
  storeRoot?: string;
}

export type ResolvedPath = { ok: true; absolute: string; display: string } | { ok: false; message: string };

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** realpath of the path, or of its nearest existing ancestor joined with the rest (for new files). */
async function realish(p: string): Promise<string> {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fsp.realpath(current), ...rest);
    } catch (e) {
      const parent = path.dirname(current);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw e;
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

export class PathGuard {
  private readonly roots: string[];
  private realRoots: Promise<string[]> | undefined;

  constructor(private readonly r: PathRoots) {
    this.roots = [path.resolve(r.workspaceRoot), ...(r.storeRoot ? [path.resolve(r.storeRoot)] : [])];
  }

  get workspaceRoot(): string {
    return this.roots[0]!;
  }

  get storeRoot(): string | undefined {
    return this.roots[1];
  }

  private describeRoots(): string {
    return this.r.storeRoot ? 'the workspace or the Context Desk store' : 'the workspace';
  }

  /** Resolves a path the model gave (relative to the workspace, or absolute) or says why it is refused. */
  async resolve(input: unknown): Promise<ResolvedPath> {
    if (typeof input !== 'string' || input.trim() === '') return { ok: false, message: 'The path is empty.' };
    if (input.includes('\0')) return { ok: false, message: 'The path contains a NUL byte.' };
    const absolute = path.resolve(this.workspaceRoot, input);
    const refused = (why: string): ResolvedPath => ({
      ok: false,
      message: `Refused: "${input}" ${why}. Only paths inside ${this.describeRoots()} can be used (relative to ${this.workspaceRoot}).`,
    });
    if (!this.roots.some((root) => inside(root, absolute))) return refused('is outside');
    let real: string;
    try {
      real = await realish(absolute);
    } catch (e) {
      return { ok: false, message: `Cannot resolve "${input}": ${(e as Error).message}` };
    }
    this.realRoots ??= Promise.all(this.roots.map((root) => realish(root)));
    const realRoots = await this.realRoots;
    if (!realRoots.some((root) => inside(root, real))) return refused('leads outside through a symbolic link');
    const rel = path.relative(this.workspaceRoot, absolute);
    const display = inside(this.workspaceRoot, absolute) ? rel.split(path.sep).join('/') || '.' : absolute;
    return { ok: true, absolute: real, display };
  }
}
