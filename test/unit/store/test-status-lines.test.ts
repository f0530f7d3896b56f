// A test runner's `PASS:` lines are not `PASS=…` env assignments: `PASS: Simple bytes` lost its first word
// to `[REDACTED:env-secret]` (14 times in the shared trajectories). A password given as `PASS: …` alone on
// its line, `PASS=…` and `PASSWORD: …` still go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

const clean = (s: string): string => redactSecretsSync(s).text;
const R = '[REDACTED:env-secret]';

test("a test runner's PASS lines stay whole, as lines, in JSON and with CRLF", () => {
  const results = [
    'PASS: Simple bytes\nPASS: Bytearray backing\nPASS: Sliced bytearray backing\n',
    '\r\nPASS: Normal cpu_shares=2048\r\nPASS: cpu_shares=0\r\nPASS: Small quota resulting in 0\r\n',
    '--- PASS: TestLoginHandler (0.00s)\n',
    'PASS: tests/unit/store/history.test.ts\nPASS: tests/test_api.py::test_login\n',
    '\u2713 PASS: Whitespace-only string correctly rejected\n',
  ];
  for (const text of results) {
    assert.equal(clean(text), text);
    const json = JSON.stringify({ output: text });
    assert.equal(clean(json), json);
  }
});

test('PASS and PASSWORD naming a value still redact it', () => {
  assert.equal(clean('PASS: Hq7wZ2kLm9xV4bN8\n'), `PASS: ${R}\n`);
  assert.equal(clean('PASS=Hq7wZ2kLm9xV4bN8 make deploy'), `PASS=${R} make deploy`);
  assert.equal(clean("PASS: 'correct horse battery'\n"), `PASS: '${R}'\n`);
  assert.equal(clean('PASSWORD: Bytearray backing'), `PASSWORD: ${R} backing`);
  assert.equal(clean('DB_PASS: Hq7wZ2kLm9xV4bN8'), `DB_PASS: ${R}`);
  assert.equal(
    clean(JSON.stringify({ o: 'PASS: Hq7wZ2kLm9xV4bN8\n  next' })),
    JSON.stringify({ o: `PASS: ${R}\n  next` }),
  );
});

test("a shell's quote closed and reopened ('\"'\"') is not taken for a one-character secret", () => {
  // `python -c '…SECRET_KEY='"'"'test-key'"'"'…'` as a trajectory's JSON keeps it: `'\"'` read as a value.
  const text = JSON.stringify({ cmd: `python -c 'settings.configure(SECRET_KEY='"'"'dev'"'"', DEBUG=True)'` });
  assert.equal(clean(JSON.stringify({ log: text })), JSON.stringify({ log: text }));
});
