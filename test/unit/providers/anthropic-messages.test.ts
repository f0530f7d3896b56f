import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { toAnthropicRequest, toAnthropicTools } from '../../../src/core/providers/anthropic-messages';
import { maskMessage } from '../../../src/core/strategies/placeholder';

const sys: Message = { role: 'system', content: 'You are an agent.' };
const task: Message = { role: 'user', content: 'Fix the bug.' };
function turn(i: number): Message[] {
  return [
    {
      role: 'assistant',
      content: `Reading ${i}`,
      toolCalls: [{ id: `t${i}`, name: 'read_file', arguments: `{"path":"f${i}"}` }],
    },
    { role: 'tool', content: `contents of f${i}\nline 2`, toolCallId: `t${i}`, name: 'read_file' },
  ];
}

/** Where the cache_control marks ended up: [message index, block index] pairs. */
function marks(parts: ReturnType<typeof toAnthropicRequest>): [number, number][] {
  const found: [number, number][] = [];
  parts.messages.forEach((m, i) =>
    (m.content as { cache_control?: unknown }[]).forEach((b, j) => {
      if (b.cache_control) found.push([i, j]);
    }),
  );
  return found;
}

test('converts roles: system apart, tool results as user tool_result blocks, tool calls as tool_use', () => {
  const parts = toAnthropicRequest([sys, task, ...turn(1), { role: 'user', content: 'Also check f2.' }]);
  assert.deepEqual(parts.system, [{ type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } }]);
  assert.equal(parts.messages.length, 3);
  assert.deepEqual(parts.messages[1], {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading 1' },
      { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'f1' } },
    ],
  });
  // The tool result and the next user text merge into one user message (roles must alternate).
  const user = parts.messages[2]!.content as { type: string }[];
  assert.deepEqual(
    user.map((b) => b.type),
    ['tool_result', 'text'],
  );
});

test('malformed tool-call JSON is kept visible rather than dropped; empty messages get a placeholder', () => {
  const parts = toAnthropicRequest([
    task,
    { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'grep', arguments: '{"pattern": ' }] },
    { role: 'tool', content: '', toolCallId: 'x' },
  ]);
  const tu = (parts.messages[1]!.content as { input?: unknown }[])[0]!;
  assert.deepEqual(tu.input, { _unparsed_arguments: '{"pattern": ' });
  const tr = (parts.messages[2]!.content as { content?: unknown }[])[0]!;
  assert.equal(tr.content, '(empty output)');
});

test('text with no visible character is never a text block (the API refuses one)', () => {
  const parts = toAnthropicRequest([
    task,
    { role: 'assistant', content: '\n\n', toolCalls: [{ id: 'x', name: 'grep', arguments: '{}' }] },
    { role: 'tool', content: ' \n', toolCallId: 'x' },
    { role: 'assistant', content: ' ' },
    { role: 'user', content: 'Go on.' },
  ]);
  const blocks = parts.messages.flatMap((m) => m.content as { type: string; text?: string; content?: string }[]);
  for (const b of blocks) {
    if (b.type === 'text') assert.notEqual(b.text!.trim(), '', JSON.stringify(b));
    if (b.type === 'tool_result') assert.equal(b.content, '(empty output)');
  }
  assert.deepEqual(
    (parts.messages[1]!.content as { type: string }[]).map((b) => b.type),
    ['tool_use'],
  );
});

test('first call: one breakpoint on the last message', () => {
  const msgs = [sys, task, ...turn(1)];
  const parts = toAnthropicRequest(msgs);
  assert.deepEqual(parts.breakpoints, [3]);
  assert.deepEqual(marks(parts), [[2, 0]]);
});

test('append-only growth: breakpoints at the end of the previous request and at the new end', () => {
  const first = [sys, task, ...turn(1)];
  const second = [...first, ...turn(2)];
  const parts = toAnthropicRequest(second, first);
  assert.deepEqual(parts.breakpoints, [3, 5]);
  assert.deepEqual(marks(parts), [
    [2, 0],
    [4, 0],
  ]);
});

test('when masking rewrites an early observation, the stable breakpoint moves before the change', () => {
  const t1 = turn(1);
  const t2 = turn(2);
  const t3 = turn(3);
  const previous = [sys, task, ...t1, ...t2, ...t3];
  const masked = [sys, task, t1[0]!, maskMessage(t1[1]!), ...t2, ...t3, ...turn(4)];
  const parts = toAnthropicRequest(masked, previous);
  // Index 3 (the masked tool result) changed: the stable prefix ends at index 2, the assistant action.
  assert.deepEqual(parts.breakpoints, [2, masked.length - 1]);
  assert.equal(parts.breakpoints.length <= 3, true);
  const block = (parts.messages[1]!.content as { type: string; cache_control?: unknown }[]).at(-1)!;
  assert.equal(block.type, 'tool_use');
  assert.deepEqual(block.cache_control, { type: 'ephemeral' });
});

test('a change right after the system prompt leaves only the system and end breakpoints', () => {
  const parts = toAnthropicRequest([sys, { role: 'user', content: 'Other task' }], [sys, task]);
  assert.deepEqual(parts.breakpoints, [1]);
});

test('tools become input_schema objects', () => {
  const tools = toAnthropicTools([
    { name: 'grep', description: 'd', inputSchema: { properties: { p: { type: 'string' } } } },
  ]);
  assert.deepEqual(tools, [
    { name: 'grep', description: 'd', input_schema: { type: 'object', properties: { p: { type: 'string' } } } },
  ]);
});

test('property: tool-call ids from any server reach Anthropic in its pattern, still pairing call and result', () => {
  const conversation = (ids: readonly string[]): Message[] => [
    task,
    { role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'read_file', arguments: '{}' })) },
    ...ids.map((id): Message => ({ role: 'tool', content: 'text', toolCallId: id, name: 'read_file' })),
  ];
  const idsOf = (parts: ReturnType<typeof toAnthropicRequest>): { uses: string[]; results: string[] } => {
    const blocks = parts.messages.flatMap((m) => m.content as { type: string; id?: string; tool_use_id?: string }[]);
    return {
      uses: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!),
      results: blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!),
    };
  };
  // Kimi's ids, and two that differ only in characters Anthropic refuses.
  const kimi = idsOf(
    toAnthropicRequest(conversation(['functions.read_file:0', 'functions.read_file:1', 'a.b', 'a:b'])),
  );
  for (const id of kimi.uses) assert.match(id, /^[A-Za-z0-9_-]+$/);
  assert.equal(new Set(kimi.uses).size, 4, 'distinct ids stay distinct');
  assert.deepEqual(kimi.results, kimi.uses);
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 6 }), (ids) => {
      const { uses, results } = idsOf(toAnthropicRequest(conversation(ids)));
      assert.deepEqual(results, uses);
      assert.equal(new Set(uses).size, ids.length);
      uses.forEach((id, i) => {
        assert.match(id, /^[A-Za-z0-9_-]+$/);
        if (/^[A-Za-z0-9_-]+$/.test(ids[i]!)) assert.equal(id, ids[i], 'a valid id is sent as it is');
      });
    }),
  );
});

/**
 * Anthropic's prompt cache as its docs describe it: a breakpoint writes an entry for the prefix ending at
 * its block, and reads the longest prefix with an entry that ends at it or at most LOOKBACK blocks before it.
 */
const LOOKBACK = 20;
function anthropicCache() {
  const entries = new Set<string>();
  return (parts: ReturnType<typeof toAnthropicRequest>): { readBlocks: number; blocks: number } => {
    const blocks = [...(parts.system ?? []), ...parts.messages.flatMap((m) => m.content as object[])];
    const plain = blocks.map((b) => JSON.stringify({ ...b, cache_control: undefined }));
    const key = (end: number) => plain.slice(0, end + 1).join('\n');
    const marked = blocks.flatMap((b, i) => ((b as { cache_control?: unknown }).cache_control ? [i] : []));
    let readBlocks = 0;
    for (const p of marked)
      for (let i = p; i >= Math.max(0, p - LOOKBACK); i--)
        if (entries.has(key(i))) {
          readBlocks = Math.max(readBlocks, i + 1);
          break;
        }
    for (const p of marked) entries.add(key(p));
    return { readBlocks, blocks: blocks.length };
  };
}

function parallelTurn(t: number, calls: number): Message[] {
  const ids = Array.from({ length: calls }, (_, i) => `t${t}_${i}`);
  return [
    {
      role: 'assistant',
      content: `Reading ${calls} files`,
      toolCalls: ids.map((id) => ({ id, name: 'read_file', arguments: `{"path":"${id}"}` })),
    },
    ...ids.map((id): Message => ({ role: 'tool', content: `contents of ${id}`, toolCallId: id, name: 'read_file' })),
  ];
}

test('masking turns of many parallel tool calls: each request reads the cached prefix (the lookback is 20 blocks)', () => {
  // Observations older than two turns are masked: each request rewrites the results of one older turn.
  const turns = Array.from({ length: 8 }, (_, t) => parallelTurn(t, 12));
  const cache = anthropicCache();
  let previous: { messages: Message[]; breakpoints: number[] } | undefined;
  for (let n = 1; n <= turns.length; n++) {
    const masked = (m: Message) => (m.role === 'tool' ? maskMessage(m) : m);
    const messages = [sys, task, ...turns.slice(0, n).flatMap((turn, t) => (t < n - 2 ? turn.map(masked) : turn))];
    const parts = toAnthropicRequest(messages, previous?.messages, previous?.breakpoints);
    assert.ok(parts.breakpoints.length <= 3, 'with the system prompt, at most four breakpoints');
    const { readBlocks, blocks } = cache(parts);
    // Each turn is 25 blocks (a text, 12 tool uses, 12 results). Request n masks turn n-3's results; the
    // previous one cached everything up to turn n-4's tool uses (its own change came after them): that is
    // read, not written again at 1.25 times the input price. (Request 3 changes the first turn: the system.)
    const cached = n >= 4 ? 2 + (n - 4) * 25 + 13 : 1;
    if (n > 1)
      assert.ok(readBlocks >= cached, `request ${n}: read ${readBlocks} of ${blocks} blocks, ${cached} cached`);
    previous = { messages, breakpoints: parts.breakpoints };
  }
});
