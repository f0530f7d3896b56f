// Agent Skills: finds `SKILL.md` files in the usual places, keeps only name, description and path for
// the static prompt, and reads bodies and bundled files on demand (never outside the skill's folder).
import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_DESCRIPTION, MAX_FRONT_MATTER, parseSkillFile, type SkillDiagnostic } from './frontmatter';
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
  /**
   * The folders a workspace's own settings name (a cloned repository's `.vscode/settings.json`): read
   * only inside the workspace and like its skill folders (no link leading out), as the user's are not.
   */
  workspaceExtraFolders?: string[];
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

/**
 * The most skill folders read under one root (collections hold tens). Each costs a parse of its front
 * matter at every discovery; a cloned repository can hold any number.
 */
export const MAX_SKILLS_PER_ROOT = 500;

/**
 * The most front matter parsed in one discovery, all roots together (a skill's takes one or two KB, so
 * hundreds fit). A worst-shaped 16 KB takes 20 to 60 ms to parse: 4 roots of 500 such SKILL.md files in a
 * cloned repository held every discovery, and so the start of every chat, for over a minute.
 */
export const MAX_FRONT_MATTER_TOTAL = 1024 * 1024;

/** The skill folders under one root: the root itself if it has a SKILL.md, else its sub-folders that have one. */
async function skillDirs(root: string): Promise<{ dirs: string[]; more: number }> {
  if (await isFile(path.join(root, SKILL_FILE))) return { dirs: [root], more: 0 };
  let entries: string[];
  try {
    entries = (await readdir(root)).sort();
  } catch {
    return { dirs: [], more: 0 };
  }
  const dirs: string[] = [];
  let more = 0;
  for (const e of entries) {
    if (!(await isFile(path.join(root, e, SKILL_FILE)))) continue;
    if (dirs.length < MAX_SKILLS_PER_ROOT) dirs.push(path.join(root, e));
    else more++;
  }
  return { dirs, more };
}

/**
 * The start of a SKILL.md, enough for its front matter: discovery runs when the workspace opens, and a
 * cloned repository's SKILL.md can be of any size.
 */
async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(MAX_FRONT_MATTER + 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return new TextDecoder().decode(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Why a skill of the workspace is not read, when its folder or its SKILL.md is a link leading outside
 * the workspace: a cloned repository's `.claude/skills/x -> ../../other-repo/.claude/skills/deploy`
 * would put that file's description in the prompt and make the whole folder readable by the agent.
 */
async function leadsOutside(dir: string, realWorkspace: string): Promise<string | undefined> {
  for (const p of [dir, path.join(dir, SKILL_FILE)]) {
    const real = await realpath(p).catch(() => undefined);
    if (real === undefined) return 'cannot be resolved';
    if (!isInside(realWorkspace, real))
      return `${p === dir ? 'the skill folder' : SKILL_FILE} is a link leading outside the workspace; skills of a workspace must lie inside it (your own go in ~/.claude/skills or contextDesk.skills.folders)`;
  }
  return undefined;
}

/** Finds every skill. Broken ones come back as diagnostics (file, line, problem) and are skipped. */
export async function discoverSkills(opts: DiscoverSkillsOptions): Promise<DiscoveredSkills> {
  const roots: string[] = [];
  if (opts.workspaceFolder) for (const r of WORKSPACE_SKILL_ROOTS) roots.push(path.join(opts.workspaceFolder, r));
  // The user's own folders (home, the setting) may link anywhere; a workspace opened at home is the user's too.
  const workspaceRoots = new Set(roots);
  if (opts.home) workspaceRoots.delete(path.join(opts.home, HOME_SKILL_ROOT));
  const realWorkspace = opts.workspaceFolder
    ? await realpath(opts.workspaceFolder).catch(() => path.resolve(opts.workspaceFolder!))
    : undefined;
  if (opts.home) roots.push(path.join(opts.home, HOME_SKILL_ROOT));
  for (const f of opts.extraFolders ?? []) roots.push(path.resolve(opts.workspaceFolder ?? '.', f));
  const result: DiscoveredSkills = { skills: [], diagnostics: [] };
  for (const f of opts.workspaceExtraFolders ?? []) {
    const root = path.resolve(opts.workspaceFolder ?? '.', f);
    if (opts.workspaceFolder === undefined || !isInside(path.resolve(opts.workspaceFolder), root)) {
      const message = `not read: contextDesk.skills.folders in this workspace's settings names a folder outside the workspace; only your user settings may`;
      result.diagnostics.push({ file: root, line: 0, column: 0, severity: 'warning', message });
      continue;
    }
    roots.push(root);
    workspaceRoots.add(root);
  }
  const byName = new Map<string, Skill>();
  let parsedChars = 0;
  let unread: { root: string; count: number } | undefined;
  for (const root of [...new Set(roots)]) {
    const { dirs, more } = await skillDirs(root);
    if (more > 0)
      result.diagnostics.push({
        file: root,
        line: 0,
        column: 0,
        severity: 'warning',
        message: `${more} more skill folders are not read: at most ${MAX_SKILLS_PER_ROOT} are read from one folder`,
      });
    for (const dir of dirs) {
      const file = path.join(dir, SKILL_FILE);
      const outside =
        realWorkspace !== undefined && workspaceRoots.has(root) ? await leadsOutside(dir, realWorkspace) : undefined;
      if (outside !== undefined) {
        result.diagnostics.push({ file, line: 0, column: 0, severity: 'warning', message: `not read: ${outside}` });
        continue;
      }
      if (parsedChars >= MAX_FRONT_MATTER_TOTAL) {
        unread ??= { root, count: 0 };
        unread.count++;
        continue;
      }
      let text: string;
      try {
        text = await readHead(file);
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
      parsedChars += parsed.bodyStart;
      for (const d of parsed.diagnostics) result.diagnostics.push(d);
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
  if (unread)
    result.diagnostics.push({
      file: unread.root,
      line: 0,
      column: 0,
      severity: 'warning',
      message: `${unread.count} more skill folders are not read: discovery reads at most ${MAX_FRONT_MATTER_TOTAL / 1024 / 1024} MB of front matter in all`,
    });
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

/**
 * The most characters of skill lines in the static prompt, which every model call sends: a repository
 * with thousands of skills would otherwise make each call cost megabytes.
 */
export const MAX_SKILLS_PROMPT = 16_000;

/** The static prompt text: name, description and path of each skill only, up to `MAX_SKILLS_PROMPT`. */
export function renderSkillsPrompt(skills: readonly Skill[], relativeTo?: string): string {
  if (skills.length === 0) return '';
  const shown = (file: string): string =>
    relativeTo && !path.relative(relativeTo, file).startsWith('..')
      ? path.relative(relativeTo, file).split(path.sep).join('/')
      : file;
  const lines = [
    'Agent skills (read the SKILL.md of a skill when the task matches its description; it may point to more files):',
  ];
  let used = 0;
  const left: Skill[] = [];
  for (const s of skills) {
    const flat = s.description.replace(/\s+/g, ' ');
    const d = flat.slice(0, secretSafeCut(flat, MAX_DESCRIPTION));
    const line = `- ${s.name}: ${d} (${shown(s.file)})`;
    if (left.length > 0 || used + line.length > MAX_SKILLS_PROMPT) left.push(s);
    else {
      lines.push(line);
      used += line.length + 1;
    }
  }
  if (left.length > 0) {
    const roots = [...new Set(left.map((s) => shown(s.root)))].slice(0, 5);
    lines.push(
      `- ${left.length} more skills are not listed here (to keep this prompt short); their SKILL.md files are under ${roots.join(', ')}`,
    );
  }
  return lines.join('\n');
}
