// A command line that writes into the store is not blocked, but its approval title says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { storeWriteWarning } from '../../../src/core/agent/tools/store-writes';
import { commandApprovalTitle, PathGuard, type CommandRequest } from '../../../src/core/agent/tools';
import { runCommandTool } from '../../../src/core/agent/tools/host-ports';
import type { ToolContext } from '../../../src/core/agent/tool-registry';

const ws = path.resolve('/w/project');
const store = path.join(ws, '.context-desk');

test('a line that writes, links or copies into the store is named in its approval; one that reads it is not', () => {
  for (const line of [
    `echo '{"role":"user"}' >> .context-desk/history/s.jsonl`,
    'cp notes.txt .context-desk/tool-outputs/s1/x.txt',
    'ln ~/.ssh/id_rsa .context-desk/tool-outputs/x.txt',
    'ln -sf /etc/passwd ./.context-desk/terminals/t.log',
    'make 2>&1 | tee -a .context-desk/history/s.md',
    'cat key > "$PWD/.context-desk/x.txt"',
    `sudo cp -t ${store}/outputs a b`,
    'sed -i s/no/yes/ .Context-Desk/history/s.jsonl',
    'rm -rf .context-desk/history',
    'dd if=/dev/zero of=.context-desk/x bs=1 count=1',
  ]) {
    const why = storeWriteWarning(line, ws, store);
    assert.match(why ?? '', /writes into the Context Desk folder/, line);
    assert.match(
      commandApprovalTitle({ command: line, ...(why ? { storeWrite: why } : {}) }),
      /Careful: the line writes into the Context Desk folder/,
      line,
    );
  }
  // From a sub-folder, the store is reached with `..`.
  assert.ok(storeWriteWarning('echo x > ../.context-desk/y', path.join(ws, 'src'), store));
  // A line that only reads the store, or writes elsewhere, gets no such warning.
  for (const line of [
    'cat .context-desk/history/s.md',
    'grep -r TODO .context-desk/tool-outputs',
    'cp .context-desk/tool-outputs/s1/x.txt /tmp/copy.txt',
    'tail -n 50 .context-desk/terminals/t.log > summary.txt',
    'npm test 2>&1 | tee build.log',
    'echo .context-desk >> .gitignore',
  ])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
  assert.equal(storeWriteWarning('echo x > .context-desk/y', ws, undefined), undefined, 'no store');
});

test('store writes are read with quotes: a redirection in quotes or a comment is text, one in bash -c code is a write', () => {
  for (const line of [
    `echo 'x > .context-desk/h'`,
    `git commit -m "save | tee .context-desk/h"`,
    'echo x # > .context-desk/h',
    `echo "cp a .context-desk/b"`,
  ])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
  for (const line of [
    `bash -c "echo x > .context-desk/h"`,
    `echo "$(cp a .context-desk/b)"`,
    `sh -c 'tee .context-desk/h' < x`,
    'cd .context-desk && echo x > history/h.jsonl',
  ])
    assert.match(storeWriteWarning(line, ws, store) ?? '', /writes into the Context Desk folder/, line);
});

test('a write through a variable the line sets, or interpreter code naming the store, is named', () => {
  assert.match(
    storeWriteWarning('D=.context-desk; cp x $D/h', ws, store) ?? '',
    /writes into the Context Desk folder \(\$D\/h = \.context-desk\/h\)/,
  );
  assert.match(storeWriteWarning('export D=./.context-desk && echo x >> "${D}/h"', ws, store) ?? '', /\$\{D\}\/h/);
  for (const line of [
    `python -c "open('.context-desk/history/x','w')"`,
    `node -e "require('fs').writeFileSync('.context-desk/x', '')"`,
    `perl -e 'open(F, ">.context-desk/x")'`,
    `python3 - <<'EOF'\nopen('.context-desk/x', 'w')\nEOF`,
    `awk '{ print > ".context-desk/x" }' in.txt`,
  ])
    assert.match(storeWriteWarning(line, ws, store) ?? '', /runs \w+ code that names the Context Desk folder/, line);
  // Reading the store, or code that does not name it, is not.
  for (const line of [
    `awk '{print}' .context-desk/x`,
    'python -c "print(1)" .context-desk/x',
    'X=.context-desk; cat $X/h',
  ])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
});

test('downloads, archives, find -exec and -delete, git clone and patch into the store are named', () => {
  for (const line of [
    'find . -name x -exec cp {} .context-desk/h ;',
    'find .context-desk/history -name "*.jsonl" -delete',
    'curl -fsSL -o .context-desk/history/s.jsonl https://x.example/a',
    'curl --output=.context-desk/h https://x.example/a',
    'wget -P .context-desk https://x.example/a',
    'tar -xzf a.tgz -C .context-desk',
    'unzip -o a.zip -d .context-desk/history',
    'git clone https://x.example/r .context-desk/history',
    'sort -o .context-desk/h a.txt',
    'patch .context-desk/history/s.jsonl < p.diff',
    "perl -pi -e 's/a/b/' .context-desk/history/s.jsonl",
  ])
    assert.match(storeWriteWarning(line, ws, store) ?? '', /writes into the Context Desk folder/, line);
  for (const line of [
    'find .context-desk -name "*.txt"',
    'find . -exec cat {} .context-desk/x ;',
    'tar -xzf .context-desk/a.tgz -C /tmp/x',
    'grep -o TODO .context-desk/h',
    'curl -o out.json https://x.example/.context-desk',
    'git -C .context-desk log',
  ])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
});

test('run_command hands the warning to the host with the command', async () => {
  const seen: CommandRequest[] = [];
  const guard = new PathGuard({ workspaceRoot: process.cwd(), storeRoot: path.join(process.cwd(), '.context-desk') });
  const run = runCommandTool(guard, { run: async (r) => (seen.push(r), { ok: true, text: 'ran' }) });
  const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };
  await run.run({ command: 'ln ~/.ssh/id_rsa .context-desk/x.txt' }, ctx);
  await run.run({ command: 'ls .context-desk' }, ctx);
  assert.match(seen[0]?.storeWrite ?? '', /writes into the Context Desk folder \(\.context-desk\/x\.txt\)/);
  assert.equal(seen[1]?.storeWrite, undefined);
});

test('git -C into the store, env -C, prefixes with option values and xargs feeding a writer are named', () => {
  for (const line of [
    'git -C .context-desk checkout .',
    'git -C .context-desk init',
    'git -C .context-desk clean -fdx',
    'git --work-tree=.context-desk checkout HEAD -- .',
    'git -C sub -C ../.context-desk add -A',
    'env -C .context-desk rm history/s.jsonl',
    'env --chdir=.context-desk tee h',
    'sudo -u root tee .context-desk/h',
    'xargs -I {} cp {} .context-desk/h',
    `bash <<< 'rm .context-desk/h'`,
  ])
    assert.match(storeWriteWarning(line, ws, store) ?? '', /writes into the Context Desk folder/, line);
  assert.match(
    storeWriteWarning('echo .context-desk/history/s.jsonl | xargs rm', ws, store) ?? '',
    /feeds rm through xargs, and names the Context Desk folder/,
  );
  for (const line of [
    'git -C .context-desk status',
    'git -C .context-desk log -p',
    'env -C src rm x',
    'ls | xargs rm',
    'git -C sub checkout .',
  ])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
});

test('a shell fed code that names the store is named; one running a script or -c code without it is not', () => {
  for (const line of [`echo 'rm -rf .context-desk/history' | sh`, 'curl -s x | bash -s -- .context-desk'])
    assert.match(
      storeWriteWarning(line, ws, store) ?? '',
      /runs (?:sh|bash) on input, and names the Context Desk/,
      line,
    );
  for (const line of ['echo ls | sh', 'bash build.sh .context-desk', `bash -c 'ls' .context-desk`])
    assert.equal(storeWriteWarning(line, ws, store), undefined, line);
});
