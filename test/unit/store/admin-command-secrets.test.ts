// Passwords that database and service tools take by position or by their own short option, the values
// `pulumi config set` stores as secrets, and the answers expect scripts send to a password prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';

const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;
const R = '[REDACTED:cli-password]';

test('passwords given to database and service tools are redacted, the command and user stay', async () => {
  const cases: [string, string][] = [
    [`cqlsh -u cassandra -p Cq-pw-1 10.0.0.5`, `cqlsh -u cassandra -p ${R} 10.0.0.5`],
    [`cypher-shell -u neo4j -p 'Cy pw 2' "RETURN 1"`, `cypher-shell -u neo4j -p '${R}' "RETURN 1"`],
    [`neo4j-admin dbms set-initial-password Nj-pw-3`, `neo4j-admin dbms set-initial-password ${R}`],
    [`mysqladmin -u root -pOld-pw-4 password New-pw-4`, `mysqladmin -u root -p${R} password ${R}`],
    [`mc admin user add myminio alice Mc-pw-5`, `mc admin user add myminio alice ${R}`],
    // Both of ldappasswd's: the bind password and the new one.
    [
      `ldappasswd -x -D cn=admin,dc=ex -w Bind-pw-6 -s New-pw-6 uid=bob,dc=ex`,
      `ldappasswd -x -D cn=admin,dc=ex -w ${R} -s ${R} uid=bob,dc=ex`,
    ],
    [`pulumi config set --secret dbPassword Pu-pw-7`, `pulumi config set --secret dbPassword ${R}`],
    [`pulumi config set sshKey Pu-key-8 --secret`, `pulumi config set sshKey ${R} --secret`],
    [
      `pulumi config set --stack dev app:stripeSecretKey Pu-sk-9`,
      `pulumi config set --stack dev app:stripeSecretKey ${R}`,
    ],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
  for (const line of [
    'cqlsh 10.0.0.5 9042',
    'cqlsh -u cassandra -p $CQL_PW',
    'ldapsearch -x -b dc=ex -s sub "(uid=bob)"',
    'mysqladmin -u root -p status',
    'neo4j-admin dbms set-initial-password',
    'mc admin user list myminio',
    'pulumi config set aws:region us-east-1',
    "pulumi config set --path 'data.active' true",
    'pulumi config set --secret dbPassword',
    'cat key.txt | pulumi config set --secret sshKey',
  ])
    assert.equal(await clean(line), line, line);
});

test("an expect script's or pexpect's answer to a password prompt is redacted; other answers stay", async () => {
  const script = [
    'spawn ssh admin@10.0.0.5',
    'expect "*assword:*"',
    'send "Ex-pw-1\\r"',
    'expect "$ "',
    'send "uptime\\r"',
    'expect {',
    '  "password:" { send -- "Ex-pw-2\\r" }',
    '}',
    'expect "Enter passphrase for key"',
    'send "$env(PASSPHRASE)\\r"',
  ].join('\n');
  assert.equal(await clean(script), script.replace('Ex-pw-1', R).replace('Ex-pw-2', R));
  const python = [
    "child = pexpect.spawn('ssh admin@host')",
    "child.expect('Password:')",
    "child.sendline('Px-pw-3')",
    "child.expect('[#$] ')",
    "child.sendline('ls -la')",
  ].join('\n');
  assert.equal(await clean(python), python.replace('Px-pw-3', R));
  // The script inside a JSON string (a tool's output): its `\r` stays outside the marker.
  const json = JSON.stringify({ content: 'expect "Password:"\nsend "Js-pw-4\\r"\n' });
  assert.equal(await clean(json), json.replace('Js-pw-4', R));
  // A test's expect() and a request's send() are not a prompt and its answer.
  const jest = "expect(screen.getByLabelText('Password')).toBeVisible();\nawait request(app).send({ a: 1 });";
  assert.equal(await clean(jest), jest);
});

test('hostile lines for these commands are read in linear time', async () => {
  const started = performance.now();
  const n = 100_000;
  for (const line of [
    `pulumi config set ${'a'.repeat(4 * n)}`,
    `pulumi config set${' -s x'.repeat(n / 5)}`,
    `pulumi config set --secret${' --secret'.repeat(n / 9)} a`,
    `ldappasswd${' -s'.repeat(n / 3)}`,
    `ldapsearch ${'a'.repeat(4 * n)} -w`,
    `expect "password"\nsend "${'a'.repeat(4 * n)}`,
    `expect ${'password '.repeat(n / 9)}\n`,
    `"${'password'.repeat(n / 8)}" {`,
    `x.expect('token${' '.repeat(4 * n)}`,
    `cqlsh${' -p'.repeat(n / 3)}`,
  ])
    assert.equal(typeof (await redactSecrets(line)).text, 'string');
  assertQuick(started);
});
