import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  sanitizeText,
  SanitizingStream,
  type AnsiMode,
  type SanitizeOptions,
} from '../../../src/core/store/sanitize/pipeline';
import { looksBinary } from '../../../src/core/store/sanitize/binary';
import { stripAnsi } from '../../../src/core/store/sanitize/ansi';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const planted = readFileSync(path.join(__dirname, '../../fixtures/store/planted-secrets.txt'), 'utf8');
/** The secret values in the fixture, each of which must never appear in sanitized text. */
const secrets = [
  'AKIAQ3EGRIXZ5CRQ7XYZ',
  /sk-proj-\S+/.exec(planted)![0].slice(0, 30),
  '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',
  'xoxb-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv',
  'Tr0ub4dor3xyz',
  'MIIEowIBAAKCAQEAwJ3cZ1Zm9mYk0N8r3hW2qQ7m5nE8p4kq2Z1x0vL9aYc3bT6d',
  'J8kL0mN2oP4qR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8oP0qR2sT4uV6wX8y',
];

/** Feeds `input` in the given pieces (split at byte offsets) and collects the sink. */
async function streamed(
  input: Buffer,
  cuts: number[],
  options: SanitizeOptions,
): Promise<{ text: string; redactions: Record<string, number> }> {
  let text = '';
  const s = new SanitizingStream(async (t) => {
    text += t;
  }, options);
  let prev = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    await s.push(input.subarray(prev, c));
    prev = c;
  }
  await s.push(input.subarray(prev));
  const stats = await s.end();
  return { text, redactions: stats.redactions };
}

for (const ansi of ['strip', 'render'] as AnsiMode[]) {
  test(`planted secrets never reach the output (${ansi})`, async () => {
    const { text, stats } = await sanitizeText(planted, { ansi });
    for (const s of secrets) assert.ok(!text.includes(s), `leaked ${s}`);
    assert.deepEqual(stats.redactions, {
      'aws-access-key-id': 1,
      'openai-api-key': 1,
      'github-token': 1,
      'slack-token': 1,
      'url-password': 1,
      'private-key': 1,
    });
    assert.match(text, /https:\/\/deploy:\[REDACTED:url-password\]@git\.example\.com\/team\/repo\.git/);
    assert.match(text, /nothing secret on this line/);
  });

  test(`secrets cut at any chunk boundary are still redacted (${ansi})`, async () => {
    const bytes = Buffer.from(planted);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        fc.integer({ min: 16, max: 400 }),
        async (cuts, batchChars) => {
          const r = await streamed(bytes, cuts, { ansi, batchChars });
          for (const s of secrets) assert.ok(!r.text.includes(s), `leaked ${s}`);
          assert.equal(r.redactions['private-key'], 1);
        },
      ),
      { numRuns: 25 },
    );
  });

  test(`chunk boundaries inside escape sequences and code points do not change the result (${ansi})`, async () => {
    const input = Buffer.from(
      'héllo \x1b[1;31mwörld\x1b[0m ✓ 日本語\r\n\x1b]633;C\x07build  10%\rbuild  50%\rbuild 100%\r\n😀 done\r\n',
    );
    const whole = await streamed(input, [], { ansi });
    assert.equal(whole.text, 'héllo wörld ✓ 日本語\nbuild 100%\n😀 done\n');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 20 }), async (cuts) => {
        assert.equal((await streamed(input, cuts, { ansi })).text, whole.text);
      }),
      { numRuns: 60 },
    );
  });

  test(`a long stream of \\r progress updates collapses without growing memory (${ansi})`, async () => {
    let out = '';
    const s = new SanitizingStream(
      async (t) => {
        out += t;
      },
      { ansi },
    );
    gc();
    const before = process.memoryUsage().heapUsed;
    const bar = (i: number): string => `progress ${String(i % 101).padStart(3)}% [${'#'.repeat(i % 37).padEnd(40)}]`;
    for (let i = 0; i <= 200_000; i++) await s.push(`\r${bar(i)}`);
    gc();
    // 200,001 updates of 60 characters (12 MB) went in; what the stream retains stays small.
    const grown = process.memoryUsage().heapUsed - before;
    await s.push('\r\ndone\r\n');
    await s.end();
    assert.equal(out, `${bar(200_000)}\ndone\n`);
    assert.ok(grown < 4 * 1024 * 1024, `heap grew ${grown} bytes`);
  });
}

test('render mode: a person sees the overwritten tail of a longer line', async () => {
  const { text } = await sanitizeText('downloading 10%\r50%\r\n', { ansi: 'render' });
  assert.equal(text, '50%nloading 10%\n');
});

test('render mode: a secret whose start later text overwrote leaves nothing of itself on disk', async () => {
  const token = 'ghp_' + 'gMCk7qLw2pZx9RtY4vNb8sKd3fHj6aUe1oWi';
  const password = 'Xk95RG5OOySYxdZi';
  const key = 'sk_live_' + '5Ufg2Nq8RwLx4TzYb7Pd1Kc9';
  for (const [raw, gone] of [
    [`${token}\r⠋\r\ndone\r\n`, token],
    [`DB_PASSWORD=${password}\rdone\r\n`, password],
    [`\x1b[32m${key}\x1b[0m\rok\n`, key],
  ] as const) {
    for (const cut of [1, 3, 7, raw.length]) {
      const pieces: string[] = [];
      for (let i = 0; i < raw.length; i += cut) pieces.push(raw.slice(i, i + cut));
      let out = '';
      const st = new SanitizingStream(async (t) => void (out += t), { ansi: 'render' });
      for (const p of pieces) await st.push(p);
      await st.end();
      // Nothing of it is left but a few characters at most (the overwritten start is not shown anyway).
      assert.ok(!out.includes(gone.slice(-8)), JSON.stringify(out));
      assert.match(out, /\[REDACTED:/);
    }
  }
  // CRLF line ends are not overwrites: ordinary output is rendered as before.
  assert.equal((await sanitizeText('a line\r\nnext\r\n', { ansi: 'render' })).text, 'a line\nnext\n');
});

test('render mode honours cursor movement the way a terminal shows it', async () => {
  const { text } = await sanitizeText('step 1\r\nstep 2\r\n\x1b[2A\x1b[2Kstep 1 ok\r\n\x1b[1B\x1b[31mred\x1b[0m\r\n', {
    ansi: 'render',
  });
  assert.equal(text, 'step 1 ok\nstep 2\nred\n');
});

test('strip mode removes sequences and invisible controls', () => {
  assert.equal(stripAnsi('\x1b[32mok\x1b[0m \x1b]0;title\x07a\x07b\x08c\x1b(B'), 'ok abc');
});

test('binary output is stored as a one-line note', async () => {
  const blob = Buffer.alloc(100_000);
  for (let i = 0; i < blob.length; i++) blob[i] = (i * 7919) % 256;
  for (const ansi of ['strip', 'render'] as AnsiMode[]) {
    const r = await streamed(blob, [10, 5000, 9000], { ansi });
    assert.equal(r.text, '[binary output: 100000 bytes, not stored]\n');
  }
  assert.equal(looksBinary(Buffer.from('a\0b')), true);
  assert.equal(looksBinary(Buffer.from('\x01\x02\x03\x04 abc')), true);
  assert.equal(looksBinary(Buffer.from('\x1b[31mcolour\x1b[0m\r\n\ttabs\n')), false);
  assert.equal(looksBinary(Buffer.from('日本語のテキスト')), false);
  // Terminal chunks that are mostly sequences: VS Code's shell-integration mark, titles, the bell.
  assert.equal(looksBinary(Buffer.from('\x1b]633;C\x07')), false);
  assert.equal(looksBinary(Buffer.from('\x1b]0;root@host: ~\x07\x1b[?2004l\x07')), false);
  assert.equal(looksBinary(Buffer.from('\x1b]633;E;ls\x1b\\\x01\x02')), true);
});

test('a flush after only a shell-integration mark does not decide the output is binary', async () => {
  // Regression: the periodic flush decided on the first 8 bytes (ESC ] 633 ; C BEL) and the whole
  // command's output was stored as "[binary output]".
  let text = '';
  const s = new SanitizingStream(
    async (t) => {
      text += t;
    },
    { ansi: 'render' },
  );
  await s.push('\x1b]633;C\x07');
  await s.flush();
  await s.push('marker-42 done\r\n');
  const stats = await s.end();
  assert.equal(stats.binary, false);
  assert.match(text, /^marker-42 done$/m);
});

test('invalid UTF-8 is replaced and counted', async () => {
  const input = Buffer.concat([Buffer.from('ok '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' end\n')]);
  const { text, stats } = await sanitizeText(input, { ansi: 'strip' });
  assert.equal(text, 'ok \uFFFD(\uFFFD end\n');
  assert.equal(stats.replacementChars, 2);
});

test('an unterminated private key is redacted to the end rather than stored', async () => {
  const { text, stats } = await sanitizeText(
    'before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA\n',
    { ansi: 'strip' },
  );
  assert.equal(text, 'before\n[REDACTED:private-key]\n');
  assert.equal(stats.redactions['private-key'], 1);
});

test('a key whose END line has not ended when the stream flushes waits for it', async () => {
  const body = 'MIIEowIBAAKCAQEAwJ3cZ1Zm9mYk0N8r3hW2qQ7m5nE8p4kq2Z1x0vL9aYc3bT6d';
  let out = '';
  const s = new SanitizingStream(
    async (t) => {
      out += t;
    },
    { ansi: 'strip' },
  );
  await s.push('building layer 1 of 3 ... done\n'.repeat(300)); // past the 8 KB binary sniff
  // `cat key.pem` of a file without a final newline: the END line is the unfinished last line.
  // A 2048-bit key is 25 lines: more than the lines held back for secrets named on an earlier line.
  const lines = Array.from({ length: 25 }, () => body).join('\n');
  await s.push(`$ cat key.pem\n-----BEGIN RSA PRIVATE KEY-----\n${lines}\n-----END RSA PRIVATE KEY-----`);
  await s.flush();
  assert.ok(!out.includes(body), 'written before its END line was complete');
  await s.flush(); // a quiet flush
  await s.push('\n$ echo next\nnext\n');
  await s.end();
  assert.ok(!out.includes(body));
  assert.ok(out.endsWith('$ cat key.pem\n[REDACTED:private-key]\n$ echo next\nnext\n'), out.slice(-200));
});

test('in plain text a key cut short, then a whole one: each redacted, the output between them stays', async () => {
  const head = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
  const whole = 'MIIEowIBAAKCAQEAwJ3cZ1Zm9mYk0N8r3hW2qQ7m5nE8p4kq2Z1x0vL9aYc3bT6d';
  const text = [
    '$ head -2 ~/.ssh/id_ed25519',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    head,
    '$ cat config.json',
    '{"a": 1, "b": {"c": 2}}',
    '$ cat key.pem',
    '-----BEGIN RSA PRIVATE KEY-----',
    whole,
    '-----END RSA PRIVATE KEY-----',
    '$ echo after',
    'after',
  ].join('\n');
  const want = [
    '$ head -2 ~/.ssh/id_ed25519',
    '[REDACTED:private-key]',
    '$ cat config.json',
    '{"a": 1, "b": {"c": 2}}',
    '$ cat key.pem',
    '[REDACTED:private-key]',
    '$ echo after',
    'after',
  ].join('\n');
  assert.equal((await sanitizeText(text, { ansi: 'strip' })).text, want);
  // With a flush before the end, as `context-desk redact` and terminal capture do: the lines held back
  // for a secret named earlier cut through the second block, and what goes out first must not hold it.
  let out = '';
  const s = new SanitizingStream(
    async (t) => {
      out += t;
    },
    { ansi: 'strip' },
  );
  await s.push(text);
  await s.flush();
  await s.end();
  assert.equal(out, want);
});

test('a key cut short inside a JSON line is redacted to its closing quote; the lines after it stay', async () => {
  const body = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
  const key = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n`;
  const end = '-----END OPENSSH PRIVATE KEY-----\n';
  // JSON lines (a tool's JSON result, an agent's log): `head` of a key file, then others, then a whole key.
  const records = [
    { tool: 'head -2 id_ed25519', output: key, exit: 0 },
    { tool: 'ls', output: 'README.md\nsrc\n', exit: 0 },
    { tool: 'cat id_ed25519', output: key + end + 'after the key\n', exit: 0 },
  ];
  const { text, stats } = await sanitizeText(records.map((r) => JSON.stringify(r)).join('\n') + '\n', {
    ansi: 'strip',
  });
  assert.ok(!text.includes(body.slice(10, 40)), text);
  assert.deepEqual(
    text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
    [
      { tool: 'head -2 id_ed25519', output: '[REDACTED:private-key]', exit: 0 },
      records[1],
      { tool: 'cat id_ed25519', output: '[REDACTED:private-key]\nafter the key\n', exit: 0 },
    ],
  );
  assert.equal(stats.redactions['private-key'], 2);
  // Streamed in small batches, cut anywhere: the same.
  const input = Buffer.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (let cut = 1; cut < input.length; cut += 37)
    assert.equal((await streamed(input, [cut, cut + 50], { ansi: 'strip', batchChars: 64 })).text, text);
  // A log that writes each line of output as a record (Docker's json-file): the key spans records,
  // and nothing of its body reaches the sink however the stream is cut.
  const lines = [
    '-----BEGIN RSA PRIVATE KEY-----',
    'MIIEowIBAAKCAQEAwJ3cZ1Zm9mYk0N8r3hW2qQ7m5nE8p4kq2Z1x0vL9aYc3bT6d',
    'J8kL0mN2oP4qR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8oP0qR2sT4uV6wX8y',
    '-----END RSA PRIVATE KEY-----',
  ];
  const docker = Buffer.from(lines.map((l) => JSON.stringify({ log: `${l}\n`, stream: 'stdout' }) + '\n').join(''));
  for (let cut = 1; cut < docker.length; cut += 23) {
    const out = (await streamed(docker, [cut], { ansi: 'strip', batchChars: 64 })).text;
    for (const body of lines.slice(1, 3)) assert.ok(!out.includes(body.slice(20, 40)), `cut at ${cut}: ${out}`);
  }
  // A key cut short in its string, then more than a held key may wait for: the records after it stay.
  const after = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ tool: 'ls', output: `file-${i}.txt\n` }));
  const long = [JSON.stringify(records[0]), ...after].join('\n') + '\n';
  const longOut = (await streamed(Buffer.from(long), [], { ansi: 'strip', batchChars: 4096 })).text;
  assert.ok(!longOut.includes(body.slice(10, 40)));
  assert.equal(longOut.split('\n')[0], JSON.stringify({ ...records[0], output: '[REDACTED:private-key]' }));
  assert.ok(longOut.endsWith(`${after[after.length - 1]}\n`), longOut.slice(-200));
  // A notebook keeps a cell's source as a list of line strings, whole or cut short.
  for (const source of [
    [`${key.split('\n')[0]}\n`, `${body}\n`, end],
    [`${key.split('\n')[0]}\n`, `${body}\n`],
  ]) {
    const cell = JSON.stringify({ cell_type: 'code', source, metadata: {} }, null, 1);
    const out = (await sanitizeText(cell, { ansi: 'strip' })).text;
    assert.ok(!out.includes(body.slice(10, 40)), out);
    assert.deepEqual(JSON.parse(out), {
      cell_type: 'code',
      source: ['[REDACTED:private-key]' + (source.length === 3 ? '\n' : '')],
      metadata: {},
    });
  }
});
