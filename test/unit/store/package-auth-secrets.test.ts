// Package managers' credentials whose key does not say "password": Composer's auth.json (a GitHub OAuth
// token is 40 hex digits under the host's name), Yarn's npmAuthIdent (`user:password`), and vendor tokens
// known by their prefix (SonarQube, Heroku); what only looks like them stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

const clean = (s: string): string => redactSecretsSync(s).text;
const HEX40 = '8d3f1a7c92e4b05d6a1f3c8e7b2d9a4f60c1e5b3';

test("Composer's tokens by host go, pretty, minified and inside a JSON string; the host names stay", () => {
  const pretty = `{\n    "github-oauth": {\n        "github.com": "${HEX40}",\n        "ghe.example.com": "${HEX40.slice(2)}ab"\n    },\n    "gitlab-token": {\n        "gitlab.example.com": "Xy9pQ2mN8vR4tL6kJ3hG"\n    }\n}`;
  const out = clean(pretty);
  assert.ok(!out.includes(HEX40.slice(4, 20)) && !out.includes('Xy9pQ2mN8vR4'), out);
  assert.match(out, /"github\.com": "\[REDACTED:composer-auth\]"/);
  assert.match(out, /"gitlab\.example\.com": "\[REDACTED:composer-auth\]"/);
  const env = `COMPOSER_AUTH_JSON="{\\"github-oauth\\": {\\"github.com\\": \\"${HEX40}\\"}}"`;
  assert.ok(!clean(env).includes(HEX40.slice(4, 20)), clean(env));
  // A commit hash under another key, or a lock file's reference, is no token.
  for (const line of [`{"repository": {"github.com": "${HEX40}"}}`, `    "reference": "${HEX40}",`])
    assert.equal(clean(line), line);
});

test("Composer's object of many hosts: every token goes, however far from the kind; the objects after it stay", () => {
  const hosts = Array.from(
    { length: 40 },
    (_, i) => `"git${i}.example.com": "${HEX40.slice(i % 8)}${'x'.repeat(i % 8)}"`,
  );
  const text = `{"github-oauth": {${hosts.join(', ')}}, "repository": {"github.com": "${HEX40}"}}`;
  const out = clean(text);
  assert.equal(out.match(/\[REDACTED:composer-auth\]/g)?.length, 40, out);
  assert.ok(out.endsWith(`"repository": {"github.com": "${HEX40}"}}`), out);
});

test("Yarn's npmAuthIdent goes, in .yarnrc.yml and in JSON", () => {
  assert.equal(clean('    npmAuthIdent: "alice:S3cr3tPassw0rdX"'), '    npmAuthIdent: "[REDACTED:npmrc-auth]"');
  assert.equal(clean('npmAuthIdent: YWxpY2U6UzNjcjN0UGFzc3cwcmRY'), 'npmAuthIdent: [REDACTED:npmrc-auth]');
});

test('SonarQube and Heroku tokens go on their own', () => {
  assert.equal(clean(`sonar.login=squ_${HEX40}`), 'sonar.login=[REDACTED:sonar-token]');
  assert.equal(clean(`  -Dsonar.token=sqp_${HEX40} \\`), '  -Dsonar.token=[REDACTED:sonar-token] \\');
  const heroku = 'HRKU-AA' + 'Zk3_q9LmN4pR7sT1vW5xY8zA2bC6dE0fG3hJ7kM1nP5rS9tU2wX6yA0cE4g'.slice(0, 58);
  assert.equal(clean(`"key": "${heroku}"`), '"key": "[REDACTED:heroku-api-key]"');
  // A longer hex run, and base64 that only holds a prefix, stay.
  const b64 = 'data:image/png;base64,iVBORw0KGgo/EAAABCiZ7bvT8XjCCT2MnhJEqyNRK49mshagcHI/Lgxzn28VsuK3dGDfYBF';
  for (const line of [`squ_${HEX40}0`, b64]) assert.equal(clean(line), line);
});

test("a stand-in a tool prints instead of the secret stays whole: npm config list's (protected), Terraform's (sensitive value)", () => {
  // `npm config list` as it prints a user .npmrc holding a token.
  const npm = [
    '; "user" config from /home/dev/.npmrc',
    '',
    '//registry.npmjs.org/:_authToken = (protected)',
    '_password = (protected)',
    'registry = "https://registry.npmjs.org/"',
  ].join('\n');
  assert.equal(clean(npm), npm);
  for (const line of [
    '      + password = (sensitive value)',
    'export API_KEY=(redacted)',
    '"_authToken": "(protected)"',
  ])
    assert.equal(clean(line), line);
  // A token in the same place still goes.
  const token = `npm_${'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6'}`;
  assert.equal(
    clean(`//registry.npmjs.org/:_authToken = ${token}`),
    '//registry.npmjs.org/:_authToken = [REDACTED:npm-token]',
  );
  assert.equal(clean('_authToken=Hw8dK2pL9xQmZz4Rt7'), '_authToken=[REDACTED:npmrc-auth]');
});
