import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Marked } from 'marked';
import { ContextStore } from '../../../src/core/store/context-store';
import { StoreHardLinkError } from '../../../src/core/store/errors';
import {
  HistoryWriter,
  historyPointer,
  isMessageRecord,
  listSessions,
  loadSession,
  MAX_RESUME_BYTES,
  renderMarkdown,
  transcriptFile,
  type HistoryRecord,
} from '../../../src/core/store/history';
import { createTokenizer } from '../../../src/core/tokens/tokenizer';
import type { Message, Tokenizer } from '../../../src/core/messages';
import { tempDir } from './helpers';

const tokenizer = createTokenizer('o200k');
const fixed = { now: () => Date.UTC(2026, 10, 22, 3, 0, 0) };

async function setup(t: Parameters<typeof tempDir>[0]): Promise<ContextStore> {
  const ws = await tempDir(t);
  return ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
}

const conversation: Message[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test.' },
  {
    role: 'assistant',
    content: 'Running the tests.',
    toolCalls: [{ id: 'c1', name: 'shell', arguments: '{"cmd":"npm test"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'shell',
    content: 'FAIL src/a.test.ts\n```\nexpected 1\n```\n',
    storedAt: '.context-desk/tool-outputs/s1/0001-shell.txt',
  },
];

test('every message is appended to the JSONL with tokens and masking, and to a Markdown transcript', async (t) => {
  const store = await setup(t);
  const w = await HistoryWriter.open(store, 's1', { tokenizer, clock: fixed });
  for (const m of conversation.slice(0, 3)) await w.append(m);
  await w.append(conversation[3]!, {
    turn: 1,
    tokens: 99,
    masked: {
      storedAt: '.context-desk/tool-outputs/s1/0001-shell.txt',
      placeholder: 'Old environment output: (3 lines omitted)',
      tokens: 99,
    },
  });
  await w.close();
  const loaded = await loadSession(store, 's1');
  assert.equal(loaded.tornTail, undefined);
  const r = { records: loaded.records.filter(isMessageRecord) };
  assert.deepEqual(
    r.records.map((x) => x.message),
    conversation,
  );
  assert.deepEqual(
    r.records.map((x) => x.index),
    [0, 1, 2, 3],
  );
  assert.equal(r.records[0]!.tokens, tokenizer.countMessage(conversation[0]!));
  assert.equal(r.records[3]!.tokens, 99);
  assert.equal(r.records[3]!.masked?.placeholder, 'Old environment output: (3 lines omitted)');
  assert.equal(r.records[0]!.at, '2026-11-22T03:00:00.000Z');
  const md = await fsp.readFile(w.paths.markdown, 'utf8');
  assert.match(md, /^# Session s1\n/);
  assert.match(md, /### 3\. assistant/);
  assert.match(md, /Tool call `shell` \(`c1`\):\n```text\n\{"cmd":"npm test"\}\n```/);
  // The tool output holds a fence: the transcript uses a longer one so the block stays intact.
  assert.match(md, /````text\nFAIL src\/a\.test\.ts\n```\nexpected 1\n```\n````/);
  assert.match(
    md,
    /Full text: \[\.context-desk\/tool-outputs\/s1\/0001-shell\.txt\]\(\.context-desk\/tool-outputs\/s1\/0001-shell\.txt\)/,
  );
});

test('a tool output with hundreds of thousands of inline code spans is written to both files', async (t) => {
  // The fence is longer than the longest run of backticks; a spread over 200,000 runs overflowed the stack.
  const store = await setup(t);
  const w = await HistoryWriter.open(store, 'ticks');
  const content = '`a` '.repeat(200_000) + '````b````';
  await w.append({ role: 'tool', toolCallId: 'c', name: 'read', content });
  await w.close();
  const md = await fsp.readFile(w.paths.markdown, 'utf8');
  assert.ok(md.includes('`````text\n`a` `a`'));
  assert.deepEqual(
    (await loadSession(store, 'ticks')).records.filter(isMessageRecord).map((r) => r.message.content),
    [content],
  );
});

test('secrets in messages and tool-call arguments never reach either file', async (t) => {
  const store = await setup(t);
  const w = await HistoryWriter.open(store, 's2');
  const rec = await w.append({
    role: 'assistant',
    content: 'use xoxb-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv',
    toolCalls: [{ id: 'c', name: 'fetch', arguments: '{"url":"https://me:Pa55w0rdXyz@db.example.com"}' }],
  });
  await w.close();
  assert.deepEqual(rec.redactions, { 'slack-token': 1, 'url-password': 1 });
  for (const f of [w.paths.jsonl, w.paths.markdown]) {
    const text = await fsp.readFile(f, 'utf8');
    assert.ok(!text.includes('Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv') && !text.includes('Pa55w0rdXyz'), f);
  }
});

test('a torn last line is reported; reopening continues the numbering on a fresh line', async (t) => {
  const store = await setup(t);
  const w = await HistoryWriter.open(store, 's3');
  await w.append({ role: 'user', content: 'one' });
  await w.append({ role: 'assistant', content: 'two' });
  await w.close();
  await fsp.appendFile(w.paths.jsonl, '{"v":1,"session":"s3","index":2,"mess');
  const torn = await loadSession(store, 's3');
  assert.equal(torn.records.length, 2);
  assert.match(torn.tornTail!, /^\{"v":1/);
  const again = await HistoryWriter.open(store, 's3');
  const rec = await again.append({ role: 'user', content: 'three' });
  await again.close();
  assert.equal(rec.index, 2);
  const r = await loadSession(store, 's3');
  assert.deepEqual(
    r.records.filter(isMessageRecord).map((x) => x.message.content),
    ['one', 'two', 'three'],
  );
  assert.equal(r.badLines.length, 1);
  assert.equal(r.tornTail, undefined);
});

test('an append that fails before its line is written leaves no gap in the numbering', async (t) => {
  const store = await setup(t);
  let counts = 0;
  const failingOnce: Tokenizer = {
    name: tokenizer.name,
    exact: true,
    count: (text) => tokenizer.count(text),
    countMessage: (m: Message) => {
      if (++counts === 2) throw new RangeError('Maximum call stack size exceeded');
      return tokenizer.countMessage(m);
    },
  };
  const w = await HistoryWriter.open(store, 's4', { tokenizer: failingOnce });
  await w.append({ role: 'user', content: 'one' });
  await assert.rejects(w.append({ role: 'assistant', content: 'two' }), RangeError);
  const retried = await w.append({ role: 'assistant', content: 'two' });
  await w.close();
  assert.equal(retried.index, 1);
  const r = await loadSession(store, 's4');
  assert.deepEqual(
    r.records.filter(isMessageRecord).map((x) => x.index),
    [0, 1],
  );
});

test('listSessions lists sessions newest first; loadSession takes the id or the file name', async (t) => {
  const store = await setup(t);
  for (const s of ['old one', 'new/one']) {
    const w = await HistoryWriter.open(store, s);
    await w.append({ role: 'user', content: s });
    await w.close();
  }
  const old = store.historyPaths('old one').jsonl;
  await fsp.utimes(old, new Date(2020, 0, 1), new Date(2020, 0, 1));
  const list = await listSessions(store);
  assert.equal(list.length, 2);
  assert.equal(list[1]!.jsonl, old);
  assert.equal((await loadSession(store, 'new/one')).records[0]!.session, 'new/one');
  assert.equal((await loadSession(store, list[0]!.name)).records[0]!.session, 'new/one');
  assert.deepEqual((await loadSession(store, 'missing')).records, []);
});

test('historyPointer names the transcript and the JSONL by workspace-relative path', async (t) => {
  const store = await setup(t);
  assert.equal(
    historyPointer(store, 'sess 9'),
    `Full history: .context-desk/history/${path.basename(store.historyPaths('sess 9').markdown)} (JSONL: .context-desk/history/${path.basename(store.historyPaths('sess 9').jsonl)}) - grep it for details the summary left out`,
  );
  assert.match(
    historyPointer(store, 's1'),
    /^Full history: \.context-desk\/history\/s1\.md \(JSONL: \.context-desk\/history\/s1\.jsonl\)/,
  );
});

test('a session file that is a link, not a file, or too large is refused with a reason, not read', async (t) => {
  const store = await setup(t);
  const outside = path.join(path.dirname(store.root), 'outside.jsonl');
  await fsp.writeFile(
    outside,
    JSON.stringify({ v: 1, session: 'x', index: 0, message: { role: 'user', content: 'hi' } }) + '\n',
  );
  await fsp.symlink(outside, store.historyPaths('linked').jsonl);
  await assert.rejects(loadSession(store, 'linked'), /is a link; a session is only resumed from a file of the store/);
  assert.ok(!(await listSessions(store)).some((e) => e.name === 'linked'), 'a link is not listed as a session');
  await fsp.mkdir(store.historyPaths('folder').jsonl);
  await assert.rejects(loadSession(store, 'folder'), /is not a regular file/);
  const big = await fsp.open(store.historyPaths('big').jsonl, 'w');
  await big.truncate(MAX_RESUME_BYTES + 1); // sparse: no disk used
  await big.close();
  await assert.rejects(
    loadSession(store, 'big'),
    /MB, over the 256 MB a session can be resumed from; read it with grep/,
  );
});

test('a transcript is opened only from a file of the store: a link (to ~/.aws/credentials, say) is refused', async (t) => {
  const store = await setup(t);
  const credentials = path.join(path.dirname(store.root), 'credentials');
  await fsp.writeFile(credentials, '[default]\naws_secret_access_key = not-a-real-key\n');
  const own = store.historyPaths('own').markdown;
  await fsp.writeFile(own, '# Session own\n');
  assert.equal(await transcriptFile(store, 'own'), own);
  await fsp.symlink(credentials, store.historyPaths('shipped').markdown);
  await assert.rejects(
    transcriptFile(store, 'shipped'),
    /^Error: \.context-desk\/history\/shipped\.md is a link; a transcript is only opened from a file of the store/,
  );
  await fsp.mkdir(store.historyPaths('folder').markdown);
  await assert.rejects(transcriptFile(store, 'folder'), /history\/folder\.md is not a regular file/);
  await assert.rejects(
    transcriptFile(store, 'none'),
    /history\/none\.md does not exist: this session has no transcript/,
  );
});

test('a transcript in a history folder that a link takes out of the store is refused too', async (t) => {
  const store = await setup(t);
  const elsewhere = path.join(path.dirname(store.root), 'elsewhere');
  await fsp.mkdir(elsewhere);
  await fsp.writeFile(path.join(elsewhere, 's.md'), 'not a transcript\n');
  await fsp.rm(store.folder('history'), { recursive: true });
  await fsp.symlink(elsewhere, store.folder('history'));
  await assert.rejects(
    transcriptFile(store, 's'),
    /history\/s\.md leads outside the Context Desk folder through a link/,
  );
});

test('a history file replaced by a hard link to another file is not continued into it', async (t) => {
  const store = await setup(t);
  const w = await HistoryWriter.open(store, 'linked');
  await w.append({ role: 'user', content: 'hello' });
  await w.close();
  const elsewhere = path.join(path.dirname(store.root), 'profile');
  await fsp.writeFile(elsewhere, 'export PATH=/usr/bin\n');
  const jsonl = store.historyPaths('linked').jsonl;
  await fsp.rm(jsonl);
  await fsp.link(elsewhere, jsonl);
  await assert.rejects(HistoryWriter.open(store, 'linked'), StoreHardLinkError);
  assert.equal(await fsp.readFile(elsewhere, 'utf8'), 'export PATH=/usr/bin\n');
});

test('no text a model, a tool or a shipped file wrote is an active Markdown link in the transcript', async () => {
  // Ctrl+click on a Markdown link in an editor opens it, and a `command:` link runs the command.
  const hostile =
    '[the log](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20x%7Csh%5Cn%22%7D)';
  const marked = new Marked();
  const links = (md: string): string[] => {
    const tokens = marked.lexer(md);
    const found = Object.keys(tokens.links); // reference definitions
    marked.walkTokens(tokens, (t) => {
      const own = t.type === 'html' && /^<\/?sub>$/.test(t.raw); // the transcript's own meta line
      if (!own && ['link', 'image', 'html', 'def'].includes(t.type)) found.push(t.raw);
    });
    return found;
  };
  const records: HistoryRecord[] = [
    {
      v: 1,
      session: 's',
      index: 0,
      at: '',
      message: { role: 'user', content: `Read ${hostile}\n\n[x]: command:evil` },
    },
    {
      v: 1,
      session: 's',
      index: 1,
      at: '',
      message: {
        role: 'assistant',
        content: `<a href="command:evil">ok</a> ![](https://evil.example/p.png)`,
        toolCalls: [{ id: `c1\` ${hostile} \``, name: `shell\n${hostile}`, arguments: '{}' }],
      },
    },
    {
      v: 1,
      session: 's',
      index: 2,
      at: '',
      message: { role: 'tool', name: `x\` ${hostile}`, toolCallId: 'c1', content: 'ok' },
    },
  ];
  for (const r of records) {
    const md = renderMarkdown(r);
    assert.deepEqual(links(md), [], md);
    assert.ok(md.includes('command:'), 'the text itself is kept, as code');
  }
});
