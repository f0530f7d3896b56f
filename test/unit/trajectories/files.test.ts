import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectories, loadTrajectoryFile, TrajectoryError } from '../../../src/core/trajectories';
import { fixture } from './helpers';

const tmp = () => mkdtempSync(join(tmpdir(), 'cd-files-'));

async function reason(file: string): Promise<TrajectoryError> {
  try {
    await loadTrajectoryFile(file);
  } catch (e) {
    assert.ok(e instanceof TrajectoryError, String(e));
    assert.ok(e.message.startsWith(file));
    return e;
  }
  assert.fail(`${file} loaded`);
}

test('broken or unknown files are refused with a reason naming the problem and a group to count them by', async () => {
  const dir = tmp();
  const cases: [string, string, RegExp, string][] = [
    ['empty.json', '', /the file is empty/, 'empty file'],
    ['blank.json', '  \n\n', /blank/, 'empty file'],
    ['cut.json', '{"messages": [', /ends early/, 'not valid JSON'],
    [
      'odd.json',
      '{"foo": 1, "bar": 2}',
      /JSON of a kind replay does not read \(top level: foo, bar\)/,
      'not an agent log (JSON of another kind)',
    ],
    [
      'other.jsonl',
      '{"a":1}\n{"b":2}\n',
      /JSON lines of a kind replay does not read/,
      'not an agent log (JSON lines of another kind)',
    ],
    [
      'codex-exec.jsonl',
      '{"type":"thread.started","thread_id":"t1"}\n{"type":"turn.started"}\n' +
        '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"4"}}\n' +
        '{"type":"turn.completed","usage":{"input_tokens":2946,"cached_input_tokens":0,"output_tokens":7}}\n',
      /Codex `exec --json` events record usage per turn.*rollout/,
      'Codex exec --json events (replay the rollout file)',
    ],
    [
      'gemini.json',
      '{"sessionId":"s1","projectHash":"ab12","startTime":"2025-10-18T14:57:28.974Z","messages":[]}',
      /Gemini CLI log with no model calls/,
      'no model calls',
    ],
    ['nocalls.json', '[{"role":"user","content":"only a question"}]', /no model calls/, 'no model calls'],
    [
      'notes.md',
      '# Notes\n\nnothing here\n',
      /Markdown without Aider/,
      'not an agent log (Markdown without Aider headers)',
    ],
    ['two.json', '{"a": 1} {"b": 2}', /several JSON values/, 'not valid JSON'],
    // Within the 200 levels a file may nest, content parts have their own limit.
    [
      'deep-parts.json',
      '{"model":"claude-sonnet-4-5","max_tokens":1,"messages":[{"role":"user","content":"q"},' +
        '{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]},{"role":"user","content":[' +
        '{"type":"tool_result","tool_use_id":"t","content":['.repeat(80) +
        ']}'.repeat(80) +
        ']}]}',
      /message 2: block 0: content parts nested more than 64 levels deep/,
      'content nested too deeply',
    ],
    [
      'deep-arguments.json',
      '[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function",' +
        `"function":{"name":"f","arguments":${'['.repeat(20_000)}${']'.repeat(20_000)}}}]},` +
        '{"role":"tool","tool_call_id":"c","content":"r"},{"role":"assistant","content":"a"}]',
      /nested too deeply to read \(more than 200 levels\)/,
      'nested too deeply to read',
    ],
    // JSON.parse and the streaming parser take seconds on megabytes of `[[[[`: refused before parsing.
    ['deep.json', '['.repeat(2_000_000) + ']'.repeat(2_000_000), /more than 200 levels/, 'nested too deeply to read'],
  ];
  for (const [name, text, why, group] of cases) {
    writeFileSync(join(dir, name), text);
    const e = await reason(join(dir, name));
    assert.match(e.reason, why, name);
    assert.equal(e.group, group, name);
  }
});

test('a line of JSON lines nested too deeply is skipped with a warning before it is parsed', async () => {
  const dir = tmp();
  const file = join(dir, 'session.jsonl');
  const session = readFileSync(fixture('claude-code-session.jsonl'), 'utf8');
  const deep = `{"type":"user","x":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}\n`;
  // First, in the middle and last: the first line also decides whether the file is JSON lines.
  writeFileSync(file, deep + session + deep + session.split('\n')[0] + '\n' + deep);
  const [t] = await loadTrajectoryFile(file);
  assert.ok(t!.warnings?.includes('3 lines nested more than 200 levels deep skipped'), String(t!.warnings));
  assert.ok(t!.calls!.length > 0);
});

test('an unknown role is dropped with a warning, not a silent misread', async () => {
  const dir = tmp();
  const file = join(dir, 'roles.json');
  writeFileSync(
    file,
    JSON.stringify([
      { role: 'user', content: 'q' },
      { role: 'wizard', content: 'x' },
      { role: 'assistant', content: 'a' },
    ]),
  );
  const [t] = await loadTrajectoryFile(file);
  assert.equal(t!.messages.length, 2);
  assert.match(t!.warnings!.join('\n'), /1 message with unknown role "wizard" dropped/);
});

test('a UTF-8 byte-order mark is accepted', async () => {
  const dir = tmp();
  const file = join(dir, 'bom.json');
  writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(fixture('openai-chat.json'))]));
  const [t] = await loadTrajectoryFile(file);
  const [plain] = await loadTrajectoryFile(fixture('openai-chat.json'));
  assert.deepEqual(t!.messages, plain!.messages);
  const lines = join(dir, 'bom.jsonl');
  writeFileSync(lines, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(fixture('openai.jsonl'))]));
  assert.deepEqual((await loadTrajectoryFile(lines))[0]!.messages, plain!.messages);
});

test('a binary file is refused without echoing its bytes; invalid UTF-8 and UTF-16 too', async () => {
  const dir = tmp();
  const bin = join(dir, 'blob.json');
  writeFileSync(bin, Buffer.from([0x7b, 0x00, 0x01, 0x02, 0x1b, 0x5b, 0x32, 0x4a, 0xff, 0x07, 0x9b]));
  const e = await reason(bin);
  assert.equal(e.group, 'binary file');

  assert.doesNotMatch(e.message, /[\u0000-\u0008\u001b\u009b]/);
  const latin1 = join(dir, 'latin1.json');
  writeFileSync(
    latin1,
    Buffer.concat([
      Buffer.from('{"messages": [{"role": "user", "content": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}]}'),
    ]),
  );
  assert.equal((await reason(latin1)).group, 'not UTF-8 text');
  const utf16 = join(dir, 'utf16.json');
  writeFileSync(utf16, Buffer.from('\ufeff{"a": 1}', 'utf16le'));
  assert.match((await reason(utf16)).reason, /UTF-16/);
  // A JSON syntax error quotes no file content either.
  const hostile = join(dir, 'hostile.json');
  writeFileSync(hostile, '{"a": \u001b]52;c;SGVsbG8=\u0007}');
  assert.doesNotMatch((await reason(hostile)).message, /\u001b/);
});

test('a FIFO is refused at once, never waited on, alone or inside a folder', async () => {
  const dir = tmp();
  const fifo = join(dir, 'pipe.jsonl');
  execFileSync('mkfifo', [fifo]);
  const e = await reason(fifo);
  assert.match(e.reason, /not a regular file: a FIFO/);
  copyFileSync(fixture('openai.jsonl'), join(dir, 'chat.jsonl'));
  const r = await loadTrajectories([dir]);
  assert.equal(r.trajectories.length, 1);
  assert.deepEqual(
    r.skipped.map((s) => [s.file, s.group]),
    [[fifo, 'not a regular file']],
  );
});

test('a folder scan considers every file and reports skipped ones by reason; ids are paths under the argument', async () => {
  const root = tmp();
  mkdirSync(join(root, 'nested', 'deeper'), { recursive: true });
  copyFileSync(fixture('mini-swe-agent.traj.json'), join(root, 'a.traj.json'));
  writeFileSync(join(root, 'nested', 'broken.json'), '{"messages": [');
  copyFileSync(fixture('claude-code-compaction.jsonl'), join(root, 'nested', 'deeper', 's.jsonl'));
  copyFileSync(fixture('aider.chat.history.md'), join(root, 'nested', '.aider.chat.history.md'));
  for (const n of ['x', 'y']) writeFileSync(join(root, `${n}.md`), `# ${n}\n\nnot a log\n`);
  writeFileSync(join(root, 'script.py'), 'print(1)\n');
  symlinkSync(root, join(root, 'loop'));
  const seen: string[] = [];
  const r = await loadTrajectories([root, join(root, 'missing.json')], (f) => seen.push(f));
  assert.deepEqual(r.trajectories.map((t) => t.id).sort(), [
    'a.traj.json',
    'nested/.aider.chat.history.md',
    'nested/deeper/s.jsonl#1',
    'nested/deeper/s.jsonl#2',
  ]);
  const groups = (g: string) => r.skipped.filter((s) => s.group === g).length;
  assert.equal(groups('not an agent log (Markdown without Aider headers)'), 2);
  assert.equal(groups('not a log file type (.py)'), 1);
  assert.equal(groups('link to a folder (not followed)'), 1);
  assert.equal(groups('not valid JSON'), 1);
  assert.equal(groups('cannot read'), 1);
  assert.equal(seen.length, 6, 'every candidate file is read once');
});
