import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTrajectory, loadTrajectories, TrajectoryError } from '../../../src/core/trajectories';

const fixtures = join(__dirname, '../../fixtures/trajectories');

function rejects(text: string, file: string, reason: RegExp): void {
  assert.throws(
    () => parseTrajectory(text, file),
    (e: unknown) =>
      e instanceof TrajectoryError && e.file === file && reason.test(e.message) && e.message.startsWith(file),
  );
}

test('broken or unknown files get an error naming the file and the problem', () => {
  rejects('', 'empty.json', /empty/);
  rejects('{"messages": [', 'cut.json', /not valid JSON/);
  rejects('{"foo": 1, "bar": 2}', 'odd.json', /unrecognised trajectory format \(top level: foo, bar\)/);
  rejects('{"role":"user","content":"a"}\n{not json}\n', 'bad.jsonl', /line 2 is not valid JSON/);
  rejects('{"a":1}\n{"b":2}\n', 'other.jsonl', /record 1 has no role/);
  rejects('[{"role":"wizard","content":"x"}]', 'role.json', /message 0: unknown role "wizard"/);
  rejects('[{"role":"user","content":"only a question"}]', 'nocalls.json', /no assistant messages/);
  rejects('{"history": [{"role": "user", "content": 5}]}', 'h.json', /content is neither text nor a list of parts/);
  rejects(
    '{"trajectory_format":"mini-swe-agent-1","messages":[{"role":"user","content":"x"}],"info":{}}',
    'm.json',
    /no assistant messages/,
  );
  rejects('[]', 'list.json', /empty/);
});

test('a batch loads folders recursively and never stops on a bad file', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cd-traj-'));
  mkdirSync(join(root, 'nested', 'deeper'), { recursive: true });
  copyFileSync(join(fixtures, 'mini-swe-agent.traj.json'), join(root, 'a.traj.json'));
  writeFileSync(join(root, 'nested', 'broken.json'), '{"messages": [');
  copyFileSync(join(fixtures, 'claude-code-session.jsonl'), join(root, 'nested', 'deeper', 's.jsonl'));
  copyFileSync(join(fixtures, 'swe-agent-full.traj'), join(root, 'nested', 'z.traj'));
  writeFileSync(join(root, 'notes.md'), '# not a trajectory, ignored inside folders');
  const seen: string[] = [];
  const r = await loadTrajectories([root, join(root, 'missing.json')], (f) => seen.push(f));
  assert.deepEqual(r.trajectories.map((t) => t.format).sort(), ['claude-code', 'mini-swe-agent', 'swe-agent']);
  assert.equal(r.skipped.length, 2);
  const broken = r.skipped.find((s) => s.file.endsWith('broken.json'));
  assert.match(broken!.error, /not valid JSON/);
  const missing = r.skipped.find((s) => s.file.endsWith('missing.json'));
  assert.match(missing!.error, /ENOENT/);
  assert.equal(seen.length, 4);
});
