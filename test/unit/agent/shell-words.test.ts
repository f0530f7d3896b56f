// The one reading of a command line into simple commands that the approvals share (shell-words.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { programIndex, simpleCommands } from '../../../src/core/agent/tools/shell-words';

const words = (line: string): string[][] => simpleCommands(line).map((c) => c.words.map((w) => w.text));

test('separators, quotes, escapes, comments, $( ), backticks and bash -c', () => {
  assert.deepEqual(words(`echo "a; cd evil" && echo 'x > h' || a\\;b | c & d\ne`), [
    ['echo', 'a; cd evil'],
    ['echo', 'x > h'],
    ['a;b'],
    ['c'],
    ['d'],
    ['e'],
  ]);
  assert.deepEqual(words('echo "$(cd "a b"; ls)" `id` # cd x'), [
    ['echo', '$(cd "a b"; ls)', '`id`'],
    ['cd', 'a b'],
    ['ls'],
    ['id'],
  ]);
  assert.deepEqual(words(`sudo bash -lc "cd evil && direnv allow"; eval 'rm x'`), [
    ['sudo', 'bash', '-lc', 'cd evil && direnv allow'],
    ['eval', 'rm x'],
    ['cd', 'evil'],
    ['direnv', 'allow'],
    ['rm', 'x'],
  ]);
  const [cmd] = simpleCommands('make 2>&1 >> ".context-desk/a b" <in &>x');
  assert.deepEqual(
    cmd!.words.map((w) => w.text),
    ['make'],
  );
  assert.deepEqual(
    cmd!.redirects.map((r) => [r.op, r.target.text]),
    [
      ['>&', '1'],
      ['>>', '.context-desk/a b'],
      ['<', 'in'],
      ['&>', 'x'],
    ],
  );
});

/** A plain word: no character the shell treats specially. */
const plain = fc.stringMatching(/^[A-Za-z0-9_./][A-Za-z0-9_./-]{0,7}$/);
const command = fc.array(plain, { minLength: 1, maxLength: 4 });
const separator = fc.constantFrom(';', ' && ', ' || ', ' | ', ' & ', '\n', ' ; ', '|&');
/** Any text, with the characters that matter to a shell made likely. */
const anyText = fc.string({ unit: fc.constantFrom(...`ab ;&|()$\`'"\\<>#\n{}=*~`.split('')), maxLength: 40 });

test('property: commands of plain words joined by separators are read back as written', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(command, separator), { minLength: 1, maxLength: 5 }), (parts) => {
      const line = parts.map(([c, s]) => c.join(' ') + s).join('');
      assert.deepEqual(
        words(line),
        parts.map(([c]) => c),
      );
    }),
  );
});

test('property: nothing inside single quotes, or escaped, splits a word or starts a command', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      const single = `echo '${text.replace(/'/g, '')}' x`;
      assert.deepEqual(words(single), [['echo', text.replace(/'/g, ''), 'x']]);
      const escaped = `echo ${[...text].map((c) => (c === '\n' ? '' : `\\${c}`)).join('')}`;
      const expected = text.replace(/\n/g, '');
      assert.deepEqual(words(escaped), [expected === '' ? ['echo'] : ['echo', expected]]);
    }),
  );
});

test('property: double quotes keep separators and redirections in the word', () => {
  const inDouble = fc.string({ unit: fc.constantFrom(...`ab ;&|()<>#'\n{}=*~`.split('')), maxLength: 40 });
  fc.assert(
    fc.property(inDouble, (text) => {
      const [cmd, ...more] = simpleCommands(`cat "${text}" > out`);
      assert.equal(more.length, 0);
      assert.deepEqual(
        cmd!.words.map((w) => w.text),
        ['cat', text],
      );
      assert.deepEqual(
        cmd!.redirects.map((r) => r.target.text),
        ['out'],
      );
    }),
  );
});

test('property: the commands inside $( ), quoted or not, and in bash -c code are read as commands', () => {
  fc.assert(
    fc.property(fc.array(command, { minLength: 1, maxLength: 3 }), fc.boolean(), (inner, quoted) => {
      const code = inner.map((c) => c.join(' ')).join('; ');
      const sub = quoted ? `"$(${code})"` : `$(${code})`;
      assert.deepEqual(words(`echo ${sub}`).slice(1), inner);
      assert.deepEqual(words(`bash -c '${code}'`).slice(1), inner);
    }),
  );
});

test('property: any text is read without throwing, each command has a word or a redirection', () => {
  fc.assert(
    fc.property(anyText, (line) => {
      for (const c of simpleCommands(line)) {
        assert.ok(c.words.length + c.redirects.length > 0);
        assert.ok(c.start >= 0 && c.start <= line.length);
      }
    }),
    { numRuns: 2000 },
  );
});

test('a long line, or one of 100,000 nested substitutions, is read in linear time without overflowing', () => {
  const line = 'echo "$(a `b` \'c\')" >x; '.repeat(10_000);
  const started = performance.now();
  assert.equal(simpleCommands(line).length, 10_000 * 3);
  assert.ok(simpleCommands('$(a '.repeat(100_000)).length > 0);
  assert.ok(simpleCommands('"$(`'.repeat(50_000)).length > 0);
  assert.ok(performance.now() - started < 10_000);
});

test("a prefix's option values are not the program, and code a shell reads from a here-string or env -S is read", () => {
  const program = (line: string): string[] =>
    simpleCommands(line).map((c) => c.words[programIndex(c.words)]?.text ?? '');
  assert.deepEqual(program('sudo -u root tee x'), ['tee']);
  assert.deepEqual(program('xargs -I {} cp {} d'), ['cp']);
  assert.deepEqual(program('env -u HOME -C /tmp rm x'), ['rm']);
  assert.deepEqual(program('timeout -s KILL 5 make'), ['make']);
  assert.deepEqual(program('nice -n 5 make'), ['make']);
  // A value that is not a prefix's (sudo -S reads a password; it takes none) leaves the next word the program.
  assert.deepEqual(program('sudo -S make'), ['make']);
  assert.deepEqual(words(`bash <<< 'cd evil; rm x'`), [['bash'], ['cd', 'evil'], ['rm', 'x']]);
  // With -c, the here-string is the code's input, not code.
  assert.deepEqual(words(`bash -c 'cat' <<< 'cd evil'`), [['bash', '-c', 'cat'], ['cat']]);
  assert.deepEqual(words(`env -S 'sh -c "cd evil"' x`), [
    ['env', '-S', 'sh -c "cd evil"', 'x'],
    ['sh', '-c', 'cd evil', 'x'],
    ['cd', 'evil'],
  ]);
});
