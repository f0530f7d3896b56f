import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  discoverSkills,
  listSkillFiles,
  readSkillBody,
  readSkillFile,
  renderSkillsPrompt,
  MAX_FRONT_MATTER_TOTAL,
  SkillPathError,
} from '../../../src/core/skills';
import { parseSkillFile } from '../../../src/core/skills';
import { assertQuick } from '../../support/linear-time';

const FIX = path.resolve(__dirname, '../../fixtures/skills');
const WS = path.join(FIX, 'workspace');
const opts = {
  workspaceFolder: WS,
  home: path.join(FIX, 'home'),
  extraFolders: [path.join(FIX, 'extra', 'one-skill')],
};

test('skills are found in every root, in precedence order; broken ones are diagnosed and skipped', async () => {
  const { skills, diagnostics } = await discoverSkills(opts);
  assert.deepEqual(
    skills.map((s) => s.name),
    ['pdf-tools', 'code-review', 'home-skill', 'Extra Skill'],
  );
  assert.equal(skills[0]!.file, path.join(WS, '.agents/skills/pdf-tools/SKILL.md'));
  assert.equal(skills[1]!.description, 'Review a diff for bugs, naming and missing tests.');
  const d = (dir: string) =>
    diagnostics.filter((x) => x.file.includes(`/${dir}/`)).map((x) => `${x.severity}@${x.line}: ${x.message}`);
  assert.deepEqual(d('broken-yaml').length, 1);
  assert.match(d('broken-yaml')[0]!, /^error@3: invalid YAML in the front matter: Flow sequence .* end with a \]$/);
  assert.deepEqual(d('unclosed'), ['error@1: the front matter is not closed by a "---" line']);
  assert.deepEqual(d('no-description'), ['error@2: the front matter has no "description"']);
  assert.match(d('no-frontmatter')[0]!, /^error@1: SKILL.md must start with YAML front matter/);
  assert.match(
    diagnostics.find((x) => x.file.includes('.claude/skills/pdf-tools'))!.message,
    /already found at .*\.agents\/skills\/pdf-tools/,
  );
  const extra = d('one-skill');
  assert.ok(extra.some((m) => /^warning@2: "name" should be at most 64 lower-case/.test(m)));
  assert.ok(extra.some((m) => /differs from its folder name \(one-skill\)/.test(m)));
});

test('without a home folder the home skills are absent', async () => {
  const { skills } = await discoverSkills({ workspaceFolder: WS });
  assert.ok(!skills.some((s) => s.name === 'home-skill'));
  assert.deepEqual(await discoverSkills({ workspaceFolder: path.join(FIX, 'nope') }), { skills: [], diagnostics: [] });
});

test('the static prompt carries name, description and path only', async () => {
  const { skills } = await discoverSkills(opts);
  const prompt = renderSkillsPrompt(skills, WS);
  assert.match(
    prompt,
    /^- pdf-tools: Extract text and tables from PDF files\. Use when the user mentions PDFs\. \(\.agents\/skills\/pdf-tools\/SKILL\.md\)$/m,
  );
  assert.ok(!prompt.includes('Run `scripts/extract.py'), 'no body in the prompt');
  assert.equal(renderSkillsPrompt([]), '');
});

test('bodies and bundled files are read on demand; traversal is refused', async () => {
  const { skills } = await discoverSkills(opts);
  const pdf = skills[0]!;
  assert.equal(
    await readSkillBody(pdf),
    '# PDF tools\n\nRun `scripts/extract.py FILE` and read `reference.md` for table options.\n',
  );
  assert.equal(await readSkillFile(pdf, 'reference.md'), '# Reference: tables\n');
  assert.deepEqual(await listSkillFiles(pdf), ['SKILL.md', 'reference.md', 'scripts/extract.py']);
  for (const bad of ['../code-review/SKILL.md', '/etc/passwd', '../../../../../../etc/passwd', 'scripts/../../x']) {
    await assert.rejects(readSkillFile(pdf, bad), SkillPathError, bad);
  }
  await assert.rejects(readSkillFile(pdf, 'missing.md'), /does not exist in the skill 'pdf-tools'/);
});

test('a symlink leading out of the skill folder is refused', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-skills-'));
  try {
    const skillDir = path.join(dir, '.agents/skills/s');
    await mkdir(skillDir, { recursive: true });
    await writeFile(path.join(skillDir, 'SKILL.md'), '---\nname: s\ndescription: d\n---\n');
    await writeFile(path.join(dir, 'secret.txt'), 'secret');
    await symlink(path.join(dir, 'secret.txt'), path.join(skillDir, 'link.txt'));
    const { skills } = await discoverSkills({ workspaceFolder: dir });
    await assert.rejects(readSkillFile(skills[0]!, 'link.txt'), /leads outside the skill/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a workspace's skill folder or SKILL.md linking outside the workspace is not read; links inside are", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-skills-'));
  try {
    const ws = path.join(dir, 'ws');
    const other = path.join(dir, 'other-repo/.claude/skills/deploy');
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, 'SKILL.md'), '---\nname: deploy\ndescription: private deploy steps\n---\n');
    await writeFile(path.join(other, 'prod.env'), 'TOKEN=x');
    await writeFile(path.join(dir, 'note.md'), '---\nname: note\ndescription: a private note\n---\n');
    const skills = path.join(ws, '.claude/skills');
    await mkdir(path.join(skills, 'note'), { recursive: true });
    await mkdir(path.join(ws, 'shared/inside'), { recursive: true });
    await writeFile(path.join(ws, 'shared/inside/SKILL.md'), '---\nname: inside\ndescription: d\n---\n');
    // A cloned repository's links: a relative one to a sibling clone, an absolute one to a file.
    await symlink('../../../other-repo/.claude/skills/deploy', path.join(skills, 'deploy'));
    await symlink(path.join(dir, 'note.md'), path.join(skills, 'note/SKILL.md'));
    await symlink('../../shared/inside', path.join(skills, 'inside'));
    const home = path.join(dir, 'home');
    await mkdir(path.join(home, '.claude/skills'), { recursive: true });
    await symlink(other, path.join(home, '.claude/skills/deploy'));
    const found = await discoverSkills({ workspaceFolder: ws });
    assert.deepEqual(
      found.skills.map((s) => s.name),
      ['inside'],
    );
    assert.deepEqual(
      found.diagnostics.map((d) => [path.relative(ws, d.file), d.message.split(';')[0]]),
      [
        ['.claude/skills/deploy/SKILL.md', 'not read: the skill folder is a link leading outside the workspace'],
        ['.claude/skills/note/SKILL.md', 'not read: SKILL.md is a link leading outside the workspace'],
      ],
    );
    assert.doesNotMatch(renderSkillsPrompt(found.skills, ws), /private/);
    // The user's own home skills may link anywhere.
    const withHome = await discoverSkills({ workspaceFolder: ws, home });
    assert.deepEqual(
      withHome.skills.map((s) => s.name),
      ['inside', 'deploy'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a workspace's own contextDesk.skills.folders is read only inside it and with no link out; the user's may name any", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-skills-'));
  try {
    const ws = path.join(dir, 'ws');
    const other = path.join(dir, 'other-repo/.claude/skills');
    await mkdir(path.join(other, 'deploy'), { recursive: true });
    await writeFile(path.join(other, 'deploy/SKILL.md'), '---\nname: deploy\ndescription: private deploy steps\n---\n');
    await mkdir(path.join(ws, 'tools/skills/lint'), { recursive: true });
    await writeFile(path.join(ws, 'tools/skills/lint/SKILL.md'), '---\nname: lint\ndescription: d\n---\n');
    await symlink('../other-repo/.claude/skills', path.join(ws, 'vendor'));
    // A cloned repository's .vscode/settings.json: a sibling clone, by relative and absolute path, and a link.
    const named = ['../other-repo/.claude/skills', other, 'tools/skills', 'vendor'];
    const found = await discoverSkills({ workspaceFolder: ws, workspaceExtraFolders: named });
    assert.deepEqual(
      found.skills.map((s) => s.name),
      ['lint'],
    );
    assert.deepEqual(
      found.diagnostics.map((d) => [path.relative(ws, d.file), d.message.split(';')[0]]),
      [
        [
          '../other-repo/.claude/skills',
          "not read: contextDesk.skills.folders in this workspace's settings names a folder outside the workspace",
        ],
        [
          '../other-repo/.claude/skills',
          "not read: contextDesk.skills.folders in this workspace's settings names a folder outside the workspace",
        ],
        ['vendor/deploy/SKILL.md', 'not read: the skill folder is a link leading outside the workspace'],
      ],
    );
    // The same folder in the user's own settings is read.
    const mine = await discoverSkills({ workspaceFolder: ws, extraFolders: ['../other-repo/.claude/skills'] });
    assert.deepEqual(
      mine.skills.map((s) => s.name),
      ['deploy'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('front matter parsing: wrong types, non-mappings, duplicate keys; never throws', () => {
  const p = (t: string) => parseSkillFile(t, 'S.md').diagnostics.map((d) => `${d.line}:${d.message}`);
  assert.deepEqual(p('---\nname: 3\ndescription: ok\n---\n'), ['2:"name" must be a non-empty string']);
  assert.deepEqual(p('---\n- a\n- b\n---\n'), [
    '2:the front matter must be a mapping of fields (name: ..., description: ...)',
  ]);
  assert.match(p('---\nname: a\nname: b\ndescription: d\n---\n')[0]!, /^3:invalid YAML.*Map keys must be unique/);
  assert.deepEqual(p('\ufeff---\r\nname: a\r\ndescription: d\r\n---\r\nbody'), []);
  fc.assert(fc.property(fc.string(), (s) => void parseSkillFile(s, 'x')));
  fc.assert(fc.property(fc.string(), (s) => void parseSkillFile(`---\n${s}\n---\n`, 'x')));
});

/** A workspace whose `.agents/skills` holds the given SKILL.md texts, one folder each. */
async function withSkills(texts: Record<string, string>, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-skills-'));
  try {
    for (const [name, text] of Object.entries(texts)) {
      await mkdir(path.join(dir, '.agents/skills', name), { recursive: true });
      await writeFile(path.join(dir, '.agents/skills', name, 'SKILL.md'), text);
    }
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("a cloned repository's hostile SKILL.md files are diagnosed quickly and never throw", async () => {
  // 200,000 keys held discovery for minutes (YAML's repeated-key check is quadratic); an alias bomb threw
  // out of discovery; a file of repeated keys made a diagnostic per key.
  const keys = Array.from({ length: 200_000 }, (_, i) => `k${i}: v`).join('\n');
  const laughs = [
    'a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]',
    ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${`*${'abcdefg'[i]}, `.repeat(9)}]`),
  ];
  const texts = {
    keys: `---\nname: keys\ndescription: d\n${keys}\n---\nbody`,
    laughs: `---\nname: laughs\ndescription: d\n${laughs.join('\n')}\n---\nbody`,
    repeats: `---\nname: repeats\ndescription: d\n${'k: v\n'.repeat(1000)}---\nbody`,
    long: `---\nname: long\ndescription: d\n---\n${'body line\n'.repeat(2_000_000)}`,
  };
  await withSkills(texts, async (dir) => {
    const started = performance.now();
    const { skills, diagnostics } = await discoverSkills({ workspaceFolder: dir });
    assertQuick(started);
    assert.deepEqual(
      skills.map((s) => s.name),
      ['long'],
      'a long body is fine: only the front matter is read',
    );
    const of = (name: string) => diagnostics.filter((d) => d.file.includes(`/${name}/`)).map((d) => d.message);
    assert.deepEqual(of('keys'), ['the front matter is not closed by a "---" line within its first 16 KB']);
    assert.deepEqual(of('laughs'), [
      'the front matter cannot be read: Excessive alias count indicates a resource exhaustion attack',
    ]);
    assert.equal(of('repeats').length, 6);
    assert.match(of('repeats')[0]!, /Map keys must be unique/);
    assert.equal(of('repeats')[5], 'and 994 more YAML errors');
  });
});

test('at most 500 skill folders are read from one folder, with a warning; the prompt lists skills up to 16,000 characters', async () => {
  const texts: Record<string, string> = {};
  for (let i = 0; i < 502; i++) {
    const name = `s${String(i).padStart(3, '0')}`;
    texts[name] = `---\nname: ${name}\ndescription: ${'Does a thing well. '.repeat(10)}\n---\n`;
  }
  await withSkills(texts, async (dir) => {
    const { skills, diagnostics } = await discoverSkills({ workspaceFolder: dir });
    assert.equal(skills.length, 500);
    assert.equal(skills.at(-1)!.name, 's499');
    assert.deepEqual(
      diagnostics.map((d) => [d.file, d.severity, d.message]),
      [
        [
          path.join(dir, '.agents/skills'),
          'warning',
          '2 more skill folders are not read: at most 500 are read from one folder',
        ],
      ],
    );
    const lines = renderSkillsPrompt(skills, dir).split('\n');
    const listed = lines.filter((l) => /^- s\d{3}: /.test(l));
    assert.ok(listed.length > 50 && listed.length < 500, `${listed.length} listed`);
    assert.ok(listed.join('\n').length <= 16_000);
    assert.equal(
      lines.at(-1),
      `- ${500 - listed.length} more skills are not listed here (to keep this prompt short); their SKILL.md files are under .agents/skills`,
    );
  });
});

test('one discovery parses at most 1 MB of front matter over all folders, and says how many skills it left', async () => {
  // 4 folders of 500 SKILL.md files with 16 KB of the slowest front matter took over a minute per discovery.
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-skills-'));
  try {
    const padding = `# ${'x'.repeat(70)}\n`.repeat(200);
    const roots = ['.agents/skills', '.github/skills'];
    let size = 0;
    for (const root of roots)
      for (let i = 0; i < 40; i++) {
        const name = `${root.slice(1, 3)}${String(i).padStart(2, '0')}`;
        const text = `---\nname: ${name}\ndescription: d\n${padding}---\nbody\n`;
        size = text.length - 'body\n'.length;
        await mkdir(path.join(dir, root, name), { recursive: true });
        await writeFile(path.join(dir, root, name, 'SKILL.md'), text);
      }
    const { skills, diagnostics } = await discoverSkills({ workspaceFolder: dir });
    const read = Math.ceil(MAX_FRONT_MATTER_TOTAL / size);
    assert.ok(read > 40 && read < 80, `${read} of 80 fit`);
    assert.equal(skills.length, read);
    assert.deepEqual(
      diagnostics.map((d) => [d.file, d.message]),
      [
        [
          path.join(dir, '.github/skills'),
          `${80 - read} more skill folders are not read: discovery reads at most 1 MB of front matter in all`,
        ],
      ],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
