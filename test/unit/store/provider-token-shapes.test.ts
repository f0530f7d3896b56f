// Token shapes of well-known providers, each found on its own and left alone where an ordinary word has
// its prefix: Stripe, Slack, GitLab, npm, PyPI, Hugging Face, Google, Azure (identifiable keys, DevOps
// PATs, connection strings), JWTs and JWEs (also with a pretty-printed header), .env lines.
// Every value is made here from a fixed seed (test/fixtures/secrets/README.md): none is a credential.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';

let seed = 20261127;
/** `n` characters of `alphabet`, from a fixed-seed generator (the same values every run). */
function random(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out += alphabet[(seed >>> 16) % alphabet.length];
  }
  return out;
}
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** `text` holds none of `secret`'s 12-character pieces once redacted, and names `rule` when given. */
function assertRedacted(text: string, secret: string, rule?: string): void {
  const out = redactSecretsSync(text).text;
  for (let i = 0; i + 12 <= secret.length; i++) assert.ok(!out.includes(secret.slice(i, i + 12)), `${text}\n=> ${out}`);
  if (rule) assert.ok(out.includes(`[REDACTED:${rule}]`), `${rule}: ${out}`);
}

test('Azure identifiable keys are found bare: Storage, Cosmos DB, Service Bus, Event Hubs, Relay', () => {
  const keys = [
    `${random(76, B64)}+ASt${random(5, B64)}Q==`,
    `${random(76, B64)}ACDb${random(5, B64)}w==`,
    `${random(33, B64)}+ASb${random(5, B64)}=`,
    `${random(33, B64)}+AEh${random(5, B64)}=`,
    `${random(33, B64)}+ARm${random(5, B64)}=`,
  ];
  for (const key of keys)
    for (const text of [key, `az storage blob list --account-key ${key}`, `"primaryKey": "${key}"`, `${key}_OLD`])
      assertRedacted(text, key, text === key ? 'azure-identifiable-key' : undefined);
});

test('Azure DevOps PATs and other annotated Azure keys (…JQQJ9…) are found bare', () => {
  const pat = `${random(52)}JQQJ99${random(1)}A${random(16)}AZDO${random(4)}`;
  assert.equal(pat.length, 84);
  assertRedacted(pat, pat, 'azure-identifiable-key');
  assertRedacted(`git clone https://${pat}@dev.azure.com/org/project/_git/repo`, pat);
  assertRedacted(`echo ${pat} | az devops login --organization https://dev.azure.com/org`, pat);
});

test('JWEs and JWTs with a pretty-printed header are found', () => {
  const jwe = `${b64url('{"alg":"dir","enc":"A256GCM"}')}..${random(22, B64URL)}.${random(120, B64URL)}.${random(22, B64URL)}`;
  assertRedacted(`Cookie: __Secure-next-auth.session-token=${jwe}`, jwe);
  assertRedacted(jwe, jwe, 'jwt');
  const rsa = `${b64url('{"alg":"RSA-OAEP","enc":"A256GCM"}')}.${random(342, B64URL)}.${random(16, B64URL)}.${random(200, B64URL)}.${random(22, B64URL)}`;
  assertRedacted(rsa, rsa, 'jwt');
  for (const header of ['{ "alg": "HS256", "typ": "JWT" }', '{\n  "alg": "HS256"\n}', '{\r\n "alg": "HS256"\r\n}']) {
    const jwt = `${b64url(header)}.${b64url('{ "sub": "1234567890", "iat": 1516239022 }')}.${random(43, B64URL)}`;
    assertRedacted(jwt, jwt, 'jwt');
  }
});

test('the listed providers: each token shape is found alone, after export, quoted and with a suffix', () => {
  const tokens: Array<[string, string]> = [
    ['stripe-key', `sk_live_51H${random(96)}`],
    ['stripe-key', `rk_live_${random(24)}`],
    ['slack-token', `xapp-1-A0123ABCDEF-1234567890123-${random(64, '0123456789abcdef')}`],
    ['gitlab-token', `glpat-${random(20)}`],
    ['gitlab-token', `glpat-${random(27)}.01.${random(9)}`],
    ['npm-token', `npm_${random(36)}`],
    ['pypi-token', `pypi-AgEIcHlwaS5vcmc${random(60, B64URL)}`],
    ['huggingface-token', `hf_${random(34)}`],
    ['google-api-key', `AIza${random(35, B64URL)}`],
  ];
  for (const [rule, token] of tokens) {
    assertRedacted(token, token, rule);
    for (const text of [
      `export TOKEN=${token}`,
      `TOKEN="${token}"`,
      `${token}_OLD`,
      `{"key":"${token}"}`,
      `key: '${token}'`,
    ])
      assertRedacted(text, token);
  }
});

test('ordinary words and data with those prefixes stay', () => {
  const kept = [
    'eyJhbGciOi is how a JWT header starts',
    'version eyJ.1.2.3.4',
    'ewogICJuYW1lIjogIngiCn0=',
    `data:application/json;base64,${b64url('{ "name": "x", "items": [1, 2, 3] }')}`,
    'the +ASt suffix marks Azure storage keys',
    'JQQJ99 is the signature of an annotated key',
    `sha512-${random(86, B64)}==`,
    'sk_live_mode_enabled',
    'hf_hub_download(repo_id="gpt2")',
    'npm_config_cache=/tmp/npm-cache',
    'AIzaSyExampleKeyForDocs',
  ];
  for (const text of kept) assert.equal(redactSecretsSync(text).text, text, text);
});

test('long runs around the new shapes are read in linear time', () => {
  const started = performance.now();
  const n = 400_000;
  for (const line of [
    'A'.repeat(n) + '+ASt',
    '+ASt'.repeat(n / 4),
    'JQQJ99'.repeat(n / 6),
    'a'.repeat(n) + 'JQQJ99',
    `eyJ${'a'.repeat(n)}.`,
    'eyJaaaaaaaaaa.'.repeat(n / 14),
    'ewogaaaaaaaa.b.'.repeat(n / 15),
  ])
    assert.equal(typeof redactSecretsSync(line).text, 'string');
  assertQuick(started);
});
