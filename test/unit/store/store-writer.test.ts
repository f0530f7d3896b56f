// The store writer refuses every link under the store (folder on the way, the target, a swapped root),
// redacts what it writes, and deletes nothing through a link.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StoreWriter } from '../../../src/core/store/store-writer';
import {
  StoreBoundaryError,
  StoreHardLinkError,
  StoreSymlinkError,
  type StoreWriteError,
} from '../../../src/core/store/errors';
import { tempDir } from './helpers';

const FAKE_TOKEN = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');

async function setup(t: Parameters<typeof tempDir>[0]) {
  const dir = await tempDir(t);
  const root = path.join(dir, 'store');
  const outside = path.join(dir, 'outside');
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(outside, 'package.json'), '{"name":"mine"}\n');
  const problems: StoreWriteError[] = [];
  const writer = await StoreWriter.open(root, { onProblem: (e) => problems.push(e) });
  return { dir, root, outside, writer, problems };
}

async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true, recursive: true }))
    out.push(
      path.join(e.parentPath, e.name) +
        (e.isFile() ? `=${await fsp.readFile(path.join(e.parentPath, e.name), 'utf8')}` : ''),
    );
  return out.sort();
}

test('a linked folder on the way is refused for write, append, stream, rename, delete and mkdir', async (t) => {
  const { root, outside, writer, problems } = await setup(t);
  await fsp.symlink(outside, path.join(root, 'mcp'));
  const before = await snapshot(outside);
  const target = path.join(root, 'mcp', 'package.json');
  const attempts: [string, () => Promise<unknown>][] = [
    ['write', () => writer.writeFile(target, 'x')],
    ['write exclusive', () => writer.writeFile(path.join(root, 'mcp', 'new.json'), 'x', { exclusive: true })],
    ['json', () => writer.writeJson(target, { a: 1 })],
    ['append', () => writer.openAppend(path.join(root, 'mcp', 'x.log'))],
    ['stream', () => writer.createStream(path.join(root, 'mcp', 'x.partial'))],
    ['rename', () => writer.rename(target, path.join(root, 'moved.json'))],
    ['delete', () => writer.remove(target)],
    ['mkdir', () => writer.mkdir(path.join(root, 'mcp', 'sub'))],
    ['removeTree', () => writer.removeTree(path.join(root, 'mcp'))],
  ];
  for (const [what, attempt] of attempts)
    await assert.rejects(attempt(), (e: unknown) => {
      assert.ok(e instanceof StoreSymlinkError, `${what}: ${String(e)}`);
      assert.equal(e.link, path.join(root, 'mcp'));
      assert.match(e.message, /Refused to .* through the symbolic link .*store\/mcp/);
      return true;
    });
  assert.deepEqual(await snapshot(outside), before, 'nothing outside changed');
  assert.equal(problems.length, attempts.length, 'every refusal is reported');
});

test('a linked target file is refused; rename cannot replace it and delete keeps it', async (t) => {
  const { root, outside, writer } = await setup(t);
  await writer.mkdir(path.join(root, 'history'));
  const link = path.join(root, 'history', 's.jsonl');
  await fsp.symlink(path.join(outside, 'package.json'), link);
  await assert.rejects(writer.writeFile(link, 'x'), StoreSymlinkError);
  await assert.rejects(writer.openAppend(link), StoreSymlinkError);
  await assert.rejects(writer.remove(link), StoreSymlinkError);
  await writer.writeFile(path.join(root, 'history', 'a.md'), 'a');
  await assert.rejects(writer.rename(path.join(root, 'history', 'a.md'), link), StoreSymlinkError);
  assert.equal(await fsp.readFile(path.join(outside, 'package.json'), 'utf8'), '{"name":"mine"}\n');
  assert.ok((await fsp.lstat(link)).isSymbolicLink(), 'the link itself stays (the user removes it)');
});

test('a file with another name (a hard link) is never appended to; replacing or deleting it leaves the other name alone', async (t) => {
  // A command can run `ln ~/.bashrc .context-desk/history/<session>.jsonl`: O_NOFOLLOW does not see a
  // hard link, and a history line holding `"$(curl … | sh)"` is code to a shell reading that file.
  const { root, outside, writer, problems } = await setup(t);
  await writer.mkdir(path.join(root, 'history'));
  const other = path.join(outside, 'package.json');
  const link = path.join(root, 'history', 's.jsonl');
  await fsp.link(other, link);
  await assert.rejects(writer.openAppend(link), (e: unknown) => {
    assert.ok(e instanceof StoreHardLinkError, String(e));
    assert.equal(e.link, link);
    assert.equal(e.names, 2);
    assert.match(e.message, /Refused to append to .*s\.jsonl: the file has 2 names \(a hard link\)/);
    return true;
  });
  assert.equal(problems.length, 1, 'the refusal is reported');
  assert.equal(await fsp.readFile(other, 'utf8'), '{"name":"mine"}\n');
  // Atomic replacement and deletion only change the name under the store.
  await writer.writeFile(link, 'replaced\n');
  assert.equal(await fsp.readFile(link, 'utf8'), 'replaced\n');
  assert.equal(await fsp.readFile(other, 'utf8'), '{"name":"mine"}\n');
  await fsp.rm(link);
  await fsp.link(other, link);
  assert.equal(await writer.remove(link), true);
  assert.equal(await fsp.readFile(other, 'utf8'), '{"name":"mine"}\n');
  // A file with one name is appended to as before.
  const own = await writer.openAppend(link);
  await own.append('{"a":1}\n');
  await own.close();
  assert.equal(await fsp.readFile(link, 'utf8'), '{"a":1}\n');
});

test('removeTree deletes real files and keeps a link inside (and the folder holding it)', async (t) => {
  const { root, outside, writer, problems } = await setup(t);
  const dir = path.join(root, 'mcp', 'gone');
  await writer.writeFile(path.join(dir, 'a.json'), '{}');
  await fsp.symlink(outside, path.join(dir, 'escape'));
  const kept = await writer.removeTree(dir);
  assert.deepEqual(kept, [path.join(dir, 'escape')]);
  assert.deepEqual(await fsp.readdir(dir), ['escape']);
  assert.ok(await fsp.stat(path.join(outside, 'package.json')));
  assert.equal(problems.length, 1);
});

test('paths outside the root and a root replaced by a link are refused', async (t) => {
  const { dir, root, outside, writer } = await setup(t);
  await assert.rejects(writer.writeFile(path.join(root, '..', 'x'), 'x'), StoreBoundaryError);
  await assert.rejects(writer.writeFile(root, 'x'), StoreBoundaryError);
  await fsp.rename(root, path.join(dir, 'old'));
  await fsp.symlink(outside, root);
  await assert.rejects(writer.writeFile(path.join(root, 'a.txt'), 'x'), StoreSymlinkError);
  assert.deepEqual((await fsp.readdir(outside)).sort(), ['package.json']);
});

test('plain text is redacted on its way to disk; appends are whole lines; exclusive creates once', async (t) => {
  const { root, writer } = await setup(t);
  const f = path.join(root, 'history', 'x.md');
  await writer.writeFile(f, `token ${FAKE_TOKEN}\n`);
  const stored = await fsp.readFile(f, 'utf8');
  assert.ok(!stored.includes(FAKE_TOKEN) && stored.includes('[REDACTED:'), stored);
  const log = await writer.openAppend(path.join(root, 'terminals', 'a.log'));
  await log.append(`url postgres://u:${'pw-not-real'}@h/db\n`);
  await log.close();
  assert.doesNotMatch(await fsp.readFile(log.path, 'utf8'), /pw-not-real/);
  assert.equal(await writer.writeFile(path.join(root, 'm'), 'a', { exclusive: true }), true);
  assert.equal(await writer.writeFile(path.join(root, 'm'), 'b', { exclusive: true }), false);
  assert.equal(await fsp.readFile(path.join(root, 'm'), 'utf8'), 'a');
  await writer.writeJson(path.join(root, 'j.json'), { [FAKE_TOKEN]: [FAKE_TOKEN, 1] });
  const json = JSON.parse(await fsp.readFile(path.join(root, 'j.json'), 'utf8')) as Record<string, unknown[]>;
  assert.ok(!JSON.stringify(json).includes(FAKE_TOKEN), 'keys and values redacted, still valid JSON');
});

test('JSON is redacted as the file it becomes: a value under a secret-named key goes, the JSON stays valid', async (t) => {
  const { root, writer } = await setup(t);
  // An MCP server's tool, as mcp/<server>/<tool>.json holds it: the key that says "password" and the
  // value are two strings, each harmless alone.
  const tool = {
    name: 'login',
    description: 'Signs in.',
    inputSchema: {
      type: 'object',
      properties: { user: { type: 'string' }, password: { type: 'string' } },
      examples: [{ user: 'bob', password: 'Tr0ub4dor&3xyz', api_key: 'a8F3kd92Lx0qPz7w' }],
    },
    annotations: { title: 'Login', token: 'k9X2mQ7vL3pR8tW1' },
  };
  const file = path.join(root, 'mcp', 'srv', 'login.json');
  await writer.writeJson(file, tool);
  const text = await fsp.readFile(file, 'utf8');
  for (const secret of ['Tr0ub4dor&3xyz', 'a8F3kd92Lx0qPz7w', 'k9X2mQ7vL3pR8tW1'])
    assert.ok(!text.includes(secret), text);
  const back = JSON.parse(text) as typeof tool;
  assert.equal(back.description, 'Signs in.');
  assert.deepEqual(back.inputSchema.properties, tool.inputSchema.properties, 'the schema itself stays');
  assert.equal(back.inputSchema.examples[0]!.user, 'bob');
});

// macOS and Windows give realpath the case names have on disk; on Linux it keeps the case asked for. The
// disk is simulated: `terminals` is asked for, the folder is `TERMINALS` (a repository shipped it, or an
// MCP server was renamed GitHub -> github), and realpath says so.
function onDiskCase(t: TestContext, root: string, swap: (p: string) => string): void {
  const realpath = fsp.realpath.bind(fsp);
  t.mock.method(fsp, 'realpath', async (p: string) => {
    const real = await realpath(p);
    return real.startsWith(root + path.sep) ? swap(real) : real;
  });
}

test('a folder whose name differs only in case on disk is written to, not refused as a link', async (t) => {
  const { root, writer, problems } = await setup(t);
  const realRoot = writer.realRoot;
  onDiskCase(t, realRoot, (p) => p.replace(`${path.sep}terminals`, `${path.sep}TERMINALS`));
  await writer.writeFile(path.join(root, 'terminals', 'a.log'), 'one\n');
  const log = await writer.openAppend(path.join(root, 'terminals', 'b.log'));
  await log.close();
  assert.equal(await fsp.readFile(path.join(root, 'terminals', 'a.log'), 'utf8'), 'one\n');
  assert.deepEqual(problems, [], 'no link reported');
});

test('a folder that resolves outside the store, even one differing only in case, is still refused', async (t) => {
  const { dir, root, writer, problems } = await setup(t);
  // The store's own path in another case (a different folder where the disk keeps case): not the store.
  const upper = path.join(dir.toUpperCase());
  onDiskCase(t, writer.realRoot, (p) => upper + p.slice(dir.length));
  await assert.rejects(writer.writeFile(path.join(root, 'terminals', 'a.log'), 'one\n'), StoreSymlinkError);
  assert.equal(problems.length, 1);
});
