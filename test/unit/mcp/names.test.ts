import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { assignSafeNames, sanitizeName } from '../../../src/core/mcp/names';
import { StoreWriter } from '../../../src/core/store/store-writer';
import { summarize, SUMMARY_CHARS } from '../../../src/core/mcp/render';

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._~-]*$/;

test('safe names: only portable characters, no traversal, no reserved names, bounded length', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
      const s = sanitizeName(name);
      assert.match(s, SAFE);
      assert.ok(s.length <= 80);
      assert.ok(!/[. ]$/.test(s));
      assert.ok(!/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(s));
      assert.equal(path.basename(s), s);
    }),
  );
  assert.equal(sanitizeName('get-sum'), 'get-sum');
  assert.equal(sanitizeName('../../x'), '_.._.._x');
  assert.equal(sanitizeName('CON'), '_CON');
});

test('assigned names are unique ignoring case, stable under reordering, and keep tidy names', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ maxLength: 20 }), { maxLength: 30 }), (names) => {
      const a = assignSafeNames(names, ['index.md']);
      const values = [...a.values()];
      assert.equal(new Set(values.map((v) => v.toLowerCase())).size, names.length);
      assert.ok(!values.some((v) => v.toLowerCase() === 'index.md'));
      const b = assignSafeNames([...names].reverse(), ['index.md']);
      for (const n of names) assert.equal(a.get(n), b.get(n));
      for (const v of values) assert.match(v, SAFE);
    }),
  );
  const m = assignSafeNames(['Read', 'read', 'write']);
  assert.equal(m.get('write'), 'write');
  assert.notEqual(m.get('Read'), 'Read');
  assert.notEqual(m.get('Read')!.toLowerCase(), m.get('read')!.toLowerCase());
});

test('summaries are capped whatever the description', () => {
  assert.equal(summarize('Adds two numbers. Returns the sum.'), 'Adds two numbers.');
  assert.equal(summarize('x'.repeat(5_000_000)).length, SUMMARY_CHARS);
  assert.equal(summarize(undefined), '');
  fc.assert(
    fc.property(fc.string({ maxLength: 2000 }), (d) =>
      assert.ok(summarize(d).length <= SUMMARY_CHARS && !summarize(d).includes('\n')),
    ),
  );
});

test('atomic writes leave no temp files and skip unchanged content', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-mcp-w-'));
  try {
    const writer = await StoreWriter.open(dir);
    const writeFileAtomic = (file: string, text: string): Promise<boolean> =>
      writer.writeFile(file, text, { ifChanged: true });
    const f = path.join(dir, 'sub', 'a.json');
    assert.equal(await writeFileAtomic(f, 'one'), true);
    assert.equal(await writeFileAtomic(f, 'one'), false);
    const writes = Array.from({ length: 20 }, (_, i) => writeFileAtomic(f, `v${i}`.repeat(10_000)));
    await Promise.all(writes);
    assert.match(await readFile(f, 'utf8'), /^(v\d+)\1*$/);
    assert.deepEqual(await readdir(path.join(dir, 'sub')), ['a.json']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
