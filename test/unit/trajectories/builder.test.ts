import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from '../../../src/core/messages';
import { TrajectoryBuilder } from '../../../src/core/trajectories/builder';
import { contextOf, type Trajectory } from '../../../src/core/trajectories';

type Op =
  | { kind: 'push' }
  | { kind: 'call' }
  | { kind: 'forget'; pick: number }
  | { kind: 'replace'; pick: number }
  | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Op>({ kind: 'push' }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'call' }) },
  { weight: 1, arbitrary: fc.nat().map<Op>((pick) => ({ kind: 'forget', pick })) },
  { weight: 2, arbitrary: fc.nat().map<Op>((pick) => ({ kind: 'replace', pick })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'reset' }) },
);

test('builder: every call sends exactly the messages in context then, in order, with replaced ones in their place', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const b = new TrajectoryBuilder();
      // The model: the context as a plain list of the messages a call would send now.
      let live: { index: number; message: Message }[] = [];
      const expected: string[][] = [];
      let n = 0;
      for (const o of ops) {
        if (o.kind === 'push') {
          const message: Message = { role: 'user', content: `m${n++}` };
          live.push({ index: b.push(message), message });
        } else if (o.kind === 'call') {
          const message: Message = { role: 'assistant', content: `a${n++}` };
          expected.push(live.map((e) => e.message.content));
          b.call(b.push(message));
          live.push({ index: b.messages.length - 1, message });
        } else if (o.kind === 'reset') {
          b.reset();
          live = [];
        } else if (live.length > 0) {
          const at = o.pick % live.length;
          const entry = live[at]!;
          if (o.kind === 'forget') {
            b.forget(entry.index);
            live.splice(at, 1);
          } else {
            const copy: Message = { ...entry.message, content: `${entry.message.content}'` };
            b.replace(entry.index, copy);
            entry.message = copy;
          }
        }
      }
      const t: Trajectory = { id: 't', source: 't', format: 'claude-code', messages: b.messages, calls: b.calls };
      assert.deepEqual(
        b.calls.map((c) => contextOf(t, c).map((m) => m.content)),
        expected,
      );
    }),
    { numRuns: 500 },
  );
});

test('builder: a replaced message keeps its original for the calls made before', () => {
  const b = new TrajectoryBuilder();
  const tool = b.push({ role: 'tool', content: 'long output', toolCallId: 'c1' });
  b.call(b.push({ role: 'assistant', content: 'first' }));
  b.replace(tool, { role: 'tool', content: 'cleared', toolCallId: 'c1' });
  b.call(b.push({ role: 'assistant', content: 'second' }));
  const t: Trajectory = { id: 't', source: 't', format: 'claude-code', messages: b.messages, calls: b.calls };
  assert.deepEqual(
    contextOf(t, b.calls[0]!).map((m) => m.content),
    ['long output'],
  );
  assert.deepEqual(
    contextOf(t, b.calls[1]!).map((m) => m.content),
    ['cleared', 'first'],
  );
  assert.deepEqual(b.live(), [0, 1, 3], 'the copy stands in for the original; it is not a message of its own');
});
