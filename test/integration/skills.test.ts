// Agent Skills in a real VS Code: valid skills are listed; broken front matter is a diagnostic.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, waitFor, workspaceRoot } from './helpers';

describe('Agent Skills', () => {
  const made: string[] = [];
  const write = (rel: string, text: string): string => {
    const file = path.join(workspaceRoot(), rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    made.push(path.join(workspaceRoot(), rel.split('/')[0]!));
    return file;
  };
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('lists valid skills and reports broken front matter on the file', async () => {
    write(
      '.agents/skills/release-notes/SKILL.md',
      '---\nname: release-notes\ndescription: Writes release notes from the changelog.\n---\n# Body\nRead CHANGELOG.md first.\n',
    );
    const broken = write('.claude/skills/broken/SKILL.md', '---\nname: [unclosed\ndescription: x\n---\nbody\n');
    const a = await api();
    const skills = await a.tools().skills.refresh();
    assert.deepEqual(
      skills.map((s) => s.name),
      ['release-notes'],
    );
    assert.equal(skills[0]!.description, 'Writes release notes from the changelog.');
    await waitFor(
      () => vscode.languages.getDiagnostics(vscode.Uri.file(broken)).length > 0,
      5_000,
      'a diagnostic on the broken SKILL.md',
    );
    const [d] = vscode.languages.getDiagnostics(vscode.Uri.file(broken));
    assert.equal(d!.source, 'Context Desk');
  });
});
