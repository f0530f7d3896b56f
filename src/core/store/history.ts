// Chat history as files: `history/<session>.jsonl` (full fidelity: one record per message, one per model
// call with its accounting) and `history/<session>.md` (a readable transcript). Both are append-only;
// every text is sanitized first.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Message, Tokenizer } from '../messages';
import type { Clock } from '../ports';
import { systemClock } from '../ports';
import { fenced, inlineCode } from '../markdown-fence';
import type { ContextStore } from './context-store';
import { MAX_JSONL_BYTES, readJsonl, type JsonlReadResult } from './durable';
import type { StoreAppendFile } from './store-writer';
import { safeName } from './names';
import { sanitizeText } from './sanitize/pipeline';
import { redactJsonText } from './sanitize/json-values';
import { addCounts, type RedactionCounts } from './sanitize/secrets';
import {
  isMessageRecord,
  type HistoryCallLine,
  type HistoryLine,
  type HistoryRecord,
  type HistorySetAsideLine,
  type HistoryStateLine,
  type MaskedInfo,
} from './history-records';
import { compareText } from '../numbers';

export * from './history-records';

export interface HistoryAppendExtra {
  tokens?: number;
  turn?: number;
  masked?: MaskedInfo;
}

async function clean(text: string, counts: RedactionCounts): Promise<string> {
  if (text === '') return text;
  const r = await sanitizeText(text, { ansi: 'strip' });
  addCounts(counts, r.stats.redactions);
  return r.text;
}

/** Sanitizes every text field of a message (tool-call arguments by their decoded JSON values); returns the copy and what was redacted. */
async function sanitizeMessage(m: Message): Promise<{ message: Message; redactions: RedactionCounts }> {
  const redactions: RedactionCounts = {};
  const message: Message = { ...m, content: await clean(m.content, redactions) };
  if (m.name !== undefined) message.name = await clean(m.name, redactions);
  if (m.toolCalls)
    message.toolCalls = await Promise.all(
      m.toolCalls.map(async (c) => ({
        ...c, // the id stays as the provider gave it: it links the call to its result
        name: await clean(c.name, redactions),
        arguments: await redactJsonText(
          c.arguments,
          (s) => clean(s, redactions),
          (kind) => addCounts(redactions, { [kind]: 1 }),
        ),
      })),
    );
  return { message, redactions };
}

function fence(text: string): string {
  return fenced(text.replace(/\n$/, ''));
}

/**
 * The Markdown block of one record. Every text a model, a tool or a shipped file wrote is in a code
 * block or span: an editor makes a Markdown link active on Ctrl+click, and a `command:` link would run
 * a VS Code command (`workbench.action.terminal.sendSequence` types into a terminal) as the transcript's
 * own links to stored outputs do.
 */
export function renderMarkdown(r: HistoryRecord): string {
  const m = r.message;
  const title = m.role === 'tool' ? `tool result${m.name ? ` (${inlineCode(m.name)})` : ''}` : m.role;
  const meta = [r.turn !== undefined ? `turn ${r.turn}` : '', r.tokens !== undefined ? `${r.tokens} tokens` : '', r.at]
    .filter(Boolean)
    .join(' · ');
  const parts = [`### ${r.index + 1}. ${title}`, `<sub>${meta}</sub>`, ''];
  if (m.content !== '' || m.role === 'tool' || m.role === 'system') parts.push(fence(m.content));
  for (const c of m.toolCalls ?? [])
    parts.push('', `Tool call ${inlineCode(c.name)} (${inlineCode(c.id)}):`, fence(c.arguments));
  const stored = r.masked?.storedAt ?? m.storedAt;
  if (stored) parts.push('', `Full text: [${stored}](${encodeURI(stored)})`);
  return parts.join('\n') + '\n\n';
}

/**
 * Appends an agent session's messages to its history files. One writer per session; each append is
 * one whole-line write to the JSONL (crash-safe, see `StoreWriter.openAppend`) and one block to the Markdown.
 */
export class HistoryWriter {
  private index = 0;
  private constructor(
    readonly session: string,
    readonly paths: { jsonl: string; markdown: string },
    private readonly jsonl: StoreAppendFile,
    private readonly markdown: StoreAppendFile,
    private readonly tokenizer: Tokenizer | undefined,
    private readonly clock: Clock,
  ) {}

  /** Opens (or continues, after a restart) the history of `session`. */
  static async open(
    store: ContextStore,
    session: string,
    options: { tokenizer?: Tokenizer; clock?: Clock } = {},
  ): Promise<HistoryWriter> {
    const paths = store.historyPaths(session);
    const existing = await readJsonl<HistoryLine>(paths.jsonl);
    const isNew = existing.records.length === 0;
    const w = new HistoryWriter(
      session,
      paths,
      await store.writer.openAppend(paths.jsonl),
      await store.writer.openAppend(paths.markdown),
      options.tokenizer,
      options.clock ?? systemClock,
    );
    w.index = existing.records.reduce((n, r) => (isMessageRecord(r) ? Math.max(n, r.index + 1) : n), 0);
    if (isNew && (await w.markdown.size()) === 0)
      await w.markdown.append(`# Session ${session}\n\nFull-fidelity records: ${path.basename(paths.jsonl)}\n\n`);
    return w;
  }

  /** Appends one message (sanitized first). Returns the record as written. */
  async append(message: Message, extra: HistoryAppendExtra = {}): Promise<HistoryRecord> {
    const { message: sanitized, redactions } = await sanitizeMessage(message);
    const record: HistoryRecord = {
      v: 1,
      session: this.session,
      index: this.index,
      at: new Date(this.clock.now()).toISOString(),
      message: sanitized,
    };
    const tokens = extra.tokens ?? this.tokenizer?.countMessage(sanitized);
    if (tokens !== undefined) record.tokens = tokens;
    if (extra.turn !== undefined) record.turn = extra.turn;
    if (extra.masked)
      record.masked = extra.masked.placeholder
        ? { ...extra.masked, placeholder: await clean(extra.masked.placeholder, redactions) }
        : extra.masked;
    if (Object.keys(redactions).length > 0) record.redactions = redactions;
    await this.jsonl.append(JSON.stringify(record) + '\n');
    this.index++; // only once written: a failed append leaves no gap in the indices
    await this.markdown.append(renderMarkdown(record));
    return record;
  }

  /**
   * Records that the message at `index` (already written) is masked from now on: a record with the same
   * index (readers keep the first record of an index as the message) carrying `masked`, and a note in
   * the transcript.
   */
  async appendMasked(index: number, message: Message, masked: MaskedInfo): Promise<HistoryRecord> {
    const { message: clean } = await sanitizeMessage(message);
    const record: HistoryRecord = {
      v: 1,
      session: this.session,
      index,
      at: new Date(this.clock.now()).toISOString(),
      message: clean,
      masked,
    };
    await this.jsonl.append(JSON.stringify(record) + '\n');
    await this.markdown.append(
      `Message ${index + 1} is masked in the context from here on:\n\n${fence(clean.content)}\n\n`,
    );
    return record;
  }

  /**
   * Appends a call's accounting as one whole line, with the same durability as a message; the transcript
   * gets a one-line note. Like every write it is redacted (tool-call ids and model names are the only text in it).
   */
  async appendCall(kind: HistoryCallLine['kind'], call: object, note?: string): Promise<void> {
    const line: HistoryCallLine = {
      v: 1,
      session: this.session,
      kind,
      at: new Date(this.clock.now()).toISOString(),
      call: call as Record<string, unknown>,
    };
    await this.jsonl.append(JSON.stringify(line) + '\n');
    if (note) await this.markdown.append(`<sub>${note}</sub>\n\n`);
  }

  /** Appends the strategy's state (its texts sanitized, as a message's are); the transcript is not touched. */
  async appendState(state: object): Promise<void> {
    const sanitized: Record<string, unknown> = {};
    const redactions: RedactionCounts = {};
    for (const [k, v] of Object.entries(state)) sanitized[k] = typeof v === 'string' ? await clean(v, redactions) : v;
    const line: HistoryStateLine = {
      v: 1,
      session: this.session,
      kind: 'strategy',
      at: new Date(this.clock.now()).toISOString(),
      state: sanitized,
    };
    await this.jsonl.append(JSON.stringify(line) + '\n');
  }

  /** Records that the message at `index` (already written) was not sent and is out of the conversation. */
  async appendSetAside(index: number): Promise<HistorySetAsideLine> {
    const at = new Date(this.clock.now()).toISOString();
    const line: HistorySetAsideLine = { v: 1, session: this.session, kind: 'set-aside', at, index };
    await this.jsonl.append(JSON.stringify(line) + '\n');
    await this.markdown.append(
      `<sub>Message ${index + 1} was not sent (alone over the model's window): it is not part of the conversation.</sub>\n\n`,
    );
    return line;
  }

  async close(): Promise<void> {
    await Promise.all([this.jsonl.close(), this.markdown.close()]);
  }
}

/**
 * The line a summary carries so the agent can search what the summary left out, e.g.
 * `Full history: .context-desk/history/s1.md (JSONL: .context-desk/history/s1.jsonl) - grep it for details the summary left out`.
 */
export function historyPointer(store: ContextStore, session: string): string {
  const p = store.historyPaths(session);
  return `Full history: ${store.displayPath(p.markdown)} (JSONL: ${store.displayPath(p.jsonl)}) - grep it for details the summary left out`;
}

/** A session found in `history/`. */
export interface SessionEntry {
  /** File name without extension (the safe form of the session id). */
  name: string;
  jsonl: string;
  markdown: string;
  bytes: number;
  modifiedMs: number;
  /** Which file it is and in what state (see `historyIdentity`). */
  identity: string;
}

/**
 * A history file's identity: device and inode (a checkout that replaces the file makes another), size
 * and change time in nanoseconds (a command that appends to it or rewrites it in place, keeping the
 * inode, changes them; the change time cannot be set back, unlike the modification time). Undefined
 * when the file is missing.
 */
export async function historyIdentity(file: string): Promise<string | undefined> {
  const st = await fsp.lstat(file, { bigint: true }).catch(() => undefined);
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}` : undefined;
}

/**
 * Why the store's history folder is not its own, or undefined when it is: a cloned repository can ship a
 * store whose `history` is a link to another project's (`/home/me/other/.context-desk/history`), and
 * those sessions would be listed, summarized and resumed as this store's.
 */
async function historyFolderRefusal(store: ContextStore): Promise<string | undefined> {
  const dir = store.folder('history');
  const st = await fsp.lstat(dir).catch(() => undefined);
  if (!st) return undefined;
  if (st.isSymbolicLink())
    return `${store.displayPath(dir)} is a link; sessions are only read from the store's own history folder.`;
  if (!st.isDirectory()) return `${store.displayPath(dir)} is not a folder.`;
  const [real, realRoot] = await Promise.all([fsp.realpath(dir), fsp.realpath(store.root)]).catch(() => ['', '-']);
  // Case apart (macOS and Windows give realpath the case on disk): the folder right under the real root.
  if (real.toLowerCase() !== path.join(realRoot, 'history').toLowerCase())
    return `${store.displayPath(dir)} leads outside the Context Desk folder; its sessions are not read.`;
  return undefined;
}

/** Lists the sessions in the store's history, newest first (none from a history folder that is not the store's). */
export async function listSessions(store: ContextStore): Promise<SessionEntry[]> {
  const dir = store.folder('history');
  if (await historyFolderRefusal(store)) return [];
  const names = (await fsp.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
  const out: SessionEntry[] = [];
  for (const n of names) {
    const jsonl = path.join(dir, n);
    // lstat: a link (a cloned repository can ship one) is not a session of this store.
    // A file with another name (a hard link a command made) may be any file of the user's: not listed.
    const st = await fsp.lstat(jsonl).catch(() => undefined);
    const identity = st?.isFile() && st.nlink === 1 ? await historyIdentity(jsonl) : undefined;
    if (!st?.isFile() || !identity) continue;
    out.push({
      name: n.slice(0, -'.jsonl'.length),
      jsonl,
      markdown: jsonl.replace(/\.jsonl$/, '.md'),
      bytes: st.size,
      modifiedMs: st.mtimeMs,
      identity,
    });
  }
  return out.sort((a, b) => b.modifiedMs - a.modifiedMs || compareText(a.name, b.name));
}

/**
 * The readable transcript of a session (`history/<session>.md`), to open in an editor. It may have come
 * with a cloned repository, and an editor follows a link to whatever it names (`~/.aws/credentials`):
 * a link, something that is not a regular file, a file reached through a linked folder outside the
 * store, and a missing transcript are refused, each with a message that says so.
 */
export async function transcriptFile(store: ContextStore, session: string): Promise<string> {
  const file = store.historyPaths(safeName(session)).markdown;
  const shown = store.displayPath(file);
  const st = await fsp.lstat(file).catch(() => undefined);
  if (!st) throw new Error(`${shown} does not exist: this session has no transcript (yet).`);
  if (st.isSymbolicLink())
    throw new Error(`${shown} is a link; a transcript is only opened from a file of the store, not followed.`);
  if (!st.isFile()) throw new Error(`${shown} is not a regular file; it is not opened.`);
  // An editor shows, and saves into, the file whatever its other names are (`ln ~/.bashrc …/s.md`).
  if (st.nlink > 1)
    throw new Error(
      `${shown} has ${st.nlink} names (a hard link), so it may be a file from elsewhere; it is not opened. Delete it (the other names keep their content).`,
    );
  const [real, realRoot] = await Promise.all([fsp.realpath(file), fsp.realpath(store.root)]);
  const rel = path.relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw new Error(`${shown} leads outside the Context Desk folder through a link; it is not opened.`);
  return file;
}

/** A session file larger than this is not read whole to resume it (replay and grep still read it). */
export const MAX_RESUME_BYTES = MAX_JSONL_BYTES;

/**
 * Loads one session (by id or file name) to resume it: every complete record; a torn last line is
 * reported, not fatal. The file may have come with a cloned repository: a link
 * (possibly to a file outside the store) or something that is not a regular file is refused, and so
 * is a file too large to hold in memory, each with a message that says so.
 */
export async function loadSession(store: ContextStore, session: string): Promise<JsonlReadResult<HistoryLine>> {
  const file = store.historyPaths(safeName(session)).jsonl;
  const refused = await historyFolderRefusal(store);
  if (refused) throw new Error(refused);
  const st = await fsp.lstat(file).catch(() => undefined);
  if (!st) return { records: [], badLines: [] };
  if (st.isSymbolicLink())
    throw new Error(`${store.displayPath(file)} is a link; a session is only resumed from a file of the store.`);
  if (!st.isFile()) throw new Error(`${store.displayPath(file)} is not a regular file; it cannot be resumed.`);
  if (st.size > MAX_RESUME_BYTES)
    throw new Error(
      `${store.displayPath(file)} is ${(st.size / 1024 / 1024).toFixed(0)} MB, over the ${MAX_RESUME_BYTES / 1024 / 1024} MB a session can be resumed from; read it with grep or context-desk replay instead.`,
    );
  // Checked on the open file: a hard link a command made would put another file's text in the model's context.
  return readJsonl<HistoryLine>(file, MAX_JSONL_BYTES, { singleName: true });
}
