// Passwords that database and service tools take by position or by their own short option, the values
// `pulumi config set` stores as secrets, and the answers expect scripts send to a password prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';
import { assertStreamedAsWhole } from './helpers';

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
    [`rabbitmqadmin -u admin -p Rq-pw-10 list queues`, `rabbitmqadmin -u admin -p ${R} list queues`],
    [`plink -ssh -pw Pl-pw-11 admin@host`, `plink -ssh -pw ${R} admin@host`],
    [`pscp.exe -pw "Ps pw 12" f admin@host:/tmp`, `pscp.exe -pw "${R}" f admin@host:/tmp`],
    [`redis-cli CONFIG SET requirepass Rd-pw-13`, `redis-cli CONFIG SET requirepass ${R}`],
    [`masterauth Rd-pw-14`, `masterauth ${R}`],
    [`sentinel auth-pass mymaster Rd-pw-15`, `sentinel auth-pass mymaster ${R}`],
    [
      `mosquitto_passwd -b /etc/mosquitto/passwd alice Mq-pw-16`,
      `mosquitto_passwd -b /etc/mosquitto/passwd alice ${R}`,
    ],
    [`drush user:password admin "Dr-pw-17"`, `drush user:password admin "${R}"`],
    [`wp user create bob bob@example.com --user_pass=Wp-pw-18`, `wp user create bob bob@example.com --user_pass=${R}`],
    [`wp config set DB_PASSWORD Wp-pw-19`, `wp config set DB_PASSWORD [REDACTED:env-secret]`],
    [`snyk auth 1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718`, `snyk auth ${R}`],
    [`ngrok config add-authtoken 2AbCdEf_GhIjKlMnOp`, `ngrok config add-authtoken ${R}`],
    [`codecov -t 1f2e3d4c-5b6a-7980 -f coverage.xml`, `codecov -t ${R} -f coverage.xml`],
    [`expo login -u alice -p Ex-pw-20`, `expo login -u alice -p ${R}`],
    [`infracost configure set api_key ico-Xk9mQ2vLp7Rt`, `infracost configure set api_key ${R}`],
    [`BUNDLE_GEMS__CONTRIBSYS__COM=alice:Bd-pw-21`, `BUNDLE_GEMS__CONTRIBSYS__COM=alice:[REDACTED:env-secret]`],
    // MongoDB's calls and its `pwd` key.
    [
      `mongosh --eval 'db.createUser({user:"app", pwd:"Mg-pw-22", roles:[]})'`,
      `mongosh --eval 'db.createUser({user:"app", pwd:"[REDACTED:code-secret]", roles:[]})'`,
    ],
    [`db.auth('app', 'Mg-pw-23')`, `db.auth('app', '[REDACTED:code-secret]')`],
    [`db.changeUserPassword("app", "Mg-pw-24")`, `db.changeUserPassword("app", "[REDACTED:code-secret]")`],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
  for (const line of [
    'cqlsh 10.0.0.5 9042',
    'plink -ssh admin@host -pw $PW',
    'requirepass ""',
    '# requirepass foobared',
    'mosquitto_passwd -U /etc/mosquitto/passwd',
    'drush user:password admin',
    'wp config set WP_DEBUG true',
    'snyk auth',
    'codecov -f coverage.xml',
    'BUNDLE_PATH=vendor/bundle',
    '{"pwd": "/home/alice", "cwd": "C:\\Users\\bob"}',
    'apksigner sign --ks release.jks --ks-pass env:KS_PASS app.apk',
    'openssl pkcs12 -export -passout file:pw.txt -out a.p12',
    'db.auth(user, password)',
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

test('an expect prompt and its answer split across the batches of a stream are still found', async () => {
  const text = `expect "*assword:*"\nsend "St-pw-1\\r"\n${'x\n'.repeat(12)}`;
  await assertStreamedAsWhole(text, [1, 7, 16], 32);
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
    // Each tab of a run may start a cell (a line of redis.conf in it): 8 s when each read the run on.
    `auth-pass\t${'\t'.repeat(4 * n)}x`,
  ])
    assert.equal(typeof (await redactSecrets(line)).text, 'string');
  assertQuick(started);
});
