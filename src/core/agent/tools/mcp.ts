// mcp_describe and mcp_call as agent tools, labelled for the user: the server, the tool and the
// arguments on the tool card (pretty, secrets redacted) and in the approval (exact); names from a server are
// shown with control and bidirectional characters made visible, so a name cannot pose as another.
import {
  MCP_CALL_TOOL,
  MCP_DESCRIBE_TOOL,
  mcpCall,
  mcpDescribe,
  type McpApprovalPort,
  type McpToolHost,
} from '../../mcp/agent-tools';
import { jsonOrNote } from '../../json-depth';
import { redactJsonText } from '../../store/sanitize/json-values';
import { redactSecrets } from '../../store/sanitize/secrets';
import { lookAlikeText } from './look-alike';
import type { AgentTool } from '../tool-registry';

// C0/C1 controls, zero-width and blank-looking characters, bidi marks/embeddings/overrides/isolates,
// line and paragraph separators, the BOM, interlinear annotations and the invisible tag characters;
// then every other format character and default-ignorable one (musical and shorthand format controls
// draw nothing either), but the emoji variation selectors, which only pick how an emoji is drawn.
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]|\u034f|\u17b4|\u17b5|(?![\ufe0e\ufe0f])[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** A server or tool name as a person should see it: invisible and direction-changing characters escaped. */
export function visibleName(name: unknown): string {
  const s = typeof name === 'string' ? name : jsonOrNote(name ?? '');
  const shown = visibleLine(s);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
}

/**
 * Text a person approves (a command, arguments): every invisible or direction-changing character but
 * newline and tab shown as `\u{…}`, so what is read is what runs ("Trojan Source" cannot disguise it).
 */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (c) => (c === '\n' || c === '\t' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`));
}

/**
 * One line a person reads (an approval's title): every invisible or direction-changing character shown as
 * `\u{…}`, newline and tab too, so a path the model chose cannot push the rest of the line out of view.
 */
export function visibleLine(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** How many characters `visibleText` shows as `\u{…}`. */
export function invisibleCount(text: string): number {
  let n = 0;
  for (const m of text.matchAll(INVISIBLE)) if (m[0] !== '\n' && m[0] !== '\t') n++;
  return n;
}

// Spaces of every width (the plain space, no-break, en/em, ideographic...), tabs, and the braille blank,
// a letter to a shell (`npm test⠀⠀⠀…|| curl … | sh` runs the tail) that draws as a space.
const BLANK = '[ \\t\\u00a0\\u2000-\\u200a\\u202f\\u205f\\u2800\\u3000]';
const BLANK_RUN = new RegExp(`${BLANK}{32,}`, 'g');
const BLANK_LINES = new RegExp(`\\n(?:${BLANK}*\\n){3,}`, 'g');

/**
 * Text a person approves, with padding that could push part of it out of sight (three or more blank
 * lines, 32 or more blank characters: `npm test` then 60 newlines then `curl … | sh`) replaced by a
 * marker that says how much there was. Apply after `visibleText`.
 */
export function revealPadding(text: string): string {
  return text
    .replace(BLANK_LINES, (m) => `\n[… ${m.split('\n').length - 2} blank lines …]\n`)
    .replace(BLANK_RUN, (m) => ` [… ${m.length} blank characters …] `);
}

/** `server › tool`. */
export function mcpCallTitle(server: unknown, tool: unknown): string {
  return `${visibleName(server)} › ${visibleName(tool)}`;
}

/** Arguments as pretty JSON, exactly as the call gets them. */
export function exactArguments(args: unknown): string {
  let value: unknown = args ?? {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      // shown as the model sent it
    }
  }
  return typeof value === 'string' ? value : jsonOrNote(value, 2);
}

/**
 * Arguments as pretty JSON with secrets redacted (for the tool card, which is stored; the call gets the
 * real ones). A value under a secret-named key (`secret_value`, `api_key`) is masked whole, as the store
 * masks a tool call's arguments: a plain word there (`"password": "hunter2"`) matches no rule as text.
 */
export async function displayArguments(args: unknown): Promise<string> {
  const exact = exactArguments(args);
  const redact = async (s: string) => (await redactSecrets(s)).text;
  const masked = await redactJsonText(exact, redact, () => undefined);
  if (masked === exact) return redact(exact);
  // Changed JSON comes back compact: pretty again, then the whole text too (a rule may need two values).
  // Text that was no JSON came back redacted as text.
  let value: unknown;
  try {
    value = JSON.parse(masked);
  } catch {
    return masked;
  }
  return redact(jsonOrNote(value, 2));
}

/**
 * Arguments as an approval shows them: exact, never redacted. A redaction rule replaces text around a
 * secret too (`DB_PASSWORD=\`curl … | sh\` npm test` reads `DB_PASSWORD=[REDACTED:env-secret]`), so a
 * redacted approval could hide what runs. An approval is never stored; `secret` says it holds one.
 */
export async function approvalArguments(args: unknown): Promise<{ text: string; secret: boolean }> {
  const text = exactArguments(args);
  return { text, secret: (await redactSecrets(text)).text !== text };
}

/**
 * An MCP call's approval title: the tool, that its arguments hold what looks like a secret, and
 * look-alike letters in its names or arguments (`"url": "https://gіthub.com/…"` with a Cyrillic і), and
 * the existing workspace files look-alike paths in its arguments imitate (imitated-path.ts).
 */
export function mcpApprovalTitle(
  server: unknown,
  tool: unknown,
  args: string,
  secret: boolean,
  imitated: string[] = [],
): string {
  const lookAlike = lookAlikeText(`${visibleName(server)} ${visibleName(tool)} ${args}`);
  return (
    `Call ${mcpCallTitle(server, tool)}?` +
    (secret ? ' Its arguments hold what looks like a secret, shown as it will be sent.' : '') +
    (imitated.length > 0 ? ` Careful: ${imitated.slice(0, 3).join('; ')}.` : '') +
    (lookAlike ? ` Careful: ${lookAlike}.` : '')
  );
}

export function mcpAgentTools(host: McpToolHost, approve?: McpApprovalPort): AgentTool[] {
  return [
    {
      ...MCP_DESCRIBE_TOOL,
      run: (args) => mcpDescribe(host, args),
      describe: (args) => ({ title: mcpCallTitle(args.server, args.tool) }),
    },
    {
      ...MCP_CALL_TOOL,
      run: (args, ctx) => mcpCall(host, args, ctx.signal, approve),
      describe: async (args) => ({
        title: mcpCallTitle(args.server, args.tool),
        arguments: await displayArguments(args.arguments),
      }),
    },
  ];
}
