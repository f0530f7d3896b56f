// A long line (a minified bundle, a one-line JSON log) read on a window at a time with `column`: every
// window is redacted as the same text is whole, and the windows read in turn give back the whole line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { readLineRange } from '../../../src/core/agent/tools/line-range';
import { safeWindow } from '../../../src/core/agent/tools/line-window';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

async function dir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'cd-long-'));
  t.after(() => rm(d, { recursive: true, force: true }));
  return d;
}

const redact = (s: string): string => redactSecretsSync(s).text;

// Secrets of several rules, some with context their rule needs (a key name, a URL's user).
const SECRETS = [
  ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join(''),
  'AKIAQ3EGRIXZ5CRQ7XYZ',
  'postgres://app:Hunter2-k8s9@db/app',
  'password="Zx9!kLm2Qr7pWt"',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
];
const longLine = fc
  .array(
    fc.oneof(
      fc.constantFrom(...SECRETS),
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '"', ':', ',', '=', 'é', '😀'), maxLength: 40 }),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((parts) => parts.join(''));

test('property: any window of a long line is redacted exactly like the same text read whole', () => {
  fc.assert(
    fc.property(longLine, fc.nat(), fc.integer({ min: 1, max: 80 }), (line, at, max) => {
      const from = at % (line.length + 1);
      const w = safeWindow(line, 0, line.length, from, max);
      assert.equal(w.text, line.slice(w.start, w.end));
      assert.ok(w.start <= from && (w.end > from || from === line.length), `[${w.start}, ${w.end}) from ${from}`);
      // Cut there, each piece redacted alone, the line reads as it does redacted whole.
      const pieces = [line.slice(0, w.start), w.text, line.slice(w.end)];
      assert.equal(pieces.map(redact).join(''), redact(line));
    }),
    { numRuns: 400 },
  );
});

test('property: reading a long line window by window, as its cuts say, gives back the whole line, redacted', async (t) => {
  const file = path.join(await dir(t), 'min.js');
  await fc.assert(
    fc.asyncProperty(longLine, fc.integer({ min: 10, max: 60 }), fc.boolean(), async (line, max, crlf) => {
      await writeFile(file, `before\n${line}${crlf ? '\r\n' : '\n'}after\n`);
      const windows: string[] = [];
      for (let column: number | undefined = 1; column !== undefined;) {
        const r = await readLineRange(file, { offset: 2, limit: 1, column, maxLineChars: max, chunkBytes: 7 });
        const shown = r.lines[0]!;
        const cut = /… \(line continues: (\d+) more characters; read_file with offset=2, column=(\d+)\)$/.exec(shown);
        const body = cut ? shown.slice(0, cut.index) : shown;
        windows.push(column > 1 ? body.replace(/^…/, '') : body);
        if (cut) assert.equal(Number(cut[1]) + Number(cut[2]) - 1, line.length, shown);
        const next: number | undefined = cut ? Number(cut[2]) : undefined;
        assert.ok(next === undefined || next > column, `read on from ${next} after ${column}`);
        column = next;
      }
      assert.equal(windows.join(''), line);
      assert.equal(windows.map(redact).join(''), redact(line));
    }),
    { numRuns: 150 },
  );
});

test('a column past a line end says how long the line is; the lines after the first start at their start', async (t) => {
  const file = path.join(await dir(t), 'log.json');
  await writeFile(file, `${'a'.repeat(50)}\n${'b'.repeat(30)}\n`);
  const past = await readLineRange(file, { offset: 1, limit: 2, column: 51, maxLineChars: 20 });
  assert.deepEqual(past.lines, [
    '(line 1 has 50 characters; column 51 is past its end)',
    `${'b'.repeat(20)}… (line continues: 10 more characters; read_file with offset=2, column=21)`,
  ]);
  const on = await readLineRange(file, {
    offset: 1,
    limit: 1,
    column: 41,
    maxLineChars: 20,
    tool: 'contextDesk_readStoredFile',
  });
  assert.deepEqual(on.lines, [`…${'a'.repeat(10)}`]);
});

test('a window whose end would move back before its start column goes on to a safe cut past it', () => {
  // Found by the property above: redacted whole, the JWT takes `aaa` and the tokens glued after it are kept;
  // the end's cut moved back from match to match until the window ended before the column asked for.
  const line =
    'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8Uaaa😀a' +
    'ghp_x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0ghp_x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0';
  const w = safeWindow(line, 0, line.length, 83, 77);
  assert.ok(w.start <= 83 && w.end > 83, `[${w.start}, ${w.end})`);
  const pieces = [line.slice(0, w.start), w.text, line.slice(w.end)];
  assert.equal(pieces.map(redact).join(''), redact(line));
});
