// MCP limits with honest messages, and server text made inert where it lands, against a real-SDK server
// (test/fixtures/mcp/sdk-server.mjs) that pages fast, answers 12 MB, or sends hostile names and secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Marked } from 'marked';
import { McpSyncManager } from '../../../src/core/mcp/manager';
import { renderMcpStaticPrompt } from '../../../src/core/mcp/agent-tools';
import { mdBlock, mdInline, promptName, stripControls } from '../../../src/core/mcp/inert';
import { summarize } from '../../../src/core/mcp/render';
import { writeIndex, writeServerFolder } from '../../../src/core/mcp/writer';
import { ContextStore } from '../../../src/core/store/context-store';
import { runCli } from '../../support/cli';
import { FIXTURES, nodeCommand, withTempDir } from './helpers';

const SDK_SERVER = path.join(FIXTURES, 'sdk-server.mjs');
const sdk = (mode: string): { command: string; args: string[] } => ({ command: 'node', args: [SDK_SERVER, mode] });
const FAKE_TOKEN = ['ghp', '_', 'x7Kq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK0'].join('');
const DB_PASSWORD = 'hunter2-not-real';
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

async function allText(dir: string): Promise<string> {
  let text = '';
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    text += e.isDirectory() ? await allText(p) : await readFile(p, 'utf8');
  }
  return text;
}

test('a server that pages forever fails at the overall deadline, reported as such; the others do not wait', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      // Long enough for the fine server to start under load (node and the SDK), short for the pager's pages.
      syncDeadlineMs: 3000,
      settingServers: { pager: sdk('paging'), fine: sdk('ok') },
    });
    try {
      const started = performance.now();
      const [pager, fine] = await m.syncAll();
      const took = performance.now() - started;
      assert.ok(took < 8000, `the sync ended ${Math.round(took)} ms after it began`);
      assert.equal(fine!.status, 'connected');
      assert.equal(pager!.status, 'error');
      assert.match(pager!.message!, /within the overall deadline of 3 s \(it had sent \d+ tools on \d+ pages\)/);
      assert.match(pager!.fix!, /contextDesk\.mcp\.listTimeoutSeconds/);
      const server = await readFile(path.join(out, 'mcp', 'pager', 'SERVER.md'), 'utf8');
      const index = await readFile(path.join(out, 'mcp', 'INDEX.md'), 'utf8');
      assert.match(server, /overall deadline/);
      assert.match(index, /## pager \(error\)[^\n]*\n[^\n]*overall deadline/);
    } finally {
      await m.dispose();
    }
  });
});

test('a tool list over the message limit is reported as too large, not as a closed connection', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      settingServers: { big: sdk('huge') },
    });
    try {
      const [big] = await m.syncAll();
      assert.equal(big!.status, 'error');
      assert.match(big!.message!, /^Tool list too large \(over 10 MB in one message/);
      assert.doesNotMatch(big!.message!, /closed the connection/);
    } finally {
      await m.dispose();
    }
  });
});

test('a server listing tools without end: the first 1,000 are kept and written, ten warnings shown', async () => {
  // 100,000 tools held a sync for 80 s and wrote a file each; one warning per repeated name made a message of any size.
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      settingServers: { many: sdk('many') },
    });
    try {
      const [many] = await m.syncAll();
      assert.equal(many!.status, 'connected');
      assert.equal(many!.tools.length, 1000 - 14, "the first 1,000 entries, 'dup' kept once");
      assert.deepEqual(many!.tools.at(-1)!.name, 't999');
      assert.match(
        many!.message!,
        /^Warnings: the server lists more than 1000 tools; only the first 1000 are kept; the tool 'dup' is listed twice; the first is kept;/,
      );
      assert.match(many!.message!, /; and 5 more$/);
      const files = await readdir(path.join(out, 'mcp', 'many'));
      assert.equal(files.filter((f) => f.endsWith('.json')).length, 1000 - 14);
    } finally {
      await m.dispose();
    }
  });
});

test('hostile names and stderr: INDEX.md/SERVER.md render no heading, link or HTML; the prompt quotes; secrets never land', async () => {
  await withTempDir(async (out) => {
    const m = new McpSyncManager({
      outDir: out,
      allowStart: true,
      resolveCommand: nodeCommand,
      settingServers: {
        'evil\n# server': sdk('hostile-names'),
        dying: {
          command: 'node',
          args: [
            '-e',
            `process.stderr.write(${JSON.stringify(`token ${FAKE_TOKEN} url postgres://deploy:${DB_PASSWORD}@db:5432/x\n`)}); process.exit(2)`,
          ],
        },
      },
    });
    try {
      const states = await m.syncAll();
      const evil = states[0]!;
      assert.equal(evil.status, 'connected', evil.message);
      assert.equal(evil.tools.length, 6);
      const dying = states[1]!;
      assert.doesNotMatch(
        dying.message!,
        new RegExp(`${FAKE_TOKEN}|${DB_PASSWORD}`),
        'the state shown in the UI is redacted',
      );

      // GFM as VS Code's preview renders it: raw HTML passes, bare URLs become links.
      const md = { render: (t: string): string => new Marked({ gfm: true, async: false }).parse(t) as string };
      const index = await readFile(path.join(out, 'mcp', 'INDEX.md'), 'utf8');
      const indexHtml = md.render(index);
      // Headings: only the ones INDEX.md writes itself (title + one per server).
      assert.equal((indexHtml.match(/<h1/g) ?? []).length, 1);
      assert.equal((indexHtml.match(/<h2/g) ?? []).length, 2);
      assert.doesNotMatch(indexHtml, /<(a|img|b|script)[\s>]/);
      const serverMd = await readFile(path.join(out, 'mcp', evil.folderName, 'SERVER.md'), 'utf8');
      const serverHtml = md.render(serverMd);
      assert.doesNotMatch(serverHtml, /<h1>[^<]*<\/h1>[\s\S]*<h1/, 'one title only');
      assert.doesNotMatch(serverHtml, /<(a|img|b|script)[\s>]|Injected heading<\/h/);

      const everything = await allText(out);
      assert.doesNotMatch(everything, RAW_CONTROL, 'no raw control character on disk');
      assert.ok(!everything.includes(FAKE_TOKEN) && !everything.includes(DB_PASSWORD), 'no secret on disk');

      const prompt = renderMcpStaticPrompt(states);
      assert.equal(prompt.split('\n').length, 3, 'one line per server: no name breaks its line');
      assert.doesNotMatch(prompt, RAW_CONTROL);
      assert.match(prompt, /"tool\\n# Injected heading"/);
      assert.match(prompt, /, ok_tool/);
    } finally {
      await m.dispose();
    }
  });
});

test('mcp sync prints no terminal control sequence and leaves SERVER.md and INDEX.md agreeing after exit', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      path.join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { hostile: sdk('hostile-names'), brief: sdk('exit-after-list') } }),
    );
    const out = path.join(dir, 'out');
    const r = await runCli(['mcp', 'sync', '--workspace', dir, '--out', out, '--allow-workspace-servers']);
    assert.doesNotMatch(r.out + r.err, RAW_CONTROL, 'stdout and stderr are free of control characters');
    assert.match(r.out, /hostile\s+connected\s+6 tools/);
    // The server that exited right after its listing: files written after the CLI decided to stop agree.
    await new Promise((res) => setTimeout(res, 300));
    const index = await readFile(path.join(out, 'mcp', 'INDEX.md'), 'utf8');
    const server = await readFile(path.join(out, 'mcp', 'brief', 'SERVER.md'), 'utf8');
    assert.doesNotMatch(server, /reconnecting/);
    const status = /Status: (\S+)/.exec(server)![1];
    assert.match(index, new RegExp(`## brief \\(${status}\\)`));
  });
});

test('mcp sync refuses an --out that is the workspace or an existing folder that is not a store', async () => {
  await withTempDir(async (dir) => {
    await writeFile(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { s: sdk('ok') } }));
    const r = await runCli(['mcp', 'sync', '--workspace', dir, '--out', dir, '--allow-workspace-servers']);
    assert.equal(r.code, 1);
    assert.match(r.err, /nothing was written: .*is the workspace folder or contains it/);
    assert.deepEqual(await readdir(dir), ['.mcp.json']);
  });
});

test('the inert helpers: escapes, fences and quotes', () => {
  assert.equal(stripControls('a\u001b[2Jb\u001b]52;c;eA==\u0007c\u0000d\u202ee\r\nf'), 'abcde\nf');
  assert.equal(
    mdInline('x\n# y [l](u) <b> `c` https://e.x www.e.x'),
    'x # y \\[l\\](u) \\<b\\> \\`c\\` https\\://e.x www\\.e.x',
  );
  assert.equal(mdBlock('a ``` b'), '````text\na ``` b\n````');
  // 200,000 runs of backticks (a long Markdown error or instructions): a spread over them overflowed the stack.
  assert.ok(mdBlock('`a` '.repeat(200_000) + '`````').startsWith('``````text\n`a` '));
  assert.equal(promptName('read_file'), 'read_file');
  assert.equal(promptName('a\nb'), '"a\\nb"');
});

test('a cut in what the sync writes never leaves part of a secret: summaries, names, fixes, instructions', async () => {
  // The token straddles each cut: summary (120 and 480 characters), mdInline's cap, instructions' 16 KiB.
  const around = (cut: number): string => `${'x'.repeat(cut - 31)} ${FAKE_TOKEN} end.`;
  const tail = FAKE_TOKEN.slice(8, 20); // before each cut, and not recognisable there as a token
  for (const cut of [120, 480]) assert.ok(!summarize(around(cut)).includes(tail), `summary cut at ${cut}`);
  assert.ok(!mdInline(around(300), 300).includes(tail));
  assert.ok(!promptName(`x\n${around(200)}`).includes(tail));
  await withTempDir(async (out) => {
    const store = await ContextStore.open({ root: path.join(out, '.context-desk'), workspaceRoot: out });
    const description = around(120);
    const state = {
      name: 'leaky',
      folderName: 'leaky',
      transport: 'stdio' as const,
      source: '.mcp.json',
      status: 'error' as const,
      message: 'failed',
      fix: around(300),
      instructions: around(16 * 1024),
      tools: [
        {
          name: 'echo',
          fileName: 'echo.json',
          file: '',
          summary: summarize(description),
          descriptionChars: description.length,
          tool: { name: 'echo', description, inputSchema: { type: 'object' } },
        },
      ],
    };
    await writeServerFolder(store.writer, store.folder('mcp'), state);
    await writeIndex(store.writer, store.folder('mcp'), [state]);
    const written = await allText(store.folder('mcp'));
    assert.ok(written.includes('[REDACTED:github-token]'));
    assert.ok(!written.includes(tail) && !written.includes(FAKE_TOKEN.slice(4, 16)), 'no part of the token on disk');
  });
});

test("INDEX.md's one-line texts are redacted before they are joined and escaped: a URL's password, a YAML block", async () => {
  const password = 'Xk95-uWSe3T-not-real';
  const block = 'Zq9xPw3rTyUi-not-real';
  const description = `Queries DATABASE_URL=postgres://app:${password}@db.internal:5432/app for you\napiKey: |\n  ${block}\n`;
  // As one line, escaped (`postgres\://`), neither is readable as a secret any more.
  for (const text of [summarize(description), mdInline(description, 300)])
    assert.ok(!text.includes(password) && !text.includes(block), text);
  await withTempDir(async (out) => {
    const store = await ContextStore.open({ root: path.join(out, '.context-desk'), workspaceRoot: out });
    const state = {
      name: 'db',
      folderName: 'db',
      transport: 'stdio' as const,
      source: '.mcp.json',
      status: 'error' as const,
      message: description,
      fix: description,
      tools: [
        {
          name: 'query',
          fileName: 'query.json',
          file: '',
          summary: description,
          descriptionChars: description.length,
          tool: { name: 'query', description, inputSchema: { type: 'object' } },
        },
      ],
    };
    await writeServerFolder(store.writer, store.folder('mcp'), state);
    await writeIndex(store.writer, store.folder('mcp'), [state]);
    const written = await allText(store.folder('mcp'));
    assert.ok(!written.includes(password) && !written.includes(block), 'no secret on disk');
    assert.match(written, /postgres\\:\/\/app:\\\[REDACTED:url-password\\\]@db\.internal/);
  });
});
