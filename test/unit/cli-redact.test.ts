import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../support/cli';

const TOKEN = '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';

async function temp(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-redact-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('redact writes files redacted to stdout and counts per rule to stderr', async (t) => {
  const dir = await temp(t);
  const file = path.join(dir, 'app.log');
  await writeFile(file, `start\nexport DB_PASSWORD=hunter2-x9\n\x1b[31mtoken ${TOKEN}\x1b[0m\nend\n`);
  const r = await runCli(['redact', file]);
  assert.equal(r.code, 0);
  assert.equal(r.out, 'start\nexport DB_PASSWORD=[REDACTED:env-secret]\ntoken [REDACTED:github-token]\nend\n');
  assert.equal(r.err, 'context-desk redact: 2 redactions: env-secret 1, github-token 1\n');
  const json = await runCli(['redact', '--json', file]);
  assert.deepEqual(JSON.parse(json.err).redactions, { 'env-secret': 1, 'github-token': 1 });
  assert.equal(JSON.parse(json.err).total, 2);
});

test('redact streams standard input of any size', async () => {
  const line = 'INFO nothing to see here, just a long and ordinary log line of some length\n';
  const lines = 40_000; // ~3 MB
  const input = Readable.from(
    (function* () {
      for (let i = 0; i < lines; i++) yield i === lines - 1 ? `key=${TOKEN}\n` : line;
    })(),
  );
  const r = await runCli(['redact', '-q'], { stdin: input });
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
  assert.ok(!r.out.includes(TOKEN));
  assert.ok(r.out.endsWith('key=[REDACTED:github-token]\n'));
  assert.equal(r.out.length, line.length * (lines - 1) + 'key=[REDACTED:github-token]\n'.length);
});

test('binary and unreadable inputs are named, skipped, and give exit code 1', async (t) => {
  const dir = await temp(t);
  const bin = path.join(dir, 'blob.bin');
  const ok = path.join(dir, 'ok.txt');
  await writeFile(bin, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
  await writeFile(ok, `url https://u:pw-123456@example.com/x\n`);
  const r = await runCli(['redact', bin, path.join(dir, 'missing.txt'), dir, ok]);
  assert.equal(r.code, 1);
  assert.equal(r.out, 'url https://u:[REDACTED:url-password]@example.com/x\n');
  assert.match(r.err, /blob\.bin: binary, not written/);
  assert.match(r.err, /missing\.txt: no such file/);
  assert.match(r.err, /: is a folder/);
});

test("--pattern adds the user's own; an invalid one is a usage error; --list shows the rules", async (t) => {
  const dir = await temp(t);
  const file = path.join(dir, 'a.txt');
  await writeFile(file, 'ticket TKT-12345678 opened\n');
  const r = await runCli(['redact', '--pattern', 'TKT-[0-9]{8}', file]);
  assert.equal(r.out, 'ticket [REDACTED:custom] opened\n');
  const bad = await runCli(['redact', '--pattern', '(oops', file]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--pattern\[0\] invalid regular expression "\(oops"/);
  const after = await runCli(['redact', file]);
  assert.equal(after.out, 'ticket TKT-12345678 opened\n', 'patterns do not outlive the command');
  const list = await runCli(['redact', '--list']);
  assert.match(list.out, /^github-token +GitHub token/m);
  assert.match(list.out, /^env-secret +Environment-style/m);
});
