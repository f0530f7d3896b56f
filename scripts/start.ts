// `npm start`: builds the extension, installs it into the local test VS Code and serves that VS Code on
// 127.0.0.1 with a small demo workspace. Open the printed URL in a browser; Ctrl-C stops everything.
// Settings, stored keys and the window's state live in ~/.cache/context-desk/start/ and survive restarts
// (CONTEXT_DESK_START_DIR moves them, CONTEXT_DESK_START_WORKSPACE the workspace; --no-build skips the build).
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { cacheBase, startCodeServer, type CodeServer } from './lib/code-server';
import { onCleanup, runCleanups } from './lib/cleanup';

const PORT = process.env.PORT ?? process.env.CONTEXT_DESK_PORT ?? '8080';
const HOST = process.env.HOST ?? '127.0.0.1';

/** MCP servers from this checkout's node_modules and one Agent Skill, so the Tools view has something to show. */
function seedDemo(workspace: string): void {
  const server = (pkg: string): string => resolve('node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          everything: { type: 'stdio', command: process.execPath, args: [server('server-everything'), 'stdio'] },
          files: {
            type: 'stdio',
            command: process.execPath,
            args: [server('server-filesystem'), '${workspaceFolder}'],
          },
        },
      },
      null,
      2,
    ),
  );
  mkdirSync(join(workspace, '.agents', 'skills', 'explain-build-log'), { recursive: true });
  writeFileSync(
    join(workspace, '.agents', 'skills', 'explain-build-log', 'SKILL.md'),
    '---\nname: explain-build-log\ndescription: Finds the warnings and errors in a build log and explains them.\n---\n\nGrep the terminal log for `warning:` and `error:` first; read only the lines around them.\n',
  );
}

async function start(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the build failed');
  }

  // The demo workspace persists between runs so what Context Desk writes there can be looked at later.
  const workspace = resolve(process.env.CONTEXT_DESK_START_WORKSPACE ?? '.vscode-test/demo-workspace');
  const persistentDir = resolve(process.env.CONTEXT_DESK_START_DIR ?? join(cacheBase(), 'start'));
  if (!existsSync(workspace)) {
    mkdirSync(workspace, { recursive: true });
    cpSync('test/fixtures/workspace', workspace, { recursive: true });
    seedDemo(workspace);
  }
  const options = {
    installExtensionFrom: resolve('.'),
    persistentDir,
    settings: { 'task.allowAutomaticTasks': 'on', 'workbench.colorTheme': 'Default Dark Modern' },
  };
  let server: CodeServer;
  try {
    server = await startCodeServer({ ...options, bindAddr: `${HOST}:${PORT}` });
  } catch (e) {
    console.warn(
      `Port ${PORT} is not free (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); using a free one.`,
    );
    server = await startCodeServer({ ...options, bindAddr: `${HOST}:0` });
  }
  onCleanup(() => server.stop());
  server.process.once('exit', (code) => {
    console.error(`code-server exited (${code}).`);
    void runCleanups().finally(() => process.exit(1));
  });
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(`\nContext Desk is running in VS Code (code-server) at:\n\n    ${url}\n`);
  console.log(
    `Workspace: ${workspace}\nExtension: ${join(server.extensionsDir)} (linked to this checkout; rebuild + reload the window to see changes)`,
  );
  console.log(`Settings and keys: ${persistentDir} (kept between runs)`);
  console.log(
    'No model endpoint? Open Context Desk in the activity bar and choose "Try the demo model": a scripted model, no network.',
  );
  console.log('Press Ctrl-C to stop.');
}

start().catch(async (e: unknown) => {
  console.error(`npm start failed: ${e instanceof Error ? e.message : String(e)}`);
  await runCleanups();
  process.exit(1);
});
