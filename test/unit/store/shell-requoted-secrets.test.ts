// A command inside single quotes (`sh -c '…'`, a `docker exec` a tool wrote out) quotes a value as
// `'"'"'value'"'"'`: the shell closes the quote, adds a quoted `'` and reopens it. The rules read `'"'` as
// the value (a lone `"`, no secret), so `export TOKEN='"'"'<secret>'"'"'` reached disk in clear.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';

const clean = (s: string): string => redactSecretsSync(s).text;
const Q = `'"'"'`;
const SECRET = 'Zq8xLmT3vB9nK2wRpQ7s';

test('a secret-named variable set to a shell-requoted value is redacted inside the quoting', () => {
  for (const name of ['TOKEN', 'DB_PASSWORD', 'API_KEY', 'AWS_SECRET_ACCESS_KEY']) {
    const line = `sh -c 'export ${name}=${Q}${SECRET}${Q}; ./deploy.sh'\n`;
    assert.equal(clean(line), `sh -c 'export ${name}=${Q}[REDACTED:env-secret]${Q}; ./deploy.sh'\n`);
  }
  assert.equal(clean(`TOKEN=${Q}${SECRET}${Q} ./run`), `TOKEN=${Q}[REDACTED:env-secret]${Q} ./run`);
});

test('in a JSON log the same command is redacted and stays valid JSON with its quoting', () => {
  const command = `bash -lc 'export GH_TOKEN=${Q}${SECRET}${Q} && gh pr list'`;
  const out = clean(JSON.stringify({ tool: 'bash', arguments: { command } }));
  assert.ok(!out.includes(SECRET), out);
  const parsed = JSON.parse(out) as { arguments: { command: string } };
  assert.equal(parsed.arguments.command, command.replace(SECRET, '[REDACTED:env-secret]'));
});

test('any random secret so quoted is redacted; a stand-in so quoted is kept', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9]{8}[0-9][A-Z][a-z][A-Za-z0-9]{5,30}$/), (secret) => {
      const out = clean(`export DB_PASSWORD=${Q}${secret}${Q}`);
      return !out.includes(secret) && out.endsWith(`${Q}[REDACTED:env-secret]${Q}`);
    }),
  );
  for (const kept of [`export TOKEN=${Q}$GH_TOKEN${Q}`, `export TOKEN=${Q}<your-token>${Q}`])
    assert.equal(clean(kept), kept);
});

// The same quoting after any key or option the rules know (not only `NAME=`), and its `'\''` form.
const FORMS = [Q, `'\\''`];

test('a requoted secret after a key, a client -p or a --password option is redacted, in either form', () => {
  for (const r of FORMS) {
    const cases: [string, string][] = [
      [`sh -c 'password=${r}${SECRET}${r} ./run'`, 'code-secret'],
      [`sh -c 'mysql -u root -p${r}${SECRET}${r} shop'`, 'cli-password'],
      [`bash -lc 'mysql --password=${r}${SECRET}${r} shop'`, 'cli-password'],
      [`sh -c 'export TOKEN=${r}${SECRET}${r}; ./deploy.sh'`, 'env-secret'],
    ];
    for (const [line, kind] of cases) assert.equal(clean(line), line.replace(SECRET, `[REDACTED:${kind}]`), line);
  }
});

test('so quoted inside JSON and JSON in JSON, the secret goes and the command reads back the same', () => {
  for (const r of FORMS) {
    const command = `sh -c 'mysql -p${r}${SECRET}${r} shop'`;
    const once = clean(JSON.stringify({ command }));
    assert.equal((JSON.parse(once) as { command: string }).command, command.replace(SECRET, '[REDACTED:cli-password]'));
    const twice = clean(JSON.stringify({ args: JSON.stringify({ command }) }));
    assert.ok(!twice.includes(SECRET), twice);
    const inner = JSON.parse((JSON.parse(twice) as { args: string }).args) as { command: string };
    assert.equal(inner.command, command.replace(SECRET, '[REDACTED:cli-password]'));
  }
});

test('requoted words that are no secret stay as written', () => {
  for (const r of FORMS)
    for (const kept of [
      `sh -c 'echo ${r}hello world${r}'`,
      `sh -c 'mysql -p${r}$MYSQL_PWD${r} shop'`,
      `sh -c 'grep ${r}password${r} README.md'`,
    ])
      assert.equal(clean(kept), kept);
});
