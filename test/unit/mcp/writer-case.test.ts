// The MCP sync removes what it no longer names (a vanished tool's file, a gone server's folder). On a
// disk that ignores case (macOS, Windows), a server or tool renamed only in case is written into the
// file or folder still listed under its old name; comparing names with case removed what was just
// written. Linux is case-sensitive, so the old names are planted beside the new ones to stand for that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { writeIndex, writeServerFolder } from '../../../src/core/mcp/writer';
import { ContextStore } from '../../../src/core/store/context-store';
import { withTempDir } from './helpers';

const server = (name: string, tools: string[]) => ({
  name,
  folderName: name,
  transport: 'stdio' as const,
  source: '.mcp.json',
  status: 'connected' as const,
  tools: tools.map((t) => ({
    name: t,
    fileName: `${t}.json`,
    file: '',
    summary: 'Searches.',
    descriptionChars: 9,
    tool: { name: t, description: 'Searches.', inputSchema: { type: 'object' } },
  })),
});

test('a server or tool renamed only in case keeps the folder and file it was just written to', async () => {
  await withTempDir(async (out) => {
    const store = await ContextStore.open({ root: path.join(out, '.context-desk'), workspaceRoot: out });
    const mcp = store.folder('mcp');
    // What an earlier sync wrote, as the disk lists it after the rename: `GitHub/`, `Search.json`.
    for (const dir of ['GitHub', 'github', 'gone']) {
      await mkdir(path.join(mcp, dir), { recursive: true });
      await writeFile(path.join(mcp, dir, 'SERVER.md'), '# old\n');
    }
    await writeFile(path.join(mcp, 'github', 'Search.json'), '{}\n');
    await writeFile(path.join(mcp, 'github', 'vanished.json'), '{}\n');
    const now = server('github', ['search']);
    await writeServerFolder(store.writer, mcp, now);
    await writeIndex(store.writer, mcp, [now]);
    assert.deepEqual((await readdir(mcp)).sort(), ['GitHub', 'INDEX.md', 'github'], "a gone server's folder goes");
    assert.deepEqual(
      (await readdir(path.join(mcp, 'github'))).sort(),
      ['SERVER.md', 'Search.json', 'search.json'],
      "a vanished tool's file goes",
    );
  });
});
