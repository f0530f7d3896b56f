// The fake-secret corpus (test/fixtures/secrets/), the contexts a secret is written in, every write
// path of the store driven through its public API, and the check that nothing of a secret is on disk.
import { readFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { CorpusEntry } from '../../scripts/secret-corpus/formats';
import { ContextStore } from '../../src/core/store/context-store';
import { ToolOutputStore } from '../../src/core/store/tool-outputs';
import { TerminalLogWriter } from '../../src/core/store/terminal-log';
import { HistoryWriter } from '../../src/core/store/history';
import { addToIndex } from '../../src/core/store/output-index';
import { writeIndex, writeServerFolder } from '../../src/core/mcp/writer';
import { createTokenizer } from '../../src/core/tokens/tokenizer';

export type { CorpusEntry };

export const CORPUS: CorpusEntry[] = (
  JSON.parse(readFileSync(path.join(__dirname, '../fixtures/secrets/corpus.json'), 'utf8')) as {
    entries: CorpusEntry[];
  }
).entries;

const tokenizer = createTokenizer('chars4');

/** How an entry's line is written. */
export const CONTEXTS: Record<string, (e: CorpusEntry) => string | undefined> = {
  plain: (e) => e.line,
  'ansi-around': (e) => `\x1b[1;31m${e.line}\x1b[0m`,
  // The colour switches in the middle of the secret: a person still sees (and copies) one token.
  'ansi-inside': (e) => {
    const s = (e.needles ?? [e.secret])[0]!;
    const k = s.length >> 1;
    return e.line.replace(s, `${s.slice(0, k)}\x1b[33m${s.slice(k)}\x1b[0m`);
  },
  'json-after-newline': (e) => JSON.stringify({ path: '.env', content: `A=1\n${e.line}\nB=2` }),
  'json-after-tab': (e) => JSON.stringify({ path: 'notes.txt', content: `key\t${e.line}\tend` }),
  'json-after-quote': (e) => JSON.stringify({ path: 'say.txt', content: `he said "${e.line}" twice` }),
  // A file's content as a tool's JSON or a Python repr holds it: its first line right after the quote.
  'json-first-line': (e) => JSON.stringify({ path: 'config', content: `${e.line}\nB=2\n` }),
  'python-first-line': (e) => `{'path': 'config', 'content': ${pythonRepr(`${e.line}\nB=2\n`)}}`,
  // A page showing a config file: HTML-escaped (`&quot;`, `&lt;`), as `curl` of it prints.
  'html-pre': (e) => `<pre>\n${e.line.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}\n</pre>`,
  // A cell of a CSV export (a database's JSON column, a note): its quotes doubled.
  'csv-cell': (e) => `id,note,created\n7,"${e.line.replaceAll('"', '""')}",2026-11-22\n`,
  // A file a logger or a CI job printed line by line (GitHub Actions' log, `kubectl logs --timestamps`).
  'logged-lines': (e) =>
    e.line
      .split('\n')
      .map((l, i) => `2026-11-22T02:33:0${i % 10}.1234567Z INFO  ${l}`)
      .join('\n'),
  url: (e) => (e.standalone ? `see https://hooks.example.com/v1/${e.secret}/status?ok=1` : undefined),
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A string as Python's repr() writes it: single quotes unless it holds one and no double quote. */
export function pythonRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\x1b/g, '\\x1b')
    .replaceAll(q, `\\${q}`);
  return `${q}${body}${q}`;
}

/** Every 12-character window of every needle (shorter needles whole): any of them on disk is a leak. */
export function windowsOf(entries: readonly CorpusEntry[]): Map<string, string> {
  const windows = new Map<string, string>();
  for (const e of entries)
    for (const n of e.needles ?? [e.secret]) {
      const w = Math.min(12, n.length);
      for (let i = 0; i + w <= n.length; i++) windows.set(n.slice(i, i + w), e.format);
    }
  return windows;
}

/** Formats some part of which appears in `text`. */
export function leakedFormats(text: string, windows: Map<string, string>): Set<string> {
  const lengths = new Set([...windows.keys()].map((k) => k.length));
  const found = new Set<string>();
  for (const w of lengths)
    for (let i = 0; i + w <= text.length; i++) {
      const f = windows.get(text.slice(i, i + w));
      if (f) found.add(f);
    }
  return found;
}

/** Every file under `dir`, read as text, with its path. */
export async function allFiles(dir: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const entry of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, text: await fsp.readFile(file, 'utf8') });
  }
  return out;
}

/** Byte offsets at which a producer's output is cut into chunks, given the whole output. */
export type Cuts = (output: string) => number[];

async function* chunked(text: string, cuts: Cuts = () => []): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  let prev = 0;
  for (const c of [...cuts(text)].sort((a, b) => a - b)) {
    if (c <= prev || c >= bytes.length) continue;
    yield bytes.subarray(prev, c);
    prev = c;
  }
  yield bytes.subarray(prev);
}

/** One write path of the store: writes `texts` (raw, as a producer would) through its public API. */
export type WritePath = (store: ContextStore, texts: string[], cuts?: Cuts) => Promise<void>;

export const WRITE_PATHS: Record<string, WritePath> = {
  'tool output (+ masked-observation index)': async (store, texts, cuts) => {
    const output = texts.join('\n') + '\n';
    await new ToolOutputStore(store, tokenizer, { thresholdChars: 16 }).save({
      session: 'corpus',
      turn: 1,
      tool: 'run_shell',
      output: chunked(output, cuts),
    });
  },
  'terminal log': async (store, texts, cuts) => {
    const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 1, flushIntervalMs: 60_000 });
    const cap = await w.begin({ command: `./run.sh ${texts[0] ?? ''}`, cwd: '/w' });
    for await (const chunk of chunked(texts.join('\r\n') + '\r\n', cuts)) await cap.push(chunk);
    await cap.end({ exitCode: 0 });
    await w.close();
  },
  'history JSONL + Markdown transcript': async (store, texts) => {
    const h = await HistoryWriter.open(store, 'corpus', { tokenizer });
    const joined = texts.join('\n');
    await h.append({ role: 'user', content: joined, origin: 'person' } as never);
    await h.append({
      role: 'assistant',
      content: '',
      toolCalls: texts.map((t, i) => ({
        id: `call_${i}`,
        name: 'edit_file',
        arguments: t.startsWith('{') ? t : JSON.stringify({ path: '.env', content: t }),
      })),
    } as never);
    await h.append({ role: 'tool', name: 'run_shell', content: joined } as never, {
      masked: { storedAt: '.context-desk/tool-outputs/corpus/0001-run_shell.txt', placeholder: texts[0] ?? '' },
    });
    await h.close();
  },
  'MCP files (tool JSON, SERVER.md, INDEX.md)': async (store, texts) => {
    const joined = texts.join('\n');
    const state = {
      name: 'corpus',
      folderName: 'corpus',
      transport: 'stdio' as const,
      source: '.mcp.json',
      status: 'error' as const,
      message: `server exited; stderr:\n${joined}`,
      fix: texts[0],
      instructions: joined,
      tools: [
        {
          name: 'echo',
          fileName: 'echo.json',
          file: '',
          summary: texts[0] ?? '',
          descriptionChars: joined.length,
          tool: { name: 'echo', description: joined, inputSchema: { type: 'object', description: joined } },
        },
      ],
    };
    await writeServerFolder(store.writer, store.folder('mcp'), state);
    await writeIndex(store.writer, store.folder('mcp'), [state]);
  },
  'output index': async (store, texts) => {
    await addToIndex(store, 'corpus-index', {
      turn: 1,
      tool: 'run_shell',
      display: '.context-desk/tool-outputs/corpus-index/0001-run_shell.txt',
      file: '0001-run_shell.txt',
      bytes: 1,
      lines: 1,
      tokens: 1,
      tokensExact: true,
      firstLine: texts.join(' | '),
      storedAt: new Date(0).toISOString(),
    });
  },
};

export async function openStore(root: string): Promise<ContextStore> {
  return ContextStore.open({ root: path.join(root, '.context-desk'), workspaceRoot: root });
}
