// Every message to the log (a file under VS Code's logs folder) is redacted: strings, errors with
// their stack, and extra arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../src/core/ports';
import { redactingLogger } from '../../../src/core/store/sanitize/redacting-logger';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

test('the log gets messages, errors and arguments redacted', () => {
  const token = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
  const seen: unknown[][] = [];
  const record =
    (level: string) =>
    (...a: unknown[]): void => {
      seen.push([level, ...a]);
    };
  const inner: Logger = {
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
  const log = redactingLogger(inner, (t) => redactSecretsSync(t).text);
  log.info(`Agent run failed: 401 for key ${token}`);
  log.warn('extra', `GITHUB_TOKEN=${token}`, 3);
  log.error(new Error(`request with ${token} failed`));
  const text = JSON.stringify(seen);
  assert.ok(!text.includes(token.slice(4, 16)), text);
  assert.equal(seen[0]![1], 'Agent run failed: 401 for key [REDACTED:github-token]');
  assert.deepEqual(seen[1], ['warn', 'extra', 'GITHUB_TOKEN=[REDACTED:github-token]', 3]);
  assert.match(String(seen[2]![1]), /^Error: request with \[REDACTED:github-token\] failed\n\s+at /);
});

test("an object argument (a request's headers, a URL with its key) reaches the log as redacted JSON", () => {
  const token = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
  const googleKey = ['AIza', 'SyA1b2C3d4E5f6G7h8I9j0KLMNOPQRSTUVW'].join('');
  const seen: unknown[] = [];
  const keep = (_m: string, ...a: unknown[]): void => void seen.push(...a);
  const log = redactingLogger(
    { trace: keep, debug: keep, info: keep, warn: keep, error: keep },
    (t) => redactSecretsSync(t).text,
  );
  const cyclic: Record<string, unknown> = { note: `token ${token}` };
  cyclic.self = cyclic;
  log.error(
    'provider request failed',
    {
      url: `https://generativelanguage.googleapis.com/v1/models?key=${googleKey}`,
      headers: { Authorization: `Bearer ${token}` },
    },
    cyclic,
    null,
    7,
  );
  const text = JSON.stringify(seen);
  assert.ok(!text.includes(token.slice(4, 16)) && !text.includes(googleKey.slice(4, 16)), text);
  assert.match(String(seen[0]), /"Authorization":"Bearer \[REDACTED:[a-z-]+\]"/);
  assert.deepEqual(seen.slice(2), [null, 7]);
});
