// A file as tools show it: grep's `path:12:`, `cat -n`, an agent's Read tool (`12→`), a diff, a
// container's log. The rules that read a file's lines find its secrets behind these prefixes too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { withoutPrefixes } from '../../../src/core/store/sanitize/line-prefixes';

const clean = (s: string): string => redactSecretsSync(s).text;
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** Files whose secrets only rules reading whole lines find, with the secrets they hold. */
const FILES: [string, string, string[]][] = [
  ['YAML block scalar', 'db:\n  password: |\n    Hunter2-blk9\n  user: bob', ['Hunter2-blk9']],
  ['env list', 'env:\n  - name: DB_PASSWORD\n    value: Hunter2-env9\n  - name: PORT', ['Hunter2-env9']],
  [
    'Secret data',
    `kind: Secret\ndata:\n  DATABASE_URL: ${b64('postgres://a:Hunter2-k8s9@db/a')}`,
    [b64('postgres://a:Hunter2-k8s9@db/a')],
  ],
  ['netrc', 'machine example.com\n  login bob\n  password Hunter2-netrc9', ['Hunter2-netrc9']],
  ['pgpass', 'db.example.com:5432:app:bob:Hunter2-pg9', ['Hunter2-pg9']],
  ['rclone', '[remote]\ntype = sftp\npass = Hunter2-rclone9', ['Hunter2-rclone9']],
];

/** Ways tools print a file's lines. */
const SHOWN: [string, (lines: string[]) => string][] = [
  ['grep -n', (ls) => ls.map((l, i) => `deploy/app.yaml:${i + 3}:${l}`).join('\n')],
  [
    'grep -C context',
    (ls) => ls.map((l, i) => `deploy/app.yaml${i % 2 ? ':' : '-'}${i + 3}${i % 2 ? ':' : '-'}${l}`).join('\n'),
  ],
  ['rg heading', (ls) => `deploy/app.yaml\n${ls.map((l, i) => `${i + 3}:${l}`).join('\n')}`],
  ['cat -n', (ls) => ls.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n')],
  ['Read tool', (ls) => ls.map((l, i) => `${String(i + 1).padStart(6)}\u2192${l}`).join('\n')],
  ['diff', (ls) => `--- a/app.yaml\n+++ b/app.yaml\n@@ -1,2 +1,${ls.length} @@\n${ls.map((l) => `+${l}`).join('\n')}`],
  ['compose logs', (ls) => ls.map((l) => `web-1  | ${l}`).join('\n')],
  ['kubectl --prefix', (ls) => ls.map((l) => `[pod/web-7d9/app] ${l}`).join('\n')],
  ['GitHub Actions log', (ls) => ls.map((l, i) => `2026-11-22T02:33:0${i}.1234567Z ${l}`).join('\n')],
  ['Python logger', (ls) => ls.map((l, i) => `2026-11-22 02:33:02,1${i}0 INFO ${l}`).join('\n')],
  ['padded level', (ls) => ls.map((l) => `[12:00:01] WARN  ${l}`).join('\n')],
  ['compose logs -t', (ls) => ls.map((l) => `web-1  | 2026-11-22T02:33:02.123456789Z ${l}`).join('\n')],
  // Typed in a terminal: each line after the shell's continuation prompt, as the screen (or a log of
  // it) shows a here-doc, and as a terminal log's header writes a multi-line command.
  ['here-doc at a bash prompt', (ls) => `$ cat <<'EOF' > app.yaml\n${ls.map((l) => `> ${l}`).join('\n')}\n> EOF`],
  [
    'here-doc at a zsh prompt',
    (ls) => `% cat <<EOF > app.yaml\n${ls.map((l) => `heredoc> ${l}`).join('\n')}\nheredoc> EOF`,
  ],
  [
    'terminal log header',
    (ls) => `\u241e $ cat <<EOF > app.yaml\n${ls.map((l) => `\u241e > ${l}`).join('\n')}\n\u241e > EOF`,
  ],
  [
    'CI log in a JSON tool result',
    (ls) => JSON.stringify({ type: 'tool_result', content: ls.map((l) => `2026-11-22T02:33:02Z ${l}`).join('\n') }),
  ],
  [
    'Read tool in a JSON log',
    (ls) =>
      JSON.stringify({
        type: 'tool_result',
        content: ls.map((l, i) => `${String(i + 1).padStart(6)}\u2192${l}`).join('\n'),
      }),
  ],
];

test('secrets of files shown with line prefixes are redacted, every other line kept', () => {
  const failures: string[] = [];
  for (const [file, text, secrets] of FILES)
    for (const [how, show] of SHOWN) {
      const lines = text.split('\n');
      const shown = show(lines);
      const out = clean(shown);
      if (secrets.some((s) => out.includes(s))) failures.push(`${file} by ${how}: ${out}`);
      const others = shown.split('\n').filter((l) => !secrets.some((s) => JSON.stringify(l).includes(s)));
      for (const l of others)
        if (!how.includes('JSON') && !out.includes(l)) failures.push(`${file} by ${how} lost: ${l}`);
    }
  assert.deepEqual(failures, []);
});

test("a logger's time and level go, the line's own indentation stays", () => {
  const v = withoutPrefixes(
    ['2026-11-22T02:33:02.123Z INFO  db:', '2026-11-22T02:33:02.124Z INFO      password: |', '[12:00:01] x'].join('\n'),
  );
  assert.equal(v?.text, ['db:', '    password: |', 'x'].join('\n'));
  // A log's own lines stay as they were, also those that name a secret without giving one.
  const log = [
    '2026-11-22T02:33:02.123Z INFO worker-3 handled request 12 in 4 ms',
    '2026-11-22 02:33:02,123 WARNING password: the user password, at least 12 characters',
    '2026-11-22T02:33:02.125Z INFO  data:',
    '2026-11-22T02:33:02.126Z INFO    token: required',
    '[12:00:01] DEBUG env:',
    '[12:00:01] DEBUG   - name: PASSWORD_MIN_LENGTH',
    '[12:00:01] DEBUG     value: "12"',
  ].join('\n');
  assert.equal(clean(log), log);
});

test("a block's key on a line without a logger's time, its value on lines with one", () => {
  // A command line that prints a template literal holding a block: only the lines it printed are stamped.
  const text = [
    './run.sh 2026-11-22T02:33:00.1234567Z INFO  const values = `apiKey: |',
    '2026-11-22T02:33:01.1234567Z INFO    CrmI7S!tnCuf#99',
    '2026-11-22T02:33:02.1234567Z INFO  `;',
  ].join('\n');
  assert.equal(clean(text), text.replace('CrmI7S!tnCuf#99', '[REDACTED:code-secret]'));
});

test('dates, times without seconds, tables and prose are no prefixes', () => {
  const text = [
    '2026-11-22 worker-3 handled request 12 in 4 ms',
    '[02:33] retrying',
    'password: the user password, at least 12 characters',
    '| password | what it is |',
    'Step 3: install',
  ].join('\n');
  assert.equal(withoutPrefixes(text), undefined);
  assert.equal(clean(text), text);
});

test('the view without prefixes is the lines without them, each character mapped to its source (property)', () => {
  const prefixes = [
    'src/a.ts:12:',
    'src/a.ts-13-',
    '2026-11-22T02:33:02.123Z INFO  ',
    '[12:00:01] ',
    '     7\t',
    '    12\u2192',
    '+',
    '-',
    'web-1  | ',
    '> ',
    'dquote> ',
    '\u241e > ',
    '42:',
    '',
  ];
  const line = fc.string({
    unit: fc.constantFrom('a', 'b', ' ', ':', '=', '1', '-', 'x'),
    minLength: 2,
    maxLength: 12,
  });
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...prefixes), line), { minLength: 1, maxLength: 8 }), (rows) => {
      const text = rows.map(([p, l]) => p + l).join('\n');
      const v = withoutPrefixes(text);
      if (!v) return;
      for (let i = 0; i < v.text.length; i++) {
        assert.equal(text.slice(v.start[i], v.end[i]), v.text[i], JSON.stringify({ text, i }));
        if (i > 0) assert.ok(v.start[i]! > v.start[i - 1]!, 'in order');
      }
      // Only prefixes go: the lines' own text stays, in order, and each row keeps at least its last character.
      assert.equal(v.text.split('\n').length, rows.length);
      rows.forEach(([, l], r) => assert.ok(l.endsWith(v.text.split('\n')[r]!.slice(-1)), JSON.stringify({ text, r })));
    }),
    { numRuns: 1000 },
  );
});
