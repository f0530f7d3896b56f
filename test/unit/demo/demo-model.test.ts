// The demo model drives a real agent session (real tools, store, tokenizer and strategy) through its
// tour: the build log is stored, observations get masked (one with a file), and the run completes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { AgentSession } from '../../../src/core/agent/session';
import { ToolRegistry } from '../../../src/core/agent/tool-registry';
import { createWorkspaceTools } from '../../../src/core/agent/tools';
import type { AgentEvent } from '../../../src/core/agent/events';
import { ContextStore } from '../../../src/core/store/context-store';
import { HistoryWriter } from '../../../src/core/store/history';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { createTokenizer } from '../../../src/core/tokens';
import { DemoProvider } from '../../../src/core/demo/demo-provider';
import { code, DEMO_DONE, DEMO_MASKING_WINDOW, nextDemoReply } from '../../../src/core/demo/demo-script';
import { markdownToHtml } from '../../../src/webview/lib/markdown';
import {
  DEMO_BUILD_LINES,
  DEMO_ERROR_LINE,
  DEMO_ERROR_TEXT,
  demoBuildLog,
  demoBuildTool,
} from '../../../src/core/demo/demo-build-tool';
import type { StrategyName } from '../../../src/core/strategies/types';

async function runTour(strategy: StrategyName, files: Record<string, string>) {
  const ws = mkdtempSync(path.join(tmpdir(), 'cd-demo-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const tokenizer = createTokenizer('o200k');
  const history = store.displayPath(store.historyPaths('demo-session').markdown);
  // As in the panel, the conversation is written to its transcript while it runs.
  const writer = await HistoryWriter.open(store, 'demo-session', { tokenizer });
  let written = Promise.resolve();
  const agent = new AgentSession({
    provider: new DemoProvider({ chunkDelayMs: 0 }),
    model: 'scripted-tour',
    tools: new ToolRegistry([...createWorkspaceTools({ workspaceRoot: ws, storeRoot: store.root }), demoBuildTool()]),
    tokenizer,
    systemPrompt: `You are a coding agent. This conversation is also written to ${history}: grep it.`,
    strategy,
    strategyOptions: { window: DEMO_MASKING_WINDOW, cachedPrice: 1 },
    longOutput: new ToolOutputStore(store, tokenizer),
    onMessage: (m) => void (written = written.then(() => writer.append(m).then(() => undefined))),
  });
  const events: AgentEvent[] = [];
  agent.on((e) => events.push(e));
  const status = await agent.send('Show me the demo.');
  await written;
  const cleanup = async (): Promise<void> => {
    await written;
    await writer.close();
    rmSync(ws, { recursive: true, force: true });
  };
  return { ws, store, agent, events, status, cleanup };
}

for (const strategy of ['cache-aware', 'masking'] as const) {
  test(`the tour completes with ${strategy}: the build log is stored, then masked with its file`, async () => {
    const r = await runTour(strategy, { 'README.md': '# Demo\nA small project.\n', 'src/app.py': 'print(1)\n' });
    try {
      assert.equal(r.status, 'completed');
      const finished = r.events.filter((e) => e.type === 'tool-call-finished');
      assert.deepEqual(
        finished.map((e) => e.type === 'tool-call-finished' && e.status),
        finished.map(() => 'ok'),
        'every tool call of the tour succeeds',
      );
      const build = finished.find((e) => e.type === 'tool-call-finished' && e.tool === 'demo_build');
      assert.ok(build?.type === 'tool-call-finished' && build.storedAt, 'the build log is stored');
      const stored = readFileSync(path.join(r.ws, build.storedAt), 'utf8');
      assert.equal(stored.split('\n').length - 1, DEMO_BUILD_LINES);
      // The model read README.md (a file from the listing), and found the error line by grep.
      const calls = r.events.filter((e) => e.type === 'tool-call-started');
      assert.ok(calls.some((e) => e.type === 'tool-call-started' && /README\.md/.test(e.arguments)));
      const around = finished.find(
        (e) => e.type === 'tool-call-finished' && e.tool === 'read_file' && e.preview.includes(DEMO_ERROR_TEXT),
      );
      assert.ok(around, `the lines around line ${DEMO_ERROR_LINE} were read`);
      const last = r.events.filter((e) => e.type === 'context-prepared').at(-1);
      assert.ok(last?.type === 'context-prepared');
      assert.ok(last.masked.length >= 3, `older observations are masked (${last.masked.length})`);
      assert.ok(
        last.masked.some((m) => m.storedAt === build.storedAt),
        'the masked build log names its file',
      );
      // Short outputs too: every placeholder names the file with the full text (reversible masking).
      for (const m of last.masked) {
        assert.ok(m.storedAt, `masked output ${m.index} names its file`);
        assert.ok(existsSync(path.join(r.ws, m.storedAt)), m.storedAt);
      }
      const answer = r.agent.state().messages.at(-1)!;
      assert.ok(answer.content.startsWith(DEMO_DONE));
      assert.match(answer.content, new RegExp(`line ${DEMO_ERROR_LINE}`));
    } finally {
      await r.cleanup();
    }
  });
}

test('a follow-up after the tour gets a short scripted answer and no tool call', async () => {
  const r = await runTour('masking', { 'a.txt': 'x\n' });
  try {
    assert.equal(await r.agent.send('And now?'), 'completed');
    const answer = r.agent.state().messages.at(-1)!;
    assert.equal(answer.role, 'assistant');
    assert.equal(answer.toolCalls, undefined);
    assert.match(answer.content, /demo script/);
  } finally {
    await r.cleanup();
  }
});

test('an empty workspace still gets a whole tour (the steps that need a file are skipped)', async () => {
  const r = await runTour('masking', {});
  try {
    assert.equal(r.status, 'completed');
    assert.ok(r.agent.state().messages.at(-1)!.content.startsWith(DEMO_DONE));
  } finally {
    await r.cleanup();
  }
});

test('the script starts at step 1 for a new task and never repeats a tool call id', () => {
  const first = nextDemoReply([{ role: 'user', content: 'go' }]);
  assert.match(first.text, /^\*\*Demo step 1\/\d+\.\*\*/);
  assert.equal(first.toolCalls[0]!.name, 'list_dir');
  const second = nextDemoReply([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
    { role: 'tool', toolCallId: first.toolCalls[0]!.id, name: 'list_dir', content: './ (2 entries):\nsrc/\nnotes.txt' },
  ]);
  assert.match(second.text, /^\*\*Demo step 2\//);
  assert.deepEqual(JSON.parse(second.toolCalls[0]!.arguments), { path: 'notes.txt', limit: 40 });
  assert.notEqual(second.toolCalls[0]!.id, first.toolCalls[0]!.id);
});

test('the simulated build log has the promised size, one error and a summary', () => {
  const lines = demoBuildLog().trimEnd().split('\n');
  assert.equal(lines.length, DEMO_BUILD_LINES);
  assert.equal(lines[DEMO_ERROR_LINE - 1], DEMO_ERROR_TEXT);
  assert.equal(lines.filter((l) => / error: /.test(l)).length, 1);
  assert.match(lines.at(-1)!, /build failed/);
});

test('Stop ends the demo stream with an aborted error', async () => {
  const provider = new DemoProvider({ chunkDelayMs: 1 });
  const controller = new AbortController();
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const e of provider.chat({
        model: 'scripted-tour',
        messages: [{ role: 'user', content: 'go' }],
        tools: [],
        signal: controller.signal,
      })) {
        if (e.type === 'text-delta') seen.push(e.text);
        if (seen.length === 2) controller.abort();
      }
    })(),
    (e: Error & { kind?: string }) => e.kind === 'aborted',
  );
  assert.equal(seen.length, 2);
});

test('file names from the workspace reach the Markdown only as literal code spans', () => {
  const hostile = 'a`<img src=x onerror=alert(1)>`b.md';
  const reply = nextDemoReply([
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: '**Demo step 1/9.** x',
      toolCalls: [{ id: 'demo_1', name: 'list_dir', arguments: '{}' }],
    },
    { role: 'tool', toolCallId: 'demo_1', name: 'list_dir', content: `./ (1 entries):\n${hostile}` },
  ]);
  assert.equal(reply.text, '**Demo step 2/9.** Reading `` a`<img src=x onerror=alert(1)>`b.md ``.');
  const html = markdownToHtml(reply.text);
  assert.ok(!html.includes('<img'), html);
  assert.equal(code('plain'), '` plain `');
});
