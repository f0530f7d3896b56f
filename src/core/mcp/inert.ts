// Server-controlled text (server and tool names, descriptions, titles, status messages, stderr) made
// inert wherever it lands: a terminal (no escape sequences), Markdown (no headings, links, HTML), the
// agent's prompt (a name cannot break out of its line or pose as an instruction).

import { fenced } from '../markdown-fence';
import { clipRedacted, redactSecretsSync } from '../store/sanitize/secrets';
import { stripControls } from '../terminal-controls';
import { trimTrailing } from '../trim';

export { stripControls };

/**
 * One line of Markdown that renders as the text: no heading or list (never at a line start: newlines
 * are collapsed), no link, image, autolink, HTML, entity or code span. Emphasis characters stay as
 * they are (`read_file` must read as itself to an agent reading the raw file; emphasis is harmless).
 */
export function mdInline(text: string, max = Infinity): string {
  // Redacted first: on one line and escaped (`postgres\://…`, a YAML block's lines joined) no rule reads
  // the secret, and the store writer's pass over the file came too late.
  let s = stripControls(redactSecretsSync(stripControls(text)).text, true);
  if (s.length > max) s = clipRedacted(s, max - 1).trimEnd() + '…';
  return s
    .replace(/[\\`[\]<>&]/g, (c) => `\\${c}`)
    .replace(/:\/\//g, '\\://')
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\\.`);
}

/** A fenced block that shows the text verbatim (controls stripped); its fence is longer than any backtick run inside. */
export function mdBlock(text: string): string {
  return fenced(trimTrailing(stripControls(text), '\n'));
}

const TIDY = /^[A-Za-z0-9][A-Za-z0-9_.:@/+-]{0,127}$/;

/** A server or tool name in the agent's prompt: bare when tidy, else a JSON string (quotes, escapes, capped). */
export function promptName(name: string): string {
  if (TIDY.test(name)) return name;
  const capped = name.length > 200 ? `${clipRedacted(name, 200)}…` : name;
  return JSON.stringify(capped.replace(/[\u202a-\u202e\u2066-\u2069]/g, ''));
}

/** Server text shown on one terminal line (controls stripped, whitespace collapsed). */
export function terminalText(text: string): string {
  return stripControls(text, true);
}
