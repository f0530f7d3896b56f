// A pretty-printed state file streamed (a terminal log, a tool output) is cut between an instance's
// attributes and the `sensitive_attributes` that name its secrets far more often than not: an instance has
// dozens of attributes, one a line. The stream holds such an instance until it closes (up to a bound) and
// past the bound redacts its attributes' strings whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamInPieces } from './helpers';

const PW = 'Zq8xLmT3vB9nK2wR';
const R = '[REDACTED:terraform-sensitive]';

/** A state file with an `aws_db_instance`-like instance (`count` more attributes) and a small one. */
function state(count: number): string {
  const attributes: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) attributes[`attribute_${String(i).padStart(5, '0')}`] = `value-${i}`;
  attributes.zz_master = PW; // a name no other rule reads as a secret's
  const instance = (attrs: Record<string, unknown>): unknown => ({
    schema_version: 2,
    attributes: attrs,
    sensitive_attributes: [[{ type: 'get_attr', value: 'zz_master' }]],
    private: 'bnVsbA==',
  });
  const resources = [
    { mode: 'managed', type: 'aws_db_instance', name: 'main', instances: [instance(attributes)] },
    { mode: 'managed', type: 'random_password', name: 'db', instances: [instance({ id: 'none', zz_master: PW })] },
  ];
  return `${JSON.stringify({ version: 4, terraform_version: '1.9.8', serial: 3, resources }, null, 2)}\n`;
}

interface State {
  resources: { instances: { attributes: Record<string, string> }[] }[];
}

test('a state file streamed in any pieces keeps no sensitive attribute and stays valid JSON', async () => {
  const text = state(27);
  for (const size of [16, 100, 512, 1500])
    for (const flush of [true, false]) {
      const out = await streamInPieces(text, size, { flush, batchChars: 128 });
      assert.ok(!out.includes(PW), `pieces of ${size}, flush ${flush}`);
      const [db, pw] = (JSON.parse(out) as State).resources.map((r) => r.instances[0]!.attributes);
      assert.equal(db!.attribute_00003, 'value-3');
      assert.deepEqual(pw, { id: 'none', zz_master: R });
    }
});

test('a 1 MB instance streamed in 100-byte pieces is held whole, read in linear time, and keeps its harmless text', async () => {
  // Held text was read again at every flush (the square of its size: 247 KB took 5 s) and an instance
  // past 256 KB lost every attribute string to the marker.
  const text = state(22_000);
  assert.ok(text.length > 1_000_000);
  let read = 0;
  const out = await streamInPieces(text, 100, { flush: true, stats: (s) => (read = s.charsRead) });
  assert.ok(!out.includes(PW));
  const [db, pw] = (JSON.parse(out) as State).resources.map((r) => r.instances[0]!.attributes);
  assert.equal(db!.attribute_00003, 'value-3');
  assert.equal(db!.zz_master, R);
  assert.deepEqual(pw, { id: 'none', zz_master: R });
  // Read again at every flush only up to 32 KB (about 5 million characters), then only as it grows by a
  // quarter (about five times its length): 11 million. Read at every flush, it was about 5 billion.
  assert.ok(read < 16 * text.length, `${read} characters read for ${text.length}`);
});

test('an instance too long to hold (over 4 MiB) has its attributes redacted whole; what follows it is read as usual', async () => {
  const out = await streamInPieces(state(100_000), 65_536, { flush: true });
  assert.ok(!out.includes(PW));
  const [db, pw] = (JSON.parse(out) as State).resources.map((r) => r.instances[0]!.attributes);
  assert.equal(db!.attribute_00003, R);
  assert.equal(db!.zz_master, R);
  assert.deepEqual(pw, { id: 'none', zz_master: R });
});

test('output cut off inside an instance (head of a state file) redacts its attributes', async () => {
  const text = state(5);
  const cut = text.slice(0, text.indexOf('"sensitive_attributes"'));
  const out = await streamInPieces(cut, 64);
  assert.ok(!out.includes(PW), out);
  assert.ok(out.includes(`"attribute_00001": "${R}"`), out);
});

test('an instance whose opening line went out before its schema_version arrived is held too', async () => {
  // A quiet stream sends whole lines at once: a character at a time with a flush after each, the `{` is
  // gone before `"schema_version"` says what it opens (found by the stream-vs-whole property).
  const text = `${JSON.stringify({ schema_version: 3, attributes: { id: 'none', zz_master: PW }, sensitive_attributes: [[{ type: 'get_attr', value: 'zz_master' }]] }, null, 2)}\nhello\n`;
  for (const size of [1, 2, 7]) {
    const out = await streamInPieces(text, size, { flush: true });
    assert.ok(!out.includes(PW), `pieces of ${size}`);
    assert.ok(out.endsWith('}\nhello\n'), 'what follows the instance goes out');
  }
});
