// Secrets whose start later text covered on the same line, in rendered terminal output: by a carriage
// return (sanitize.test.ts) and by the other ways progress bars and spinners move the cursor back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SanitizingStream } from '../../../src/core/store/sanitize/pipeline';

const token = 'ghp_' + 'gMCk7qLw2pZx9RtY4vNb8sKd3fHj6aUe1oWi';
const password = 'Xk95RG5OOySYxdZi';
const key = 'sk_live_' + '5Ufg2Nq8RwLx4TzYb7Pd1Kc9';

/** Output enough to decide it is text: what follows is decoded piece by piece as it arrives. */
const PREAMBLE = `${'-'.repeat(78)}\r\n`.repeat(110);

/** The rendered, sanitized text of `raw` pushed in pieces of `cut` characters (after PREAMBLE). */
async function rendered(raw: string, cut: number): Promise<string> {
  let out = '';
  const st = new SanitizingStream(async (t) => void (out += t), { ansi: 'render' });
  await st.push(PREAMBLE);
  for (let i = 0; i < raw.length; i += cut) await st.push(raw.slice(i, i + cut));
  await st.end();
  const shown = PREAMBLE.replaceAll('\r\n', '\n');
  assert.ok(out.startsWith(shown));
  return out.slice(shown.length);
}

test('render mode: a secret whose start a cursor movement let later text cover leaves nothing of itself on disk', async () => {
  const shapes: [string, string, string][] = [
    ['cursor to column 1', `${token}\x1b[1G⠋\r\ndone\r\n`, token],
    ['cursor to column (no parameter)', `${token}\x1b[G⠋ \r\n`, token],
    ['cursor back n', `${token}\x1b[${token.length}Ddone\r\n`, token],
    ['erase line, then redraw', `\x1b[2K\x1b[1G${token}\x1b[1G⠋\r\n`, token],
    ['erase to end, then redraw', `\x1b[1G\x1b[KDB_PASSWORD=${password}\x1b[1Gdone: ok, all\r\n`, password],
    ['backspaces', `DB_PASSWORD=${password}${'\b'.repeat(12 + password.length)}done: ok, all\r\n`, password],
    ['save and restore (CSI)', `\x1b[s${token}\x1b[u⠋\r\n`, token],
    ['save and restore (ESC 7 / 8)', `\x1b7${key}\x1b8ok\r\n`, key],
    ['back after a label, coloured', `Token: \x1b[1m${token}\x1b[0m\x1b[40D⠙ Pulling\r\n`, token],
  ];
  for (const [shape, raw, gone] of shapes)
    for (const cut of [1, 3, 7, raw.length]) {
      const out = await rendered(raw, cut);
      // Nothing of it is left but a few characters at most (the covered start is not shown anyway).
      assert.ok(!out.includes(gone.slice(-8)), `${shape}, pieces of ${cut}: ${JSON.stringify(out)}`);
      assert.match(out, /\[REDACTED:/, shape);
    }
});

test('render mode: a secret typed and erased (never shown in the end) gets nothing else redacted', async () => {
  const typed = '$ export DB_PASSWORD=development';
  const back = '\b'.repeat(typed.length - 2);
  const shapes: [string, string][] = [
    // readline's redisplay after ^U: back to the line start, the prompt, the rest of the line erased
    ['carriage return, prompt, erase to end', `${typed}\r$ \x1b[K`],
    ['erase line, carriage return, prompt', `${typed}\x1b[2K\r$ `],
    ['backspace, erase to end (per character)', `${typed}${'\b\x1b[K'.repeat(typed.length - 2)}`],
    ['backspace, space, backspace (per character)', `${typed}${'\b \b'.repeat(typed.length - 2)}`],
    ['backspaces, then erase to end', `${typed}${back}\x1b[K`],
    ['cursor back n, erase to end', `${typed}\x1b[${typed.length - 2}D\x1b[K`],
    ['cursor to column 3, erase to end', `${typed}\x1b[3G\x1b[0K`],
  ];
  for (const [shape, erased] of shapes) {
    const raw = `${erased}\r\nBuilding for development (mode development)\r\n`;
    // The same keys pressed over a word no rule reads show the same.
    const expected = await rendered(raw.replace('DB_PASSWORD=development', 'X'.repeat(23)), raw.length);
    assert.match(expected, /^\$ *\nBuilding for development \(mode development\)\n$/, shape);
    for (const cut of [1, 3, 7, raw.length])
      assert.equal(await rendered(raw, cut), expected, `${shape}, pieces of ${cut}`);
  }
});

/** Secrets a rule finds, each with what is printed before it on its line. */
const secret = fc.constantFrom(
  ['', token],
  ['', key],
  ['DB_PASSWORD=', password],
  ['export API_TOKEN=', 'tok_' + 'Qm7Zr2Lx9Vb4Nc8Kd1Fg5Hj3'],
  [
    'Authorization: Bearer ',
    'eyJhbGciOiJIUzI1NiJ9' + '.eyJzdWIiOiIxMjM0NTY3ODkwIn0.' + 'dBjftJeZ4CVPmB92K27uhbUJU1p1r',
  ],
);

test('property: whatever moves the cursor back over a secret, the part of it left visible is never stored', async () => {
  await fc.assert(
    fc.asyncProperty(
      secret,
      fc.integer({ min: 0, max: 20 }),
      fc.constantFrom('\x1b[32m', '', '\x1b[1;33m'),
      fc.integer({ min: 0, max: 4 }),
      fc.stringMatching(/^[a-z ⠋⠙⠹✔.:%#=]{1,6}$/),
      fc.constantFrom(1, 2, 3, 5, 7, 11, 64, 4096),
      async ([name, value], lead, colour, how, cover, cut) => {
        // Text before the secret's line (a label the rules read apart from it), left in place.
        const pre = lead === 0 ? '' : 'x'.repeat(lead) + ' ';
        // Moves back to where the secret's line started (column pre.length + 1 in the terminal's counting).
        const back = [
          `\x1b[${pre.length + 1}G`,
          `\x1b[${name.length + value.length}D`,
          '\b'.repeat(name.length + value.length),
          pre === '' ? '\r' : `\x1b[${pre.length + 1}\``,
          '',
        ][how]!;
        const save = how === 4 ? ['\x1b7', '\x1b8'] : ['', ''];
        // The cover hides the name and at least the secret's first character.
        const covering = cover + '.'.repeat(Math.max(0, name.length + 1 - cover.length));
        const raw = `${pre}${save[0]}${name}${colour}${value}\x1b[0m${back}${save[1]}${covering}\r\nok\r\n`;
        const out = await rendered(raw, cut);
        return !out.includes(value.slice(-8)) && out.endsWith('ok\n');
      },
    ),
    { numRuns: 150 },
  );
});

test('property: text typed and erased with any of the usual cursor movements changes nothing stored after it', async () => {
  await fc.assert(
    fc.asyncProperty(
      secret,
      fc.integer({ min: 0, max: 5 }),
      fc.constantFrom(1, 2, 3, 7, 4096),
      async ([name, value], how, cut) => {
        const typed = `$ ${name}${value}`;
        const n = typed.length - 2;
        const erase = [
          '\r$ \x1b[K',
          '\x1b[2K\r$ ',
          '\b\x1b[K'.repeat(n),
          '\b \b'.repeat(n),
          `\x1b[${n}D\x1b[K`,
          '\x1b[3G\x1b[K',
        ][how]!;
        const after = `value was ${value.slice(-10)} and ${value.slice(-8)}`;
        const out = await rendered(`${typed}${erase}\r\n${after}\r\n`, cut);
        // The same keys pressed over text no rule reads.
        const plain = `$ ${'x'.repeat(name.length + value.length)}`;
        const expected = await rendered(`${plain}${erase}\r\n${after}\r\n`, 4096);
        return out === expected;
      },
    ),
    { numRuns: 100 },
  );
});
