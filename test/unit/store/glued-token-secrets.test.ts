// Tokens glued to an identifier by `_` (`get_ghp_…`, `key_AKIA…`, `tok_xoxb-…`): `_` is a word character,
// so a rule that needs a word boundary before its prefix missed them. A distinctive vendor prefix is
// found after `_` too; never after a letter or digit, and short or common prefixes keep the boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { safeName } from '../../../src/core/store/names';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { CORPUS } from '../../support/secret-corpus';

/** Rules whose prefix is distinctive enough to find after `_` (rules/tokens.ts, rules/ai-and-services.ts,
 * rules/platforms.ts). */
const GLUED_RULES = new Set([
  'aws-access-key-id',
  'google-oauth-secret',
  'digitalocean-token',
  'github-token',
  'gitlab-token',
  'bitbucket-app-password',
  'atlassian-token',
  'slack-token',
  'sendgrid-api-key',
  'brevo-api-key',
  'stripe-key',
  'stripe-webhook-secret',
  'square-token',
  'shopify-token',
  'npm-token',
  'pypi-token',
  'rubygems-token',
  'docker-hub-token',
  'artifactory-token',
  'tailscale-key',
  'heroku-api-key',
  'planetscale-token',
  'anthropic-api-key',
  'openai-api-key',
  'openrouter-api-key',
  'groq-api-key',
  'xai-api-key',
  'perplexity-api-key',
  'langsmith-api-key',
  'langfuse-secret-key',
  'tavily-api-key',
  'nvidia-api-key',
  'linear-api-key',
  'supabase-token',
  'figma-token',
  'sentry-token',
  'grafana-token',
  'postman-api-key',
  'newrelic-key',
  'jwt',
  'mapbox-secret-token',
  'openshift-token',
  'alibaba-access-key-id',
  'sourcegraph-token',
  'platform-token',
  'sonar-token',
  'aws-bedrock-api-key',
]);

const glued = CORPUS.filter((e) => GLUED_RULES.has(e.rule) && e.standalone && !e.secret.includes('\n'));

/** Every 12-character piece of `secret` that survives in `text`. */
function leaked(text: string, secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 12 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 12))) out.push(secret.slice(i, i + 12));
  return out;
}

test('the glued-token cases cover every listed rule the corpus has', () => {
  const covered = new Set(glued.map((e) => e.rule));
  assert.ok(covered.size >= 30, `${covered.size} rules: ${[...covered].join(', ')}`);
});

for (const [name, wrap] of [
  ['after `_` in an identifier', (s: string) => `get_${s}`],
  ['after `_` and before `_` in an identifier', (s: string) => `MY_${s}_OLD`],
  ['after `_` in an assignment', (s: string) => `export TOKEN_VALUE=prefix_${s}`],
  ['after `__` in a JSON key', (s: string) => `{"x":"cfg__${s}"}`],
] as const)
  test(`a vendor-prefixed token glued ${name} is redacted`, () => {
    const leaks: string[] = [];
    for (const e of glued) {
      const text = wrap(e.secret);
      if (leaked(redactSecretsSync(text).text, e.secret).length > 0) leaks.push(`${e.rule}: ${text}`);
    }
    assert.deepEqual(leaks, []);
  });

test('a glued token of each family keeps the identifier around it', () => {
  const ghp = glued.find((e) => e.rule === 'github-token' && e.secret.startsWith('ghp_'))!;
  assert.equal(redactSecretsSync(`get_${ghp.secret}`).text, 'get_[REDACTED:github-token]');
  const aws = glued.find((e) => e.rule === 'aws-access-key-id')!;
  assert.equal(redactSecretsSync(`key_${aws.secret}_prod`).text, 'key_[REDACTED:aws-access-key-id]_prod');
});

test('a prefix glued to a letter or digit is not a token', () => {
  const ghp = glued.find((e) => e.rule === 'github-token' && e.secret.startsWith('ghp_'))!;
  for (const text of [`x${ghp.secret}`, `9${ghp.secret}`]) assert.equal(redactSecretsSync(text).text, text);
});

test('ordinary identifiers with a vendor prefix inside are left alone', () => {
  const identifiers = [
    'get_ghp_token_from_env',
    'use_github_pat_in_ci',
    'MY_ASIA_PACIFIC_REGION_NAME',
    'EAST_ASIA_REGION_ENDPOINT_V2',
    'run_npm_install_with_cache_enabled_and_retry',
    'is_sk_test_environment',
    'risk_test_results_2024_summary_final',
    'notify_xoxb_prefix_check',
    'parse_sk-ant-header',
    'cache_key-0123456789abcdef0123456789abcdef',
    'data_hvs.some_long_identifier_name_here',
    'task_live_reload_enabled_for_the_dev_server',
    'build_dapi0123456789abcdef0123456789abcdef',
    'old_secret_value_of_the_form_field_in_django_admin',
    'MAX_SK0123456789abcdef0123456789abcdef',
    'test_eyJ_prefix_is_base64_of_brace_quote',
    'self.glpat_rotation_days',
  ];
  for (const text of identifiers) assert.equal(redactSecretsSync(text).text, text, text);
});

test('property: an identifier of lowercase words joined by `_` is never changed', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/);
  fc.assert(
    fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
      const text = words.join('_');
      assert.equal(redactSecretsSync(text).text, text);
    }),
    { numRuns: 500 },
  );
});

test('a file name made of a label with a glued token holds no piece of it', () => {
  for (const e of glued) {
    const name = safeName(`session_${e.secret}`, 200);
    assert.deepEqual(leaked(name, e.secret), [], `${e.rule}: ${name}`);
  }
});
