// Aider's `.aider.chat.history.md`: every session opens with `# aider chat started at <time>`; what the
// person typed is on `#### ` lines, Aider's own output (confirmations, commits, token reports, command
// output) on `> ` lines, and the model's replies are the plain text in between. Each session is a run;
// each reply is one call over the session's exchanges so far. The file holds what was shown, not the
// prompt: Aider's system prompt, repo map and the files added to the chat were sent but are not in it.
// Every call ends with a `> Tokens: N sent, M received.` line. When an edit fails to apply, lints or
// tests with errors, Aider calls the model again with the error it showed (a reflection) and no new
// `####` line: a reply after a `Tokens` line is a call of its own, sent the `>` text shown in between.
// The `Tokens` line is the call's recorded usage when its figures are exact (Aider rounds past 1,000).
// A reply cut at the output limit and continued (assistant prefill) is several calls written as one reply
// with one `Tokens` line (their sums): the file does not mark the joins, so it counts as one call.
import { modelName } from '../model-name';
import type { Message } from '../../messages';
import { TrajectoryBuilder } from '../builder';
import type { ImportedRun, Importer } from '../importer';
import { plural } from '../notes';
import type { RecordedUsage } from '../types';

const SESSION = /^# aider chat started at /;
const MESSAGE_COMMANDS = new Set(['ask', 'code', 'architect', 'context']);
/** `/clear` empties the chat history; `/reset` also drops the files. */
const CLEARING_COMMANDS = new Set(['clear', 'reset']);
/** Aider's banner line naming the model a session starts with. */
const MODEL_LINE = /^> (?:Main model|Model): (\S+)/;

/**
 * Aider's report after each model call (`> Tokens: 1.2k sent, 161 received. Cost: ...`): sent, then cache
 * writes and hits when the provider reported them, then received.
 */
const TOKENS = /^> ?Tokens: (\S+) sent(?:, (\S+) cache write)?(?:, (\S+) cache hit)?, (\S+) received/;

/**
 * The usage a `Tokens` line reports, or undefined when it is not exact. Aider prints a count under 1,000
 * as is and rounds the rest (`1.2k`, `12k`: up to 500 tokens off), so only plain counts are used. With
 * cache figures, whether `sent` includes them depends on the provider's usage shape: not used either.
 */
function reported(line: string): RecordedUsage | 'rounded' | 'cache' | undefined {
  const m = TOKENS.exec(line);
  if (!m) return undefined;
  const [, sent, write, hit, received] = m;
  const exact = (t: string) => /^\d+$/.test(t);
  const outputTokens = exact(received!) ? Number(received) : undefined;
  if (write !== undefined || hit !== undefined) return 'cache';
  if (!exact(sent!) || outputTokens === undefined) return 'rounded';
  return { inputTokens: Number(sent), outputTokens };
}

function isAider(text: string): boolean {
  return text.split('\n', 50).some((l) => SESSION.test(l));
}

/** A line of what the person typed: `#### text` (Aider adds two trailing spaces for Markdown breaks). */
function userLine(line: string): string | undefined {
  if (line === '####' || line.startsWith('#### ')) return line.slice(5).replace(/ {2}$/, '');
  return undefined;
}

export const aider: Importer = {
  name: 'Aider',
  detect: (input) => input.kind === 'text' && isAider(input.text),
  read(input, notes) {
    const text = input.kind === 'text' ? input.text : '';
    const runs: ImportedRun[] = [];
    let b: TrajectoryBuilder | undefined;
    let user: string[] = [];
    let reply: string[] = [];
    /** The `>` lines shown since the last call's `Tokens` report: sent back if the model is called again. */
    let reflected: string[] | undefined;
    /** The reply being read answers a reflection (its input may be empty). */
    let again = false;
    /** The session's model, from Aider's banner (`> Main model: NAME with ...`, `> Model: NAME ...`). */
    let model: string | undefined;
    const flushUser = () => {
      let t = user.join('\n').trim();
      user = [];
      // In-chat commands are Aider's own (/add, /model, /run), except those that carry a message.
      const command = /^\/(\S+)\s*/.exec(t);
      if (command && CLEARING_COMMANDS.has(command[1]!) && b) {
        // The chat history is emptied: later replies are sent without what came before.
        b.reset();
        notes.add('aider-clear', (n) => `${plural(n, '/clear or /reset')}: later calls do not send what came before`);
      }
      if (command) t = MESSAGE_COMMANDS.has(command[1]!) ? t.slice(command[0].length) : '';
      if (t !== '' && b) b.push({ role: 'user', content: t, origin: 'person' });
    };
    /** Returns the call the reply was, if it was one. */
    const flushReply = (): number | undefined => {
      const t = reply.join('\n').trim();
      reply = [];
      let call: number | undefined;
      if (t !== '' && b && (b.last?.role === 'user' || again))
        call = b.call(b.push({ role: 'assistant', content: t, origin: 'agent' } satisfies Message));
      again = false;
      return call;
    };
    const record = (call: number | undefined, line: string) => {
      const usage = reported(line);
      if (call === undefined || usage === undefined || !b) return;
      if (usage === 'rounded' || usage === 'cache') {
        notes.add(`aider-${usage}`, (n) =>
          usage === 'rounded'
            ? `${plural(n, 'call')} with usage Aider rounded (1.2k, 12k sent or received): not used as recorded usage (a rounded figure is not a token count)`
            : `${plural(n, 'call')} with cache figures in Aider's report: not used as recorded usage (whether "sent" includes them depends on the provider)`,
        );
        return;
      }
      b.calls[call]!.recorded = usage;
    };
    const reflect = () => {
      const t = (reflected ?? []).join('\n').trim();
      reflected = undefined;
      again = true;
      if (t !== '' && b) b.push({ role: 'user', content: t, origin: 'environment' });
      notes.add(
        'aider-reflection',
        (n) =>
          `${plural(n, 'reflection')} (Aider called the model again with the error it showed): each is a call of its own, sent the text shown before it`,
      );
    };
    const endSession = () => {
      flushUser();
      flushReply();
      if (b && b.calls.length > 0)
        runs.push({ format: 'aider', ...(model ? { model } : {}), messages: b.messages, calls: b.calls });
    };
    for (const line of text.split(/\r?\n/)) {
      if (SESSION.test(line)) {
        endSession();
        b = new TrajectoryBuilder();
        reflected = undefined;
        model = undefined;
        continue;
      }
      const u = userLine(line);
      if (u !== undefined) {
        flushReply();
        reflected = undefined;
        user.push(u);
        continue;
      }
      if (user.length > 0) flushUser();
      if (line.startsWith('>')) {
        // Aider's own output: shown to the person, not sent as such (unless it is reflected).
        model ??= modelName(MODEL_LINE.exec(line)?.[1]);
        if (TOKENS.test(line)) {
          record(flushReply(), line);
          reflected = [];
        } else reflected?.push(line.replace(/^> ?/, '').replace(/ {2}$/, ''));
        continue;
      }
      if (reflected && line.trim() !== '') reflect();
      reply.push(line);
    }
    endSession();
    notes.say(
      "Aider's chat history holds what was shown, not the prompt: its system prompt, repo map and added files are not in it, so raw counts are a lower bound " +
        '(and Aider summarizes older exchanges once the history passes its limit, which the file does not show: there, old turns are counted in full). ' +
        'A reply that hit the output limit and that Aider had the model continue is written as one reply with one Tokens line (the calls summed): it counts as one call, so calls are a lower bound too',
    );
    return runs;
  },
};
