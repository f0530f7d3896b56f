import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { createWorkspaceTools, editApprovalTitle, type EditRequest } from '../../../src/core/agent/tools';
import type { ToolContext } from '../../../src/core/agent/tool-registry';
import { imitatedFile, skeleton } from '../../../src/core/agent/tools/imitated-path';

let ws: string;
let outside: string;
const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };
before(async () => {
  ws = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-imitated-')));
  outside = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-imitated-out-')));
  await mkdir(path.join(ws, 'src', 'lib'), { recursive: true });
  await writeFile(path.join(ws, 'src', 'config.ts'), 'export {};\n');
  await writeFile(path.join(ws, 'src', 'lib', 'paths.ts'), '');
  await writeFile(path.join(ws, 'package.json'), '{}');
  await writeFile(path.join(outside, 'secret.txt'), '');
  await symlink(outside, path.join(ws, 'out'));
});
after(async () => {
  await rm(ws, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function editRequestOf(file: string): Promise<EditRequest> {
  const asked: EditRequest[] = [];
  const tools = createWorkspaceTools({
    workspaceRoot: ws,
    edit: { edit: (r) => (asked.push(r), Promise.resolve({ ok: true, text: 'edited' })) },
  });
  await tools.find((t) => t.name === 'edit_file')!.run({ path: file, new_text: 'x' }, ctx);
  return asked[0]!;
}

test('an edit to a look-alike path names the existing file it imitates', async () => {
  // Cyrillic о (U+043E) in config.
  const request = await editRequestOf('src/c\u043enfig.ts');
  assert.equal(request.imitates, 'src/config.ts');
  assert.match(
    editApprovalTitle(request),
    /^Apply this edit to src\/c\u043enfig\.ts\? Careful: src\/c\u043enfig\.ts is not the existing file src\/config\.ts it reads as\. Careful: c\u043enfig mixes Latin and Cyrillic/,
  );
  // A look-alike folder, fullwidth letters, a Greek capital: each leads to the real file.
  assert.equal(await imitatedFile(ws, 's\u0433c/lib/paths.ts'), undefined); // Cyrillic ge is not r
  assert.equal(await imitatedFile(ws, 'sr\u0441/lib/paths.ts'), 'src/lib/paths.ts');
  assert.equal(await imitatedFile(ws, 'src/\uff43onfig.ts'), 'src/config.ts');
  assert.equal(await imitatedFile(ws, '\u0440ackage.json'), 'package.json');
  // A planted look-alike file that exists beside the real one is still compared.
  await writeFile(path.join(ws, 'src', 'c\u043enfig.ts'), '');
  try {
    assert.equal(await imitatedFile(ws, 'src/c\u043enfig.ts'), 'src/config.ts');
  } finally {
    await rm(path.join(ws, 'src', 'c\u043enfig.ts'));
  }
});

test('nothing is said for a plain path, a path in another script, or a look-alike of nothing', async () => {
  assert.equal((await editRequestOf('src/config.ts')).imitates, undefined);
  assert.equal((await editRequestOf('docs/\u0440\u0443\u043a.md')).imitates, undefined);
  assert.equal(await imitatedFile(ws, 'src/n\u0435w.ts'), undefined);
  assert.equal(editApprovalTitle({ display: 'src/config.ts' }), 'Apply this edit to src/config.ts?');
});

test('folders a link leads to outside the workspace are not listed', async () => {
  assert.equal(await imitatedFile(ws, 'out/s\u0435cret.txt'), undefined);
});

test('property: replacing an ASCII letter of a file name with its look-alike reads as that file', () => {
  const pairs: [string, string][] = [
    ['a', '\u0430'],
    ['e', '\u0435'],
    ['o', '\u03bf'],
    ['p', '\u0440'],
    ['c', '\uff43'],
    ['i', '\u0456'],
  ];
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom(...pairs), (name, [plain, odd]) => {
      const disguised = name.replaceAll(plain, odd);
      return skeleton(disguised) === name;
    }),
  );
});
