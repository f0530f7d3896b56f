// A token with a suffix after it (`AIza…_OLD`, `hf_…_BACKUP`, `SK…_2`, `key-…-old`): people keep old and
// spare keys under such names. A token ends where a letter or digit no longer follows its body: `_`, `-`
// or `.` after a full-length token starts a suffix, even when the token's own alphabet has `_` or `-`.
// A distinctive prefix with a fixed-length body is a token also when a letter or digit is glued on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import * as path from 'node:path';
import { assertQuick } from '../../support/linear-time';
import {
  allFiles,
  CORPUS,
  leakedFormats,
  openStore,
  windowsOf,
  WRITE_PATHS,
  type Cuts,
} from '../../support/secret-corpus';
import { tempDir } from './helpers';

const standalone = CORPUS.filter((e) => e.standalone && !e.secret.includes('\n'));

/** Every 12-character piece of `secret` that survives in `text`. */
function leaked(text: string, secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 12 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 12))) out.push(secret.slice(i, i + 12));
  return out;
}

const SUFFIXES = ['_OLD', '_old', '_BACKUP', '_2', '_PROD', '-old', '.old', '.bak', '__v2'];

for (const suffix of SUFFIXES)
  test(`every standalone token followed by \`${suffix}\` is redacted`, () => {
    const leaks: string[] = [];
    for (const e of standalone)
      for (const text of [`${e.secret}${suffix}`, `export KEY=${e.secret}${suffix}`, `"${e.secret}${suffix}"`])
        if (leaked(redactSecretsSync(text).text, e.secret).length > 0) leaks.push(`${e.rule}: ${text}`);
    assert.deepEqual(leaks, []);
  });

// Streamed, a suffixed token may be cut anywhere, also right before its suffix (the real writers, on disk).
for (const pathName of ['tool output (+ masked-observation index)', 'terminal log'] as const)
  test(`${pathName}: suffixed tokens cut by a chunk boundary anywhere in them leave nothing on disk`, async (t) => {
    const store = await openStore(await tempDir(t));
    const suffixed = [(s: string) => `${s}_OLD`, (s: string) => `export K=${s}-old`, (s: string) => `"${s}.bak"`];
    const texts = standalone.map((e, i) => suffixed[i % suffixed.length]!(e.secret));
    for (const at of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      const cuts: Cuts = (output) => {
        let from = 0;
        return standalone.map((e) => {
          const i = output.indexOf(e.secret, from);
          from = i + e.secret.length;
          return Buffer.byteLength(output.slice(0, i)) + Math.round(e.secret.length * at);
        });
      };
      await WRITE_PATHS[pathName]!(store, texts, cuts);
    }
    const windows = windowsOf(standalone);
    const leaks: string[] = [];
    for (const f of await allFiles(store.root))
      for (const format of leakedFormats(f.text, windows))
        leaks.push(`${format} in ${path.relative(store.root, f.file)}`);
    assert.deepEqual(leaks, []);
  });

test('the suffix stays readable after the redacted token', () => {
  const pick = (rule: string) => standalone.find((e) => e.rule === rule)!.secret;
  for (const [rule, suffix] of [
    ['google-api-key', '_OLD'],
    ['huggingface-token', '_BACKUP'],
    ['twilio-api-key', '_2'],
    ['mailgun-api-key', '-old'],
    ['telegram-bot-token', '_PROD'],
    ['azure-ad-client-secret', '.bak'],
  ] as const)
    assert.equal(redactSecretsSync(`${pick(rule)}${suffix}`).text, `[REDACTED:${rule}]${suffix}`, rule);
});

/** Fixed-length bodies after a distinctive prefix: a letter or digit glued on is not part of the token. */
const FIXED_DISTINCT = ['aws-access-key-id', 'npm-token', 'linear-api-key', 'brevo-api-key', 'alibaba-access-key-id'];
/** The same with a hex body: a non-hex letter glued on is a suffix; more hex makes a longer run, a hash. */
const FIXED_HEX = [
  'digitalocean-token',
  'shopify-token',
  'rubygems-token',
  'openrouter-api-key',
  'langsmith-api-key',
  'langfuse-secret-key',
  'supabase-token',
  'postman-api-key',
  'sourcegraph-token',
  'sonar-token',
];

for (const [rules, suffixes] of [
  [
    [...FIXED_DISTINCT, 'artifactory-token', 'google-api-key'],
    ['2', 'X', 'prod'],
  ],
  [FIXED_HEX, ['X', 'prod', 'OLD']],
] as const)
  for (const suffix of suffixes)
    test(`a fixed-length token with a distinctive prefix and \`${suffix}\` glued on is redacted (${rules[0]}, …)`, () => {
      const entries = standalone.filter((x) => (rules as readonly string[]).includes(x.rule));
      assert.equal(new Set(entries.map((e) => e.rule)).size, rules.length);
      const leaks: string[] = [];
      for (const e of entries)
        if (leaked(redactSecretsSync(`${e.secret}${suffix}`).text, e.secret).length > 0)
          leaks.push(`${e.rule}: ${e.secret}${suffix}`);
      assert.deepEqual(leaks, []);
    });

test('a hex token with more hex glued on is a longer hex run, and stays', () => {
  for (const e of standalone.filter((x) => FIXED_HEX.includes(x.rule) && /[0-9a-f]$/.test(x.secret)))
    assert.equal(redactSecretsSync(`${e.secret}0`).text, `${e.secret}0`, e.rule);
});

test('a letters-only run after a distinctive prefix is a word, not a token with a suffix', () => {
  for (const text of [
    'AKIAEXAMPLEDOCUMENTATIONPAGES',
    'npm_packageJsonVersionResolutionStrategyForWorkspaces',
    'lin_api_requestHandlerFactoryForTheGraphQLEndpointX',
    'LTAIAccessKeyRotationPolicyDocumentation',
    'AIzaKeyRestrictionsForTheMapsJavascriptApiDocsPage',
  ])
    assert.equal(redactSecretsSync(text).text, text, text);
});

test('ordinary identifiers and words with a vendor prefix and a suffix are left alone', () => {
  const texts = [
    'sk-learn-model-selection-tools_OLD',
    'key-value-store-settings-for-the-app_2',
    'hf_hub_download_with_cache_and_retries_OLD',
    'hf_transformers_pipeline_configuration_BACKUP',
    'secret_key_base_for_the_rails_application_old',
    'npm_config_registry_url_for_private_scope_2',
    'npm_lifecycle_eventScriptsRunnerForTheWorkspaceProjects',
    'AKIA_PREFIX_DOCUMENTATION_EXAMPLE_OLD',
    'API-VERSION-HEADER-FOR-THE-CLIENT_2',
    'fc-container-name-for-the-service_OLD',
    'dapi_version_and_schema_check_helpers_2',
    'telegram:AA_bot_handler_name_old',
    'SKILLS_AND_TOOLS_DIRECTORY_FOR_AGENT_2',
  ];
  for (const text of texts) assert.equal(redactSecretsSync(text).text, text, text);
});

test('property: snake_case and kebab-case identifiers of lowercase words are never changed', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/);
  fc.assert(
    fc.property(fc.array(word, { minLength: 2, maxLength: 8 }), fc.constantFrom('_', '-', '.'), (words, sep) => {
      const text = words.join(sep);
      assert.equal(redactSecretsSync(text).text, text);
    }),
    { numRuns: 500 },
  );
});

test('long runs after a token prefix are read in linear time', () => {
  const started = performance.now();
  const n = 400_000;
  for (const line of [
    ` AKIA${'A'.repeat(n)}`,
    `AIza${'a_'.repeat(n / 2)}`,
    `sk.eyJ${'a_'.repeat(n / 2)}`,
    `nfp_${'a_'.repeat(n / 2)}`,
    `abc1Q~${'.'.repeat(n)}`,
    `sk-${'a1'.repeat(n / 2)}_`,
    'sk-'.repeat(n / 3),
    '12345678:AA'.repeat(n / 11),
  ])
    assert.equal(typeof redactSecretsSync(line).text, 'string');
  assertQuick(started);
});
