// The language-model tools' answers as another agent gets them: every argument is model-written, so
// the handlers check it and answer with text, and an answer never floods the caller's context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import {
  answerOrFailure,
  GREP_CHARS,
  GREP_LINE_CHARS,
  READ_CHARS,
  grepText,
  readStored,
  terminalsText,
} from '../../../src/core/agent/tools/store-answers';

const locate = { candidates: ['/usr/bin/rg'] };
const signal = new AbortController().signal;

async function fixture(t: { after(fn: () => Promise<void>): void }): Promise<{ store: ContextStore; base: string }> {
  const base = await mkdtemp(path.join(tmpdir(), 'cd-lmtools-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const ws = path.join(base, 'ws');
  await fsp.mkdir(ws);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  await fsp.mkdir(path.join(store.root, 'tool-outputs', 's1'), { recursive: true });
  return { store, base };
}

const write = (store: ContextStore, name: string, text: string): Promise<void> =>
  fsp.writeFile(path.join(store.root, 'tool-outputs', 's1', name), text);

test('grep refuses a scope, pattern, fixed or maxMatches outside the schema instead of searching', async (t) => {
  const { store, base } = await fixture(t);
  await fsp.writeFile(path.join(base, 'outside.txt'), 'frobnicate API_KEY outside the workspace\n');
  await fsp.writeFile(path.join(base, 'ws', 'src.txt'), 'frobnicate in the workspace, outside the store\n');
  await write(store, '0001-shell.txt', 'frobnicate in the store\n');
  for (const scope of ['..', '../..', 'terminals/../..', '/', ''])
    assert.equal(
      await grepText(store, { pattern: 'frobnicate', scope }, signal, locate),
      'Refused: "scope" must be one of terminals, tool-outputs, history, all.',
      scope,
    );
  const refusals: [Record<string, unknown>, RegExp][] = [
    [{}, /"pattern" must be a non-empty string/],
    [{ pattern: 5 }, /"pattern" must be a non-empty string/],
    [{ pattern: '' }, /"pattern" must be a non-empty string/],
    [{ pattern: 'frob.icate', fixed: 'false' }, /"fixed" must be true or false/],
    [{ pattern: 'frobnicate', maxMatches: 0 }, /"maxMatches" must be a whole number from 1 to 1000/],
    [{ pattern: 'frobnicate', maxMatches: 1e9 }, /"maxMatches"/],
    [{ pattern: 'frobnicate', maxMatches: '10' }, /"maxMatches"/],
    [{ pattern: 'frobnicate', maxMatches: 2.5 }, /"maxMatches"/],
  ];
  for (const [input, why] of refusals)
    assert.match(await grepText(store, input, signal, locate), why, JSON.stringify(input));
  assert.match(await grepText(store, null, signal, locate), /"pattern"/);
  // What is allowed still works, and finds only the store's own line.
  assert.equal(
    await grepText(store, { pattern: 'frobnicate' }, signal, locate),
    '.context-desk/tool-outputs/s1/0001-shell.txt:1: frobnicate in the store',
  );
});

test('grep cuts long lines, stops at its character cap and says when there are more matches', async (t) => {
  const { store } = await fixture(t);
  // Two minified lines of 3 MB, then many ordinary lines.
  await write(store, '0001-min.txt', `needle ${'A'.repeat(3_000_000)}\n`.repeat(2));
  await write(
    store,
    '0002-many.txt',
    Array.from({ length: 300 }, (_, i) => `needle ${i} ${'b'.repeat(390)}`).join('\n'),
  );

  const one = await grepText(store, { pattern: 'needle A+', scope: 'tool-outputs', maxMatches: 1 }, signal, locate);
  const [first, ...notes] = one.split('\n');
  assert.ok(first!.length < GREP_LINE_CHARS + 100, `line of ${first!.length} characters`);
  assert.match(first!, /… \(line cut\)$/);
  assert.deepEqual(notes, [
    '(more than 1 matches; narrow the pattern or the scope, or raise maxMatches up to 1000)',
    `(lines longer than ${GREP_LINE_CHARS} characters are cut around their first match; contextDesk_readStoredFile at its line with column reads 2,000 characters from there)`,
  ]);

  const all = await grepText(store, { pattern: 'needle', scope: 'tool-outputs', maxMatches: 1000 }, signal, locate);
  assert.ok(all.length < GREP_CHARS + 1000, `answer of ${all.length} characters`);
  const shown = all.split('\n').filter((l) => l.startsWith('.context-desk/')).length;
  assert.ok(shown > 50 && shown < 301, `${shown} matches`);
  assert.match(all, new RegExp(`\\n\\(${shown} matches shown: the answer stops at 50,000 characters; narrow`));

  const exact = await grepText(
    store,
    { pattern: 'needle 29\\d ', scope: 'tool-outputs', maxMatches: 10 },
    signal,
    locate,
  );
  assert.equal(exact.split('\n').length, 10, 'exactly maxMatches matches, no note');
});

test('grep shows a long line around its match, wherever on the line the match is', async (t) => {
  const { store } = await fixture(t);
  // A JSON log line of 6,000 characters with the error near its end, and one with it in the middle.
  await write(store, '0001-json.txt', `{"data":"${'x'.repeat(5000)}","error":"ECONNRESET by peer","t":1}\n`);
  await write(store, '0002-mid.txt', `${'y'.repeat(3000)} ECONNRESET ${'z'.repeat(3000)}\n`);
  const out = await grepText(store, { pattern: 'ECONNRESET', scope: 'tool-outputs' }, signal, locate);
  const [json, mid] = out.split('\n').slice(0, 2).sort(); // rg searches files in parallel
  assert.match(
    json!,
    /^\.context-desk\/tool-outputs\/s1\/0001-json\.txt:1: …x+","error":"ECONNRESET by peer","t":1} \(line cut\)$/,
  );
  assert.match(mid!, /^\.context-desk\/tool-outputs\/s1\/0002-mid\.txt:1: …y{99} ECONNRESET z+… \(line cut\)$/);
  for (const line of [json!, mid!]) assert.ok(line.length < GREP_LINE_CHARS + 80, `line of ${line.length} characters`);
});

test('grep stops after its time limit and says what it found and how to search faster', async (t) => {
  const { store, base } = await fixture(t);
  await write(store, '0001-shell.txt', 'needle\n');
  // A stand-in for rg on a huge store: it prints one match, then takes its time.
  const slowRg = path.join(base, 'slow-rg.sh');
  const match = JSON.stringify({
    type: 'match',
    data: {
      path: { text: path.join(store.root, 'tool-outputs', 's1', '0001-shell.txt') },
      line_number: 1,
      lines: { text: 'needle\n' },
      submatches: [{ start: 0, end: 6 }],
    },
  });
  await fsp.writeFile(slowRg, `#!/bin/sh\nprintf '%s\\n' '${match}'\nexec sleep 30\n`, { mode: 0o755 });
  const started = Date.now();
  const out = await grepText(store, { pattern: 'needle' }, signal, { candidates: [slowRg] }, 300);
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  assert.equal(
    out,
    '.context-desk/tool-outputs/s1/0001-shell.txt:1: needle\n' +
      '(grep stopped after 0.3 s; these 1 matches were found by then, there may be more: narrow the scope, or use a simpler or literal (fixed) pattern)',
  );
  await fsp.writeFile(slowRg, '#!/bin/sh\nexec sleep 30\n');
  assert.equal(
    await grepText(store, { pattern: 'needle' }, signal, { candidates: [slowRg] }, 300),
    'grep stopped after 0.3 s without a match in all: narrow the scope, or use a simpler or literal (fixed) pattern.',
  );
});

test('readStoredFile refuses offsets and limits that are not whole numbers, and caps its answer', async (t) => {
  const { store } = await fixture(t);
  await write(store, '0001-wide.txt', Array.from({ length: 2500 }, (_, i) => `${i} ${'w'.repeat(5000)}`).join('\n'));
  const file = '.context-desk/tool-outputs/s1/0001-wide.txt';
  for (const offset of ['500', 0, -3, 1.5, Infinity, JSON.parse('1e400') as number])
    assert.equal(
      await readStored(store, { path: file, offset }),
      'Refused: "offset" must be a whole number from 1 (the first line).',
      String(offset),
    );
  assert.match(await readStored(store, { path: file, limit: '10' }), /^Refused: "limit" must be a whole number/);
  assert.match(await readStored(store, null), /^Refused: "path" must be a string/);
  for (const column of ['2001', 0, 1.5])
    assert.match(await readStored(store, { path: file, column }), /^Refused: "column" must be a whole number/);
  // A line cut at 2,000 characters is read on from the column its cut names.
  const cut = await readStored(store, { path: file, offset: 3, limit: 1 });
  assert.ok(
    cut.includes('w… (line continues: 3002 more characters; contextDesk_readStoredFile with offset=3, column=2001)\n'),
    cut,
  );
  assert.match(
    await readStored(store, { path: file, offset: 3, limit: 1, column: 2001 }),
    /\n3\t…w{2000}… \(line continues: 1002 more/,
  );

  const page = await readStored(store, { path: file, offset: 1, limit: 2000 });
  assert.ok(page.length <= READ_CHARS + 200, `answer of ${page.length} characters`);
  const lines = page.split('\n').filter((l) => /^\d+\t/.test(l));
  assert.ok(lines.length > 50 && lines.length < 2000, `${lines.length} lines`);
  const next = lines.length + 1;
  assert.ok(page.startsWith(`${file} lines 1-${lines.length} of 2500:\n`), page.slice(0, 80));
  assert.ok(page.endsWith(`(${2500 - lines.length} more lines; read on with offset ${next})`), page.slice(-80));
  // Reading on from there continues where the cap stopped.
  assert.match(
    await readStored(store, { path: file, offset: next, limit: 1 }),
    new RegExp(`\\n${next}\\t${next - 1} w`),
  );
});

test('the terminal list cuts a long last command (a pasted heredoc) and says how long it was', async (t) => {
  const { store } = await fixture(t);
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1 });
  const command = `cat <<'EOF' > big.json\n${'{"k":"v"},'.repeat(20_000)}\nEOF`;
  await (await w.begin({ command })).end({ exitCode: 0 });
  await w.close();
  const row = await terminalsText(store, [{ name: 'bash', state: 'captured', log: w.path }]);
  assert.ok(row.length < 700, `row of ${row.length} characters`);
  assert.ok(
    row.startsWith(`bash: captured - log: .context-desk/terminals/bash-1.log - last command: "cat <<'EOF'`),
    row,
  );
  assert.ok(row.endsWith(`"… (200,027 characters; the log has all of it) (exit 0)`), row.slice(-80));
  const short = await TerminalLogWriter.open(store, { terminalName: 'zsh', terminalId: 2 });
  await (await short.begin({ command: 'make test' })).end({ exitCode: 2 });
  await short.close();
  assert.equal(
    await terminalsText(store, [{ name: 'zsh', state: 'captured', log: short.path }]),
    'zsh: captured - log: .context-desk/terminals/zsh-2.log - last command: "make test" (exit 2)',
  );
});

test('a failure (the store cannot be opened) is an answer naming the tool; a cancelled call still throws', async () => {
  const failing = (): Promise<string> =>
    Promise.reject(new Error('Cannot use /ws as the Context Desk folder: not empty'));
  assert.equal(
    await answerOrFailure('contextDesk_readStoredFile', failing, () => false),
    'contextDesk_readStoredFile failed: Cannot use /ws as the Context Desk folder: not empty',
  );
  await assert.rejects(
    answerOrFailure('contextDesk_grepLogs', failing, () => true),
    /not empty/,
  );
  assert.equal(
    await answerOrFailure(
      'contextDesk_listTerminals',
      () => Promise.resolve('No terminals are open.'),
      () => false,
    ),
    'No terminals are open.',
  );
});
