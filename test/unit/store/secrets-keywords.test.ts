import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';

// One line per rule of secretlint's recommended preset that reports on plain output (all fake,
// format-valid): our rule table must cover them all without secretlint.
const r = (n: number, alphabet = 'aB3dE6hJ9kM2nP5qR8tU1wX4zY7'): string =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const SECRET_LINES: Record<string, string> = {
  awsAccessKey: 'key id ASIAQ3EGRIXZ5CRQ7XYZ in use',
  awsSecret: `aws_secret_access_key = "${r(20)}/${r(19)}"`,
  npmToken: `token npm_${r(36)} ok`,
  slackToken: 'slack xoxp-2837461928374-4827364918273-Kd8sJf7Hg6Tr5Ew4Qa3Zx2Cv',
  slackHook: `posting to https://hooks.slack.com/services/T${r(8)}/B${r(8)}/${r(24)}`,
  basicAuth: 'fetch https://builder:Xk9mQ2vL7pRz@registry.example.com/pkg',
  openai: `OPENAI_API_KEY=sk-${r(20)}T3BlbkFJ${r(20)}`,
  anthropic: `ANTHROPIC_API_KEY=sk-ant-api03-${r(93)}AA`,
  linear: `LINEAR=lin_api_${r(40)}`,
  sendgrid: `SENDGRID=SG.${r(22)}.${r(43)}`,
  shopify: `shop shpat_${r(32, '0123456789abcdef')}`,
  githubClassic: 'token: ghs_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx',
  githubFine: `token github_pat_${r(82)}`,
  mongodb: 'connecting to mongodb+srv://appuser:Zq8wLm3vNx7p@cluster0.example.net/prod',
  postgres: 'DATABASE_URL=postgresql://svc:Hb4nQw9zXr2k@db.internal:5432/app',
};
const PLAIN_LINES = [
  'INFO 2026-11-22T02:33:02Z worker-7 processed batch with 512 items in 12 ms',
  'PASS src/module3/file12.test.ts (7 ms) ✓ renders the thing',
  'desk-task-disk: nothing secret here, only words like account and private',
  'see https://example.com/docs/page?x=1 for details',
  'ünïcödé 日本語 😀 text',
  '',
];

test("every sample line of the secretlint preset's formats is redacted by our rules", async () => {
  const missed: string[] = [];
  for (const [name, line] of Object.entries(SECRET_LINES)) {
    const out = await redactSecrets(line + '\n', { prefilter: false });
    if (!out.text.includes('[REDACTED:')) missed.push(name);
  }
  assert.deepEqual(missed, []);
});

test('the prefilter never changes the result', async () => {
  const pool = [...Object.values(SECRET_LINES), ...PLAIN_LINES];
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 30 }),
      fc.boolean(),
      async (lines, trailingNewline) => {
        const text = lines.join('\n') + (trailingNewline ? '\n' : '');
        const [fast, full] = await Promise.all([redactSecrets(text), redactSecrets(text, { prefilter: false })]);
        assert.deepEqual(fast, full);
      },
    ),
    { numRuns: 150 },
  );
});

test('secretlint-style disable comments in output do not switch redaction off', async () => {
  const text = '// secretlint-disable\ntoken: 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\n// secretlint-enable\n';
  const out = await redactSecrets(text);
  assert.ok(!out.text.includes('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'));
  assert.equal(out.counts['github-token'], 1);
  assert.ok(out.text.includes('// secretlint-disable'), 'the text itself is kept');
});
