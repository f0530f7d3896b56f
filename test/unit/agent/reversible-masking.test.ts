// Masking is reversible: every placeholder the model gets names the file with the full text, short
// outputs (under the 8 KB storing threshold) included. Real store, real scripted server, real tokenizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ContextStore } from '../../../src/core/store/context-store';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { parseMaskPlaceholder } from '../../../src/core/strategies/placeholder';
import { createTokenizer } from '../../../src/core/tokens';
import { harness, readSteps } from './helpers';
import { tempDir } from '../store/helpers';

for (const strategy of ['masking', 'cache-aware', 'hybrid'] as const) {
  test(`${strategy}: a masked short output names a file holding its full text`, async (t) => {
    const ws = await tempDir(t);
    const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
    const h = await harness([...readSteps(14), { reply: { text: 'Done.' } }], {
      strategy,
      // A small window makes cache-aware and hybrid mask too.
      strategyOptions: { contextWindow: 4_000, window: 3 },
      longOutput: new ToolOutputStore(store, createTokenizer('o200k')),
    });
    try {
      assert.equal(await h.agent.send('Read the files.'), 'completed');
      const originals = h.agent.state().messages.filter((m) => m.role === 'tool');
      assert.ok(originals.every((m) => m.content.length < 8 * 1024 && !m.content.includes('Full output')));
      let placeholders = 0;
      for (const request of h.server.chatRequests()) {
        for (const m of request.messages) {
          const parsed = m.role === 'tool' ? parseMaskPlaceholder(String(m.content)) : undefined;
          if (!parsed) continue;
          placeholders++;
          assert.ok(parsed.storedAt, `a placeholder without a file: ${String(m.content)}`);
          const original = originals.find((o) => o.toolCallId === m.tool_call_id)!;
          assert.equal(readFileSync(path.join(ws, parsed.storedAt), 'utf8'), original.content);
        }
      }
      assert.ok(placeholders > 0, `${strategy} masked something`);
    } finally {
      await h.close();
    }
  });
}

for (const strategy of ['masking', 'cache-aware', 'hybrid'] as const) {
  test(`${strategy}: an output whose file could not be written (disk full) is never masked while the window has room`, async () => {
    const full = {
      store: () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
    };
    const h = await harness([...readSteps(14), { reply: { text: 'Done.' } }], {
      strategy,
      strategyOptions: { contextWindow: 1_000_000, window: 3, cachedPrice: 1, cacheWritePrice: 1 },
      longOutput: full,
    });
    try {
      assert.equal(await h.agent.send('Read the files.'), 'completed');
      const outputs = h.agent.state().messages.filter((m) => m.role === 'tool');
      assert.equal(outputs.length, 14);
      assert.ok(outputs.every((m) => m.unstored === true && m.content.includes('could not store this output')));
      const last = h.server.chatRequests().at(-1)!;
      const sent = last.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      assert.deepEqual(
        sent,
        outputs.map((m) => m.content),
      );
    } finally {
      await h.close();
    }
  });
}

test("a masked output's placeholder names the chat's own folder, not a random UUID: ~18 tokens shorter, still readable", async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const tokenizer = createTokenizer('o200k');
  const h = await harness([...readSteps(6), { reply: { text: 'Done.' } }], {
    strategy: 'masking',
    strategyOptions: { window: 2 },
    sessionId: 'chat-mhx3k2ab',
    longOutput: new ToolOutputStore(store, tokenizer),
  });
  try {
    assert.equal(await h.agent.send('Read the files.'), 'completed');
    assert.equal(h.agent.state().id, 'chat-mhx3k2ab');
    const sent = h.server
      .chatRequests()
      .at(-1)!
      .messages.map((m) => String(m.content));
    const parsed = sent.map(parseMaskPlaceholder).filter((p) => p?.storedAt !== undefined);
    assert.ok(parsed.length > 0, 'something was masked');
    for (const p of parsed) {
      assert.match(p!.storedAt!, /^\.context-desk\/tool-outputs\/chat-mhx3k2ab\/\d+-read_file\.txt$/);
      assert.ok(readFileSync(path.join(ws, p!.storedAt!), 'utf8').length > 0, 'the file holds the full text');
    }
    const placeholder = sent.find((c) => parseMaskPlaceholder(c)?.storedAt)!;
    const withUuid = placeholder.replace('chat-mhx3k2ab', '3f1c9e2a-7b4d-4c1e-9a8f-2d6b5e0c4a71');
    assert.ok(tokenizer.count(withUuid) - tokenizer.count(placeholder) >= 15, 'shorter than with a UUID');
  } finally {
    await h.close();
  }
});
