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
  SkillPathError,
} from '../../../src/core/skills';
import { parseSkillFile } from '../../../src/core/skills';

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
