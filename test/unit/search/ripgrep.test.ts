import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { locateRipgrep, vscodeRipgrepCandidates } from '../../../src/core/search/locate';
import {
  describeRipgrepError,
  unreadablePaths,
  ripgrep,
  ripgrepPrintedLines,
  ripgrepToFd,
  RipgrepError,
  type GrepMatch,
  type RipgrepOptions,
} from '../../../src/core/search/ripgrep';

const SYSTEM_RG = '/usr/bin/rg';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-rg-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function collect(o: RipgrepOptions): Promise<GrepMatch[]> {
  const out: GrepMatch[] = [];
  for await (const m of ripgrep(o)) out.push(m);
  return out;
}

test('locateRipgrep: caller candidates, then VS Code layouts, then @vscode/ripgrep, then PATH', async (t) => {
  const dir = await tempDir(t);
  const notExec = path.join(dir, 'not-exec');
  await fsp.writeFile(notExec, '');
  assert.deepEqual(await locateRipgrep({ candidates: [notExec, path.join(dir, 'missing'), SYSTEM_RG] }), {
    path: SYSTEM_RG,
    source: 'caller',
  });
  for (const layout of vscodeRipgrepCandidates(dir).slice(0, 2)) {
    const appRoot = await tempDir(t);
    const p = layout.replace(dir, appRoot);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.copyFile(SYSTEM_RG, p);
    await fsp.chmod(p, 0o755);
    assert.deepEqual(await locateRipgrep({ appRoot }), { path: p, source: 'vscode' });
  }
  const pkg = await locateRipgrep({ appRoot: dir });
  assert.equal(pkg?.source, '@vscode/ripgrep');
  assert.match(pkg!.path, /@vscode\/ripgrep-linux-x64\/bin\/rg$/);
  assert.deepEqual(await locateRipgrep({ skipPackage: true, pathEnv: `${dir}${path.delimiter}/usr/bin` }), {
    path: SYSTEM_RG,
    source: 'path',
  });
  assert.equal(await locateRipgrep({ skipPackage: true, pathEnv: dir }), undefined);
});

for (const rg of ['system', 'package'] as const) {
  test(`ripgrep (${rg} rg): file, line, text; regex or literal; case options`, async (t) => {
    const rgPath = rg === 'system' ? SYSTEM_RG : (await locateRipgrep({}))!.path;
    const dir = await tempDir(t);
    await fsp.writeFile(path.join(dir, 'a.log'), 'alpha\nabc\na.c\nABC\n-flag here\n');
    await fsp.writeFile(path.join(dir, '.gitignore'), '*\n');
    const base = { rgPath, paths: [dir] };
    const regex = await collect({ ...base, pattern: 'a.c' });
    assert.deepEqual(
      regex.map((m) => [path.basename(m.file), m.line, m.text]),
      [
        ['a.log', 2, 'abc'],
        ['a.log', 3, 'a.c'],
      ],
    );
    assert.deepEqual(
      (await collect({ ...base, pattern: 'a.c', fixed: true })).map((m) => m.line),
      [3],
    );
    assert.deepEqual(
      (await collect({ ...base, pattern: 'abc', caseMode: 'ignore' })).map((m) => m.line),
      [2, 4],
    );
    assert.deepEqual(
      (await collect({ ...base, pattern: 'ABC', caseMode: 'smart' })).map((m) => m.line),
      [4],
    );
    assert.deepEqual(
      (await collect({ ...base, pattern: '-flag', fixed: true, ranges: true })).map((m) => [m.line, m.ranges]),
      [[5, [{ start: 0, end: 5 }]]],
    );
    assert.deepEqual(await collect({ ...base, pattern: 'nothing-matches-this' }), []);
  });
}

test('a hostile pattern is passed as one argument, never to a shell', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'x.log'), 'x . ; touch PWNED; # literally\n');
  for (const fixed of [true, false]) {
    const r = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'x . ; touch PWNED; #', fixed, cwd: dir });
    assert.equal(r.length, 1);
  }
  await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: '$(touch PWNED2)`touch PWNED3`', cwd: dir });
  assert.deepEqual((await fsp.readdir(dir)).sort(), ['x.log']);
  await assert.rejects(fsp.access(path.join(process.cwd(), 'PWNED')));
});

test('an invalid regex and a missing binary give a RipgrepError with the reason', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'a.log'), 'a\n');
  await assert.rejects(
    collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: '(unclosed' }),
    (e: unknown) =>
      e instanceof RipgrepError &&
      e.message ===
        'Not a valid regular expression: unclosed group at character 1 in "(unclosed". Escape special characters such as ( [ { with a backslash, or search for literal text.',
  );
  await assert.rejects(
    collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'ab{2' }),
    (e: unknown) =>
      e instanceof RipgrepError &&
      /^Not a valid regular expression: unclosed counted repetition at character 3 in "ab\{2"/.test(e.message),
  );
  await assert.rejects(
    collect({ rgPath: path.join(dir, 'no-rg'), paths: [dir], pattern: 'a' }),
    (e: unknown) => e instanceof RipgrepError && /could not run ripgrep/.test(e.message),
  );
  await assert.rejects(collect({ rgPath: SYSTEM_RG, paths: [], pattern: 'a' }), RipgrepError);
});

test('a huge number of matches is streamed and stops early at the limit or on break', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'big.log'), 'match me please\n'.repeat(300_000));
  const limited = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'match', maxMatches: 1000 });
  assert.equal(limited.length, 1000);
  assert.deepEqual(
    limited.slice(0, 3).map((m) => m.line),
    [1, 2, 3],
  );
  let n = 0;
  for await (const _m of ripgrep({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'match' })) if (++n === 10) break;
  assert.equal(n, 10);
  const all = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'please$' });
  assert.equal(all.length, 300_000);
  assert.equal(all.at(-1)!.line, 300_000);
});

test('an AbortSignal cancels a running search', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'big.log'), 'cancel me\n'.repeat(300_000));
  const ac = new AbortController();
  let seen = 0;
  await assert.rejects(
    (async () => {
      for await (const _m of ripgrep({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'cancel', signal: ac.signal }))
        if (++seen === 50) ac.abort(new Error('user cancelled'));
    })(),
    /user cancelled/,
  );
  assert.equal(seen, 50);
  const pre = new AbortController();
  pre.abort(new Error('before start'));
  await assert.rejects(collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'x', signal: pre.signal }), /before start/);
});

test('non-ASCII lines keep UTF-16 match ranges; invalid UTF-8 lines are still reported', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(
    path.join(dir, 'u.log'),
    Buffer.concat([Buffer.from('日本語 error here\n'), Buffer.from([0xff, 0xfe]), Buffer.from(' error bytes\n')]),
  );
  const r = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'error', ranges: true });
  assert.equal(r.length, 2);
  assert.deepEqual(r[0]!.ranges, [{ start: 4, end: 9 }]);
  assert.equal(r[0]!.text.slice(4, 9), 'error');
  assert.match(r[1]!.text, / error bytes$/);
});

test('plain output (default) and --json (ranges) report the same file, line and text', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'we:ird name.log'), 'a hit: one\r\nno\n日本 hit 😀\n');
  await fsp.writeFile(
    path.join(dir, 'b.log'),
    Buffer.concat([Buffer.from('hit '), Buffer.from([0xc3, 0x28]), Buffer.from(' bytes\n')]),
  );
  const plain = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'hit' });
  const json = await collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'hit', ranges: true });
  const key = (m: GrepMatch): string => `${m.file}|${m.line}|${m.text}`;
  assert.deepEqual(plain.map(key).sort(), json.map(key).sort());
  assert.equal(plain.length, 3);
  assert.ok(plain.every((m) => m.ranges.length === 0));
  assert.ok(json.every((m) => m.ranges.length === 1 && m.text.slice(m.ranges[0]!.start, m.ranges[0]!.end) === 'hit'));
  assert.ok(plain.some((m) => m.file.endsWith('we:ird name.log') && m.text === 'a hit: one'));
});

async function printed(o: Parameters<typeof ripgrepPrintedLines>[0]): Promise<{ text: string; count: number }> {
  const parts: Buffer[] = [];
  let count = 0;
  for await (const p of ripgrepPrintedLines(o)) {
    parts.push(Buffer.from(p.bytes)); // copied: a consumer may keep them
    count += p.count;
  }
  return { text: Buffer.concat(parts).toString('utf8'), count };
}

test('printed lines are file:line:text of the parsed matches, across chunks, CRLF and odd names; rg writes the same to a file', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'we:ird 12:name.log'), 'a hit: one\r\nno\n日本 hit 😀\n\r\nhit\r\n');
  await fsp.writeFile(
    path.join(dir, 'b.log'),
    Buffer.concat([Buffer.from('hit '), Buffer.from([0xc3, 0x28]), Buffer.from(' bytes\n')]),
  );
  // A binary file named on the command line: rg prints a "binary file matches" notice, not a match line.
  const bin = path.join(dir, 'bin.dat');
  await fsp.writeFile(bin, Buffer.concat([Buffer.from('hit\n'), Buffer.alloc(64), Buffer.from('hit\n')]));
  // Many lines of varied length: rg's output spans many chunks, with lines cut between them.
  await fsp.writeFile(
    path.join(dir, 'big.log'),
    Array.from({ length: 40_000 }, (_, i) => `${'x'.repeat(i % 300)} hit ${i}${i % 7 === 0 ? '\r' : ''}\n`).join(''),
  );
  const out = path.join(await tempDir(t), 'out.txt');
  for (const pattern of ['hit', 'hit \\d+\\r?$', 'nothing here']) {
    const o = { rgPath: SYSTEM_RG, paths: [dir, bin], pattern };
    // Printed lines are the file's bytes: a line that is not UTF-8 (parsed as Windows-1252) reads as U+FFFD here.
    const bytesAsUtf8 = (m: GrepMatch): string => (m.legacy ? Buffer.from(m.text, 'latin1').toString('utf8') : m.text);
    const expected = (await collect(o)).map((m) => `${m.file}:${m.line}:${bytesAsUtf8(m)}\n`);
    const got = await printed(o);
    assert.equal(got.count, expected.length);
    const lines = got.text.split(/(?<=\n)/).filter(Boolean);
    // The line's bytes as they are: a CR before the end stays (the JSON output's text drops it).
    assert.deepEqual(lines.map((l) => l.replace(/\r\n$/, '\n')).sort(), expected.sort(), pattern);
    // big.log: every 7th line; the odd name: two lines with a CR, matched by 'hit' only.
    const withCr = { hit: Math.ceil(40_000 / 7) + 2, 'hit \\d+\\r?$': Math.ceil(40_000 / 7) }[pattern] ?? 0;
    assert.equal(lines.filter((l) => l.endsWith('\r\n')).length, withCr);
    // Only the bin.dat notice differs when rg writes to a file itself (store searches name folders only).
    const fd = await fsp.open(out, 'w');
    try {
      assert.equal(await ripgrepToFd({ rgPath: SYSTEM_RG, paths: [dir], pattern }, fd.fd), expected.length > 0);
    } finally {
      await fd.close();
    }
    const direct = (await fsp.readFile(out, 'utf8')).split(/(?<=\n)/).filter(Boolean);
    assert.deepEqual(direct.sort(), lines.filter((l) => !l.startsWith(bin + ':')).sort(), pattern);
  }
  const some = await printed({ rgPath: SYSTEM_RG, paths: [dir, bin], pattern: 'hit', maxMatches: 1234 });
  assert.equal(some.count, 1234);
  assert.equal(some.text.split('\n').length - 1, 1234);
  const fd = await fsp.open(out, 'w');
  await assert.rejects(ripgrepToFd({ rgPath: SYSTEM_RG, paths: [dir], pattern: 'a(' }, fd.fd), /Not a valid regular/);
  await fd.close();
});

test('printed lines: files found under `.` lose the ./ so they read like any relative path', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'a.log'), 'one hit\n');
  await fsp.mkdir(path.join(dir, 'sub'));
  await fsp.writeFile(path.join(dir, 'sub', 'b.log'), 'two hit\n');
  const o = { rgPath: SYSTEM_RG, paths: ['.'], cwd: dir, pattern: 'hit' };
  const sep = path.sep;
  assert.deepEqual((await printed({ ...o, dropDotSlash: true })).text.split('\n').sort(), [
    '',
    'a.log:1:one hit',
    `sub${sep}b.log:1:two hit`,
  ]);
  assert.match((await printed(o)).text, /^\.[/\\]/);
});

test('rg versions that wrap the pattern in a group still point at the right character', () => {
  const newer = 'rg: regex parse error:\n    (?:(unclosed)\n    ^\nerror: unclosed group\n';
  assert.match(
    describeRipgrepError(newer, '(unclosed'),
    /^Not a valid regular expression: unclosed group in "\(unclosed"/,
  );
  assert.equal(describeRipgrepError('rg: some other failure\n', 'x'), 'some other failure');
});

test('paths rg cannot read are reported beside the matches found elsewhere, not as a failed search', async (t) => {
  const dir = await tempDir(t);
  await fsp.writeFile(path.join(dir, 'a.log'), 'needle\n');
  // rg exits with 2 for a path it cannot read (here: gone), as for a fatal error, after searching the rest.
  const missing = path.join(dir, 'gone');
  const reported: string[][] = [];
  const found = await collect({
    rgPath: SYSTEM_RG,
    paths: [dir, missing],
    pattern: 'needle',
    onUnreadable: (p) => reported.push(p),
  });
  assert.deepEqual(
    found.map((m) => m.text),
    ['needle'],
  );
  assert.deepEqual(reported, [[`${missing}: No such file or directory`]]);
  // Without a listener it still throws, and an invalid pattern throws whatever the listener.
  await assert.rejects(collect({ rgPath: SYSTEM_RG, paths: [dir, missing], pattern: 'needle' }), RipgrepError);
  await assert.rejects(
    collect({ rgPath: SYSTEM_RG, paths: [dir], pattern: '(unclosed', onUnreadable: () => undefined }),
    RipgrepError,
  );
});

test('unreadablePaths reads only reports of paths; anything else is an error of the whole search', () => {
  assert.deepEqual(
    unreadablePaths(
      'rg: /w/locked: Permission denied (os error 13)\n/w/b: IO error for operation on /w/b: Permission denied (os error 13)\n',
    ),
    ['/w/locked: Permission denied', '/w/b: IO error for operation on /w/b: Permission denied'],
  );
  assert.equal(unreadablePaths("rg: error parsing glob '[': unclosed character class\n"), undefined);
  assert.equal(unreadablePaths('rg: /w/x: Permission denied (os error 13)\nrg: regex parse error\n'), undefined);
  assert.equal(unreadablePaths(''), undefined);
});
