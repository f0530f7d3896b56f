// Agent Skills: finds `SKILL.md` files in the usual places, keeps only name, description and path for
// the static prompt, and reads bodies and bundled files on demand (never outside the skill's folder).
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_DESCRIPTION, parseSkillFile, type SkillDiagnostic } from './frontmatter';
import { secretSafeCut } from '../store/sanitize/secrets';

/** Skill folders inside a workspace, in precedence order (the first skill of a name wins). */
export const WORKSPACE_SKILL_ROOTS = ['.agents/skills', '.claude/skills', '.cursor/skills', '.github/skills'] as const;
/** Skill folder in the user's home directory. */
export const HOME_SKILL_ROOT = '.claude/skills';
export const SKILL_FILE = 'SKILL.md';

export interface Skill {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md. */
  file: string;
  /** The skill's folder (bundled files live here). */
  dir: string;
  /** The folder the skill was found under. */
  root: string;
}

export interface DiscoverSkillsOptions {
  workspaceFolder?: string;
  /** The user's home directory (injectable for tests); `~/.claude/skills` is searched when given. */
  home?: string;
  /** More folders (the setting): each is a skill folder itself or holds skill folders. */
  extraFolders?: string[];
}

export interface DiscoveredSkills {
  skills: Skill[];
  diagnostics: SkillDiagnostic[];
}

async function isFile(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The skill folders under one root: the root itself if it has a SKILL.md, else its sub-folders that have one. */
async function skillDirs(root: string): Promise<string[]> {
  if (await isFile(path.join(root, SKILL_FILE))) return [root];
  let entries: string[];
  try {
    entries = (await readdir(root)).sort();
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const e of entries) if (await isFile(path.join(root, e, SKILL_FILE))) dirs.push(path.join(root, e));
  return dirs;
}

/** Finds every skill. Broken ones come back as diagnostics (file, line, problem) and are skipped. */
export async function discoverSkills(opts: DiscoverSkillsOptions): Promise<DiscoveredSkills> {
  const roots: string[] = [];
  if (opts.workspaceFolder) for (const r of WORKSPACE_SKILL_ROOTS) roots.push(path.join(opts.workspaceFolder, r));
  if (opts.home) roots.push(path.join(opts.home, HOME_SKILL_ROOT));
  for (const f of opts.extraFolders ?? []) roots.push(path.resolve(opts.workspaceFolder ?? '.', f));
  const result: DiscoveredSkills = { skills: [], diagnostics: [] };
  const byName = new Map<string, Skill>();
  for (const root of [...new Set(roots)]) {
    for (const dir of await skillDirs(root)) {
      const file = path.join(dir, SKILL_FILE);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        result.diagnostics.push({
          file,
          line: 0,
          column: 0,
          severity: 'error',
          message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
        });
        continue;
      }
      const parsed = parseSkillFile(text, file, path.basename(dir));
      result.diagnostics.push(...parsed.diagnostics);
      if (
        parsed.name === undefined ||
        parsed.description === undefined ||
        parsed.diagnostics.some((d) => d.severity === 'error')
      )
        continue;
      const first = byName.get(parsed.name);
      if (first) {
        result.diagnostics.push({
          file,
          line: 1,
          column: 1,
          severity: 'warning',
          message: `a skill named '${parsed.name}' was already found at ${first.file}; this one is skipped`,
        });
        continue;
      }
      const skill: Skill = { name: parsed.name, description: parsed.description, file, dir, root };
      byName.set(skill.name, skill);
      result.skills.push(skill);
    }
  }
  return result;
}

export class SkillPathError extends Error {}

/** Resolves a path inside the skill's folder, refusing `..`, absolute paths and symlinks that lead outside. */
export async function resolveSkillPath(skill: Skill, relative: string): Promise<string> {
  if (relative.includes('\0')) throw new SkillPathError('the path contains a NUL character');
  const target = path.resolve(skill.dir, relative);
  const inside = (base: string, p: string): boolean => {
    const rel = path.relative(base, p);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  if (path.isAbsolute(relative) || !inside(skill.dir, target))
    throw new SkillPathError(`'${relative}' is outside the skill '${skill.name}'`);
  const [realDir, realTarget] = await Promise.all([realpath(skill.dir), realpath(target)]).catch(
    (e: NodeJS.ErrnoException) => {
      throw new SkillPathError(`'${relative}' does not exist in the skill '${skill.name}' (${e.code ?? e.message})`);
    },
  );
  if (!inside(realDir, realTarget)) throw new SkillPathError(`'${relative}' leads outside the skill '${skill.name}'`);
  return realTarget;
}

/** Reads a file of a skill by relative path (default: SKILL.md). Throws SkillPathError on traversal. */
export async function readSkillFile(skill: Skill, relative = SKILL_FILE): Promise<string> {
  return readFile(await resolveSkillPath(skill, relative), 'utf8');
}

/** The body of SKILL.md (without front matter): what the agent reads when it uses the skill. */
export async function readSkillBody(skill: Skill): Promise<string> {
  const text = await readSkillFile(skill);
  return text.slice(parseSkillFile(text, skill.file).bodyStart);
}

/** The files bundled with a skill (relative paths, at most `limit`, dot-folders and node_modules skipped). */
export async function listSkillFiles(skill: Skill, limit = 200): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (out.length >= limit) return;
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(path.relative(skill.dir, p).split(path.sep).join('/'));
    }
  };
  await walk(skill.dir);
  return out.sort();
}

/** The static prompt text: name, description and path of each skill only. */
export function renderSkillsPrompt(skills: readonly Skill[], relativeTo?: string): string {
  if (skills.length === 0) return '';
  const lines = [
    'Agent skills (read the SKILL.md of a skill when the task matches its description; it may point to more files):',
  ];
  for (const s of skills) {
    const where =
      relativeTo && !path.relative(relativeTo, s.file).startsWith('..')
        ? path.relative(relativeTo, s.file).split(path.sep).join('/')
        : s.file;
    const flat = s.description.replace(/\s+/g, ' ');
    const d = flat.slice(0, secretSafeCut(flat, MAX_DESCRIPTION));
    lines.push(`- ${s.name}: ${d} (${where})`);
  }
  return lines.join('\n');
}
