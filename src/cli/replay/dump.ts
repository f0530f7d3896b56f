// `--dump-contexts DIR`: the exact messages of every call, per trajectory and strategy, as JSON lines
// (`DIR/<trajectory>/<strategy>.jsonl`, one `{"call": n, "messages": [...]}` per call), so anyone can
// read what a strategy would have sent. Trajectory ids are paths; each becomes one safe folder name.
// Secrets in the logs are redacted on the way to disk, like everything else Context Desk writes.
import { constants, type WriteStream } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Message } from '../../core/messages';
import { UsageError } from '../command';
import { refuseLinks } from '../output-path';
import type { ReplayHooks, StrategyName } from '../../core/replay/replay';
import { safeName } from '../../core/store/names';
import { redactJsonText } from '../../core/store/sanitize/json-values';
import { redactSecrets } from '../../core/store/sanitize/secrets';
import type { Trajectory } from '../../core/trajectories';

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text))
    await new Promise<void>((resolve, reject) => {
      stream.once('drain', resolve);
      stream.once('error', reject);
    });
}

export class ContextDump {
  /** Redacted copies, one per message object: history repeats in every call, redaction runs once. */
  private readonly clean = new WeakMap<Message, Promise<Message>>();
  private readonly folders = new Map<string, string>();

  private constructor(private readonly dir: string) {}

  /** The dump into `dir` (created if missing); a link there is refused before anything is replayed. */
  static async open(dir: string): Promise<ContextDump> {
    const dump = new ContextDump(dir);
    await dump.checkRoot();
    return dump;
  }

  /**
   * The folder the user named, created if missing; refused when it is a link (one a cloned repository
   * planted where the dump should go would send the files elsewhere): name the real folder instead.
   */
  private async checkRoot(): Promise<void> {
    await refuseLinks('--dump-contexts', this.dir);
    // resolve() drops a trailing slash, which would make lstat follow the link.
    const dir = resolve(this.dir);
    await mkdir(dir, { recursive: true });
    if (!(await lstat(dir)).isDirectory())
      throw new UsageError(`--dump-contexts ${this.dir} is a link or not a folder: name the real folder`);
  }

  private redact(m: Message): Promise<Message> {
    let p = this.clean.get(m);
    if (!p) {
      p = (async () => {
        const text = async (s: string): Promise<string> => (await redactSecrets(s)).text;
        // Every string field (a tool's name, a call id, a stored path), not only the content: this
        // file is written as it is, not through the store writer. Redaction is deterministic, so a
        // call and its result keep one id.
        const out = { ...m } as Message & Record<string, unknown>;
        for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = await text(v);
        // Arguments as the history writes them: a value under a secret-named key goes whole
        // (`{"secret_value": "…"}` of a tool that sets a secret), which text alone does not say.
        if (m.toolCalls)
          out.toolCalls = await Promise.all(
            m.toolCalls.map(async (c) => ({
              ...c,
              id: await text(c.id),
              name: await text(c.name),
              arguments: await redactJsonText(c.arguments, text, () => undefined),
            })),
          );
        return out;
      })();
      this.clean.set(m, p);
    }
    return p;
  }

  /** The folder of a trajectory: its id made one safe path segment (unique: a hash is added when changed). */
  private async folder(id: string): Promise<string> {
    let f = this.folders.get(id);
    if (f === undefined) {
      f = join(this.dir, safeName(id, 120));
      await mkdir(f).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      // Never write through a link planted where the folder should be.
      if (!(await lstat(f)).isDirectory()) throw new Error(`${f} is not a folder`);
      this.folders.set(id, f);
    }
    return f;
  }

  /** Hooks that write one strategy's calls for one trajectory. */
  async hooks(t: Trajectory, strategy: StrategyName): Promise<ReplayHooks & { done: () => Promise<void> }> {
    const file = join(await this.folder(t.id), `${strategy}.jsonl`);
    const fh = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
    const stream = fh.createWriteStream();
    return {
      onContext: async (call, messages) => {
        const clean = await Promise.all(messages.map((m) => this.redact(m)));
        await write(stream, JSON.stringify({ call, messages: clean }) + '\n');
      },
      done: async () => {
        await new Promise<void>((resolve, reject) => {
          stream.once('close', resolve);
          stream.once('error', reject);
          stream.end();
        });
      },
    };
  }
}
