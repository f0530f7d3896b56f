// Line ranges of files of any size: the same answer as splitting the whole text, for any chunking,
// without reading past the range in a file too large to count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { formatLineRange, readLineRange } from '../../../src/core/agent/tools/line-range';

async function dir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'cd-range-'));
  t.after(() => rm(d, { recursive: true, force: true }));
  return d;
}

test('a range equals the lines of the whole text, for any content and chunk size', async (t) => {
  const file = path.join(await dir(t), 'f.txt');
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.array(fc.constantFrom('a', 'b', 'é', '😀', ' ', '\r'), { maxLength: 30 }).map((cs) => cs.join('')),
        { maxLength: 40 },
      ),
      fc.boolean(),
      fc.integer({ min: 1, max: 45 }),
      fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 1, max: 64 }),
      async (lines, trailingNewline, offset, limit, chunkBytes) => {
        const text = lines.join('\n') + (trailingNewline && lines.length ? '\n' : '');
        await writeFile(file, text);
        const expected = text.split(/\r?\n/);
        if (expected.at(-1) === '') expected.pop();
        const r = await readLineRange(file, { offset, limit, chunkBytes, maxLineChars: 20 });
        const clip = (l: string): string => (l.length > 20 ? `${l.slice(0, 20)}… (line cut)` : l);
        assert.deepEqual(r.lines, expected.slice(offset - 1, offset - 1 + limit).map(clip));
        assert.equal(r.total, expected.length);
        assert.equal(r.more, expected.length > offset - 1 + limit);
      },
    ),
    { numRuns: 200 },
  );
});

test('a file too large to count is read only up to the range, and says more lines follow', async (t) => {
  const file = path.join(await dir(t), 'big.log');
  const fh = await open(file, 'w');
  const block = Buffer.from(Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(90)}`).join('\n') + '\n');
  for (let i = 0; i < 64; i++) await fh.write(block); // ~6 MB
  await fh.close();
  const r = await readLineRange(file, { offset: 3, limit: 2, maxCountBytes: 1024 * 1024, chunkBytes: 64 * 1024 });
  assert.deepEqual(r.lines, [`line 2 ${'x'.repeat(90)}`, `line 3 ${'x'.repeat(90)}`]);
  assert.equal(r.total, undefined);
  assert.equal(r.more, true);
  assert.ok(r.bytesRead <= 64 * 1024, `read ${r.bytesRead} bytes for two lines`);
  assert.match(
    formatLineRange('big.log', r),
    /^big\.log lines 3-4:\n3\tline 2 x+\n4\tline 3 x+\n\(more lines follow in this 6 MB file; read on with offset 5, or tail or grep it\)$/,
  );
  // One giant line is cut, not held whole.
  const giant = path.join(path.dirname(file), 'giant.txt');
  await writeFile(giant, `${'y'.repeat(5 * 1024 * 1024)}\nnext\n`);
  const g = await readLineRange(giant, { limit: 1, maxLineChars: 100 });
  assert.equal(
    g.lines[0],
    `${'y'.repeat(100)}… (line continues: ${5 * 1024 * 1024 - 100} more characters; read_file with offset=1, column=101)`,
  );
  assert.equal(g.total, 2);
});

test('past the end, empty files and the counted tail are worded for the reader', async (t) => {
  const d = await dir(t);
  await writeFile(path.join(d, 'three.txt'), 'a\nb\nc\n');
  await writeFile(path.join(d, 'empty.txt'), '');
  const past = await readLineRange(path.join(d, 'three.txt'), { offset: 9 });
  assert.equal(formatLineRange('three.txt', past), 'three.txt has 3 lines; offset 9 is past the end.');
  assert.equal(formatLineRange('empty.txt', await readLineRange(path.join(d, 'empty.txt'))), 'empty.txt is empty.');
  const head = await readLineRange(path.join(d, 'three.txt'), { limit: 2 });
  assert.equal(
    formatLineRange('three.txt', head),
    'three.txt lines 1-2 of 3:\n1\ta\n2\tb\n(1 more line; read on with offset 3)',
  );
});

test('a long line is never cut through a secret: the stored copy could not redact the head of a cut token', async (t) => {
  const token = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
  const file = path.join(await dir(t), 'min.json');
  // Minified JSON: the token starts 20 characters before the 2,000-character cut.
  await writeFile(file, `{"a":"${'x'.repeat(1974)}","t":"${token}","b":"${'y'.repeat(3000)}"}\n`);
  const r = await readLineRange(file, { offset: 1, limit: 1 });
  assert.match(r.lines[0]!, /"t":"… \(line continues: 3\d{3} more characters; read_file with offset=1, column=1988\)$/);
  assert.ok(!r.lines[0]!.includes(token.slice(0, 12)));
});

// A key file's body: 26 lines of 64 base64 characters (random, so nothing else could be taken for them).
function keyBody(seed: number): string[] {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let x = seed >>> 0;
  const next = (): string => abc[(x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 26]!;
  return Array.from({ length: 26 }, () => Array.from({ length: 64 }, next).join(''));
}

test('a page of a key file that holds only body lines is redacted: the file is followed from its BEGIN', async (t) => {
  const file = path.join(await dir(t), 'deploy_key.pem');
  const body = keyBody(7);
  await writeFile(file, ['-----BEGIN PRIVATE KEY-----', ...body, '-----END PRIVATE KEY-----', 'after', ''].join('\n'));
  for (const chunkBytes of [7, 64, 256 * 1024]) {
    const page = await readLineRange(file, { offset: 11, limit: 10, chunkBytes });
    assert.deepEqual(page.lines, Array(10).fill('[REDACTED:private-key]'));
    const end = await readLineRange(file, { offset: 27, limit: 10, chunkBytes });
    assert.deepEqual(end.lines, ['[REDACTED:private-key]', '-----END PRIVATE KEY-----', 'after']);
  }
  const first = await readLineRange(file, { limit: 2 });
  assert.deepEqual(first.lines, ['-----BEGIN PRIVATE KEY-----', '[REDACTED:private-key]']);
});

test('base64 that is no key stays readable: a certificate, a BEGIN named in code, lines after a key block', async (t) => {
  const d = await dir(t);
  const body = keyBody(11);
  const cert = ['-----BEGIN CERTIFICATE-----', ...body, '-----END CERTIFICATE-----'];
  await writeFile(path.join(d, 'cert.pem'), cert.join('\n'));
  assert.deepEqual((await readLineRange(path.join(d, 'cert.pem'), { offset: 11, limit: 3 })).lines, body.slice(9, 12));
  // A string constant in code: the lines after it are code, not a key.
  const code = ['START = b"-----BEGIN OPENSSH PRIVATE KEY-----"', 'blob = (', `  "${body[0]}"`, ')'];
  await writeFile(path.join(d, 'code.py'), code.join('\n'));
  assert.deepEqual((await readLineRange(path.join(d, 'code.py'))).lines, code);
  // A BEGIN alone whose next line is not base64 (a heredoc that only names it) starts no block.
  const doc = ['-----BEGIN RSA PRIVATE KEY-----', 'is how a key starts; then', body[1]!];
  await writeFile(path.join(d, 'doc.md'), doc.join('\n'));
  assert.deepEqual((await readLineRange(path.join(d, 'doc.md'))).lines, doc);
});

test('carriage returns that end no line (old Mac line ends) are named: lines are counted as grep counts them', async (t) => {
  const file = path.join(await dir(t), 'mac.txt');
  await writeFile(file, 'one\rtwo\rthree\r\nnext\r\n');
  const text = formatLineRange('mac.txt', await readLineRange(file));
  assert.equal(
    text,
    'mac.txt lines 1-2 of 2:\n1\tone\rtwo\rthree\n2\tnext\n' +
      '(line 1 holds carriage returns (\\r) that do not end a line here: lines are counted at \\n, as grep counts them, while an editor may show each \\r as a line break)',
  );
  // Windows line ends alone are no such case.
  await writeFile(file, 'a\r\nb\r\n');
  assert.equal(formatLineRange('w.txt', await readLineRange(file)), 'w.txt lines 1-2 of 2:\n1\ta\n2\tb');
});
