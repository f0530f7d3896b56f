// A dying server's stderr is quoted as a tail (its last 1,500 characters). A tail cut through a token keeps its
// end (`…Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf`), which no rule recognises any more: it would reach the
// log, the server's state and SERVER.md as it is. The tail is redacted before it is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../../../src/core/ports';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import fc from 'fast-check';
import { redactSecretsSync, tailRedacted } from '../../../src/core/store/sanitize/secrets';
import { nodeCommand, withTempDir } from './helpers';

// A fake GitHub token (test/fixtures/secrets/README.md).
const TOKEN = ['ghp', '_', 'Zr4Tq8Lm2Vx6Np0Bc5Hd9Jk3Ws7Ye1Ua4Gf'].join('');

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(await readFile(path.join(e.parentPath, e.name), 'utf8'));
  return out;
}

// Through the 1,500 characters the failure message quotes: 16 to 36 of the token's 40 characters kept.
for (const after of [1500 - 16, 1500 - 20, 1500 - 30, 1500 - 36])
  test(`a token that the stderr tail's cut goes through (${after} characters after it) lands nowhere`, async () => {
    await withTempDir(async (out) => {
      const logged: string[] = [];
      const keep = (m: string, ...a: unknown[]): void => void logged.push([m, ...a].join(' '));
      const logger: Logger = { trace: keep, debug: keep, info: keep, warn: keep, error: keep };
      // The token, then exactly enough text that the last 1,500 characters start inside it.
      const printed = `auth with ${TOKEN} ${'x'.repeat(after - 1)}`;
      const m = new McpSyncManager({
        outDir: out,
        allowStart: true,
        resolveCommand: nodeCommand,
        logger,
        settingServers: {
          dying: { command: 'node', args: ['-e', `process.stderr.write(${JSON.stringify(printed)}); process.exit(2)`] },
        },
      });
      try {
        const [state] = await m.syncAll();
        assert.equal(state!.status === 'connected', false);
        const everything = [state!.message ?? '', ...logged, ...(await filesUnder(out))].join('\n');
        for (let i = 4; i + 12 <= TOKEN.length; i++)
          assert.ok(
            !everything.includes(TOKEN.slice(i, i + 12)),
            `a piece of the token: ${TOKEN.slice(i, i + 12)} in ${everything.replace(/x{20,}/g, '…')}`,
          );
      } finally {
        await m.dispose();
      }
    });
  });

test('property: a redacted tail holds no piece of a secret and starts on no half of a marker', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 120 }), (after, max) => {
      const text = `a ${TOKEN} ${after}`;
      const tail = tailRedacted(text, max);
      assert.ok(tail.length <= max, tail);
      for (let i = 4; i + 12 <= TOKEN.length; i++) assert.ok(!tail.includes(TOKEN.slice(i, i + 12)), tail);
      const whole = redactSecretsSync(text).text;
      assert.ok(whole.endsWith(tail), 'a tail of the redacted text');
      // It starts on no half of a marker: not strictly inside any `[REDACTED:…]` of the whole text (a `]`
      // the text itself holds may start it).
      const start = whole.length - tail.length;
      for (const m of whole.matchAll(/\[REDACTED:[^\]]*\]/g))
        assert.ok(start <= m.index || start >= m.index + m[0].length, `starts inside ${m[0]}: ${tail}`);
    }),
    { numRuns: 300 },
  );
});
