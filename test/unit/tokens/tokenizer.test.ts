import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import {
  createTokenizer,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_NAME,
  TOOL_CALL_FRAMING,
  TiktokenTokenizer,
} from '../../../src/core/tokens';
import type { Message } from '../../../src/core/messages';

test('o200k counts match tiktoken o200k_base exactly', () => {
  const t = createTokenizer('o200k');
  const ref = get_encoding('o200k_base');
  for (const s of ['hello world', 'def f(x):\n    return x * 2\n', 'ÄÖÜ – 日本語 🚀', 'a'.repeat(1000)]) {
    assert.equal(t.count(s), ref.encode_ordinary(s).length, s.slice(0, 20));
  }
  ref.free();
  assert.equal(t.exact, true);
  assert.equal(t.name, 'o200k');
});

test('cl100k differs from o200k and matches cl100k_base', () => {
  const a = createTokenizer('cl100k');
  const b = createTokenizer('o200k');
  const ref = get_encoding('cl100k_base');
  const s = 'Überprüfung der Tokenisierung: 日本語のテキストとコード `const x = 1;`';
  assert.equal(a.count(s), ref.encode_ordinary(s).length);
  assert.notEqual(a.count(s), b.count(s));
  ref.free();
});

test('special tokens in tool output are plain text, never honoured', () => {
  const t = createTokenizer('o200k');
  const ref = get_encoding('o200k_base');
  const s = 'log line\n<|endoftext|>\nmore';
  const n = t.count(s);
  assert.equal(n, ref.encode_ordinary(s).length);
  // honoured, <|endoftext|> would be a single token; as text it is several
  assert.ok(n > ref.encode(s, 'all').length);
  ref.free();
});

test('message overhead follows the documented chat format', () => {
  const t = createTokenizer('o200k');
  const user: Message = { role: 'user', content: 'fix the bug' };
  assert.equal(t.countMessage(user), TOKENS_PER_MESSAGE + t.count('user') + t.count('fix the bug'));
  const named: Message = { role: 'tool', content: 'ok', name: 'bash', toolCallId: 'c1' };
  assert.equal(
    t.countMessage(named),
    TOKENS_PER_MESSAGE + t.count('tool') + t.count('ok') + t.count('bash') + TOKENS_PER_NAME,
  );
  const action: Message = {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls -la"}' }],
  };
  assert.equal(
    t.countMessage(action),
    TOKENS_PER_MESSAGE + t.count('assistant') + TOOL_CALL_FRAMING + t.count('bash') + t.count('{"command":"ls -la"}'),
  );
});

test('chars4 is ceil(chars / 4) plus the same overhead, labelled inexact', () => {
  const t = createTokenizer('chars4');
  assert.equal(t.exact, false);
  assert.equal(t.count('abcde'), 2);
  assert.equal(t.count(''), 0);
  assert.equal(t.countMessage({ role: 'user', content: 'abcdefgh' }), TOKENS_PER_MESSAGE + 1 + 2);
});

test('each distinct content is tokenized once', () => {
  const t = createTokenizer('o200k') as TiktokenTokenizer;
  const text = 'some long observation '.repeat(50);
  const first = t.count(text);
  const before = t.cachedTexts;
  for (let i = 0; i < 10; i++) assert.equal(t.count(text), first);
  assert.equal(t.cachedTexts, before);
  t.count(text + '!');
  assert.equal(t.cachedTexts, before + 1);
});

test('the cache is bounded by characters and evicts least recently used first', () => {
  const t = createTokenizer('o200k', { cacheChars: 100 }) as TiktokenTokenizer;
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const c = 'c'.repeat(40);
  t.count(a);
  t.count(b);
  t.count(a); // a is now the most recent
  t.count(c); // over 100 chars: b goes
  assert.equal(t.cachedTexts, 2);
  const counts = [t.count(a), t.count(c)];
  assert.equal(t.cachedTexts, 2);
  assert.deepEqual(counts, [t.count(a), t.count(c)]);
});

test('dispose lets the encoding go; counting afterwards fails clearly', () => {
  const t = createTokenizer('cl100k') as TiktokenTokenizer;
  assert.ok(t.count('hello') > 0);
  t.dispose();
  assert.throws(() => t.count('hello again'), /disposed/);
  // other tokenizers keep working: they load the encoding again
  assert.ok(createTokenizer('cl100k').count('hello again') > 0);
});

test('an unknown tokenizer name is rejected', () => {
  assert.throws(() => createTokenizer('gpt2' as 'o200k'), /unknown tokenizer 'gpt2'/);
});

test('the WASM loader instantiates tiktoken itself when nothing else has (fresh process)', () => {
  // This file imports 'tiktoken', which instantiates the shared bindings first; a child process shows
  // that our loader works alone, as it must in the bundled extension.
  const script = [
    "const { createTokenizer } = require('./src/core/tokens');",
    "const t = createTokenizer('o200k');",
    "process.stdout.write(String(t.count('hello world <|endoftext|>')));",
  ].join('\n');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const ref = get_encoding('o200k_base');
  assert.equal(Number(r.stdout), ref.encode_ordinary('hello world <|endoftext|>').length);
  ref.free();
});

test('where node cannot resolve the WASM (the bundle), the path given by the caller is used', () => {
  // A preload makes require.resolve('tiktoken/tiktoken_bg.wasm') fail, as it does inside the esbuild bundle.
  const hide = [
    "const Module = require('node:module');",
    'const original = Module._resolveFilename;',
    'Module._resolveFilename = function (request, ...rest) {',
    "  if (request === 'tiktoken/tiktoken_bg.wasm') throw new Error('not resolvable in the bundle');",
    '  return original.call(this, request, ...rest);',
    '};',
  ].join('\n');
  const run = (setPath: string | undefined) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        [
          hide,
          "const tokens = require('./src/core/tokens');",
          setPath === undefined ? '' : `tokens.setTiktokenWasmPath(${JSON.stringify(setPath)});`,
          "process.stdout.write(String(tokens.createTokenizer('cl100k').count('hello world')));",
        ].join('\n'),
      ],
      { encoding: 'utf8' },
    );
  const dir = mkdtempSync(join(tmpdir(), 'cd-wasm-'));
  const copy = join(dir, 'tiktoken_bg.wasm');
  // The build copies both: the WASM and the bindings that each generation evaluates afresh.
  for (const f of ['tiktoken_bg.wasm', 'tiktoken_bg.cjs'])
    copyFileSync(join(__dirname, '../../../node_modules/tiktoken', f), join(dir, f));
  const ok = run(copy);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(Number(ok.stdout), 2);
  const missing = run(undefined);
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /call setTiktokenWasmPath\(\)/);
});
