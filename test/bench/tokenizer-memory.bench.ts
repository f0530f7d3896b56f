// Tokenizer memory, each scenario in a fresh node process (RSS after a full GC, from /proc via
// process.memoryUsage): how the extension used tiktoken before (a new encoding for every session,
// never freed; o200k and cl100k both loaded after a settings change) against now (one shared
// encoding, only the configured one, let go when the chat is closed). Figures: MB over the same
// process before any tokenizer loaded.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get_encoding } from 'tiktoken';
import { createTokenizer } from '../../src/core/tokens';

const SESSIONS = 3;
const ROUNDS = 3;

function rssMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
}

/** A few hundred KB of real code and prose, different per session. */
function sessionText(i: number): string {
  const src = ['src/core/agent/session.ts', 'src/core/store/history.ts', 'README.md'].map((f) =>
    readFileSync(f, 'utf8'),
  );
  return src.join('\n').repeat(4) + ` session ${i}`;
}

function scenario(kind: string): Record<string, number> {
  const base = rssMb();
  const out: Record<string, number> = {};
  if (kind === 'before') {
    // chatController before: createTokenizer per session, nothing disposed; then the setting changes.
    const kept = [];
    for (let i = 0; i < SESSIONS; i++) {
      const e = get_encoding('o200k_base');
      e.encode_ordinary(sessionText(i));
      kept.push(e);
    }
    out.sessions = rssMb() - base;
    const c = get_encoding('cl100k_base');
    c.encode_ordinary(sessionText(9));
    kept.push(c);
    out.switched = rssMb() - base;
    for (const e of kept) e.free();
    out.rest = rssMb() - base;
  } else {
    // chatController now: one tokenizer; New Chat releases; a settings change replaces it.
    let t = createTokenizer('o200k');
    for (let i = 0; i < SESSIONS; i++) {
      t.count(sessionText(i));
      if (i < SESSIONS - 1) t.release();
    }
    out.sessions = rssMb() - base;
    t.release();
    t = createTokenizer('cl100k');
    t.count(sessionText(9));
    out.switched = rssMb() - base;
    t.release();
    out.rest = rssMb() - base;
  }
  return out;
}

if (process.argv[2] === '--scenario') {
  process.stdout.write(JSON.stringify(scenario(process.argv[3]!)));
} else {
  const rows: Record<string, Record<string, number>[]> = { before: [], now: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const kind of ['before', 'now']) {
      const p = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', __filename, '--scenario', kind], {
        encoding: 'utf8',
      });
      if (p.status !== 0) throw new Error(p.stderr);
      rows[kind]!.push(JSON.parse(p.stdout) as Record<string, number>);
    }
  const cell = (kind: string, k: string): string => {
    const xs = rows[kind]!.map((x) => x[k]!).sort((a, b) => a - b);
    return `${xs[1]!.toFixed(0).padStart(4)} MB (${xs[0]!.toFixed(0)}-${xs[2]!.toFixed(0)})`;
  };
  console.log(`RSS added over a fresh process, median (min-max) of ${ROUNDS} processes each`);
  console.log(`scenario                                 | before (per session)  | now (shared, released)`);
  const labels: Record<string, string> = {
    sessions: `${SESSIONS} chats with o200k`,
    switched: 'then the setting changed to cl100k',
    rest: 'after the chat is closed',
  };
  for (const k of ['sessions', 'switched', 'rest'])
    console.log(`${labels[k]!.padEnd(40)} | ${cell('before', k).padEnd(21)} | ${cell('now', k)}`);
}
