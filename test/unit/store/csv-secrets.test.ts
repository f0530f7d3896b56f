// Tables whose header names a secret column: password exports and AWS's credentials.csv hold their
// secrets with no keyword beside them; every value of such a column goes, the rest of the row stays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { streamInPieces } from './helpers';
import { assertQuick } from '../../support/linear-time';

const clean = (s: string): string => redactSecretsSync(s).text;
const M = '[REDACTED:csv-secret]';

test("exports' secret columns go, every other field stays (CSV, quoted fields, TSV, semicolons)", () => {
  const cases: [string, string][] = [
    [
      'User name,Password,Access key ID,Secret access key,Console login link\nalice,Xk9#mP2qLw!z,ASIAEXAMPLEEXAMPLE00,Qm7vT2xK9pL4nR8sW1yZ5bC3dF6gH0jN2kM4pQ7r,https://123456789012.signin.aws.amazon.com/console\n',
      // The secret key beside its key id is found as an AWS key before the column rule.
      `User name,Password,Access key ID,Secret access key,Console login link\nalice,${M},[REDACTED:aws-access-key-id],[REDACTED:aws-secret-access-key],https://123456789012.signin.aws.amazon.com/console\n`,
    ],
    [
      'name,url,username,password,note\nGitHub,https://github.com/login,alice,Sup3r-Secret!,\nBank,https://bank.example,alice,"pa,ss""word9",main account\n',
      `name,url,username,password,note\nGitHub,https://github.com/login,alice,${M},\nBank,https://bank.example,alice,"${M}",main account\n`,
    ],
    [
      'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n,,login,Mail,,,0,https://mail.example,bob,Tr0ub4dor&3,JBSWY3DPEHPK3PXP\n',
      `folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n,,login,Mail,,,0,https://mail.example,bob,${M},${M}\n`,
    ],
    ['host\tuser\tpassword\ndb1\tadmin\tW1nter-2026!\n', `host\tuser\tpassword\ndb1\tadmin\t${M}\n`],
    [
      'Titel;Benutzer;Passwort;API Key\nShop;eva;x;k3y-Abc-123456\n',
      `Titel;Benutzer;Passwort;API Key\nShop;eva;x;${M}\n`,
    ],
  ];
  // (`Passwort` is German: only English column names are read, so its `x` stays; the API key goes.)
  for (const [text, want] of cases) assert.equal(clean(text), want);
});

test('tables that only look like it stay: word lists, two columns of prose, other columns, a table ended', () => {
  const text = [
    'id,token,count',
    '1,the,532',
    '2,password,12',
    '',
    'Enter your username, password',
    'Then, press enter.',
    '',
    'user,password_min_length,expires',
    'alice,12,never',
    '',
    'name,url,username,password',
    'a,b,c,d,e',
    'GitHub,https://github.com,alice,${GITHUB_PASSWORD}',
  ].join('\n');
  assert.equal(clean(text), text);
});

test('a table printed in a JSON string, and streamed in pieces and small batches, keeps none of its secrets', async () => {
  const rows = Array.from({ length: 300 }, (_, i) => `Site${i},https://s${i}.example/login,user${i},Pw-${i}-Zq8x!k,`);
  const csv = `name,url,username,password,note\n${rows.join('\n')}\n`;
  const json = clean(JSON.stringify({ path: 'export.csv', content: csv }));
  assert.ok(!/Pw-\d+-Zq8x/.test(json) && JSON.parse(json), json.slice(0, 300));
  const text = `intro line\n${csv}after\n`;
  for (const size of [1, 7, 50, 400])
    for (const batchChars of [64, 256, 4096]) {
      const out = await streamInPieces(text, size, { batchChars });
      assert.equal((out.match(/Pw-\d+-Zq8x/g) ?? []).length, 0, `${size}/${batchChars}`);
      assert.ok(out.includes(`Site299,https://s299.example/login,user299,${M},\nafter\n`), `${size}/${batchChars}`);
    }
});

test('a cell with doubled quotes is read as the spreadsheet shows it: its secrets go, the row stays CSV', () => {
  // A database's CSV export with a JSON column, and a multi-line note holding a config file.
  const text = [
    'id,settings,note',
    '1,"{""db"": {""host"": ""db1"", ""password"": ""Xk9#mP2qLw!z""}}",ok',
    '2,"{""apiKey"": ""AIzaSyD-EXAMPLE-k3y-9f8e7d6c5b4a3210zz""}","line one',
    'export DB_PASSWORD=""W1nter-2026!x""',
    'done"',
    '3,"say ""hello"" twice",plain',
  ].join('\n');
  const out = clean(text);
  for (const s of ['Xk9#mP2qLw!z', 'AIzaSyD-EXAMPLE', 'W1nter-2026!x']) assert.ok(!out.includes(s), out);
  assert.ok(out.includes('""host"": ""db1""') && out.includes('3,"say ""hello"" twice",plain'), out);
  // Every row still has its three fields: each doubled quote went whole or stayed.
  const fields = (row: string): number => row.replace(/"(?:[^"]|"")*"/g, 'Q').split(',').length;
  const rows = out.split(/\n(?=\d+,|id,)/);
  assert.deepEqual(rows.map(fields), [3, 3, 3, 3], out);
});

test('a table is read in linear time: long rows, unclosed quotes, many columns', () => {
  const started = performance.now();
  const n = 200_000;
  const header = `a,b,password\n`;
  for (const text of [
    header + `x,"${'"'.repeat(n)},y\n`.repeat(3),
    header + `x,y,${'z'.repeat(n)}\n`.repeat(5),
    `${Array.from({ length: 2000 }, (_, i) => `c${i}`).join(',')},password\n${'v,'.repeat(2000)}pw-Xq9z\n`.repeat(20),
    header + 'x,y,z\n'.repeat(n / 6),
    // Fields that open and never close, or close where no field ends, with doubled quotes between.
    `,"${'""x'.repeat(n / 3)}`,
    `,"a""b"c`.repeat(n / 8),
    `,"${'"",'.repeat(n / 3)}`,
  ])
    assert.equal(typeof clean(text), 'string');
  assertQuick(started);
});
