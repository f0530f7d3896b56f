// The text of the files the sync writes: one JSON per tool, SERVER.md per server, INDEX.md for all.
// Descriptions can be huge (a hostile server sent 5 MB): INDEX.md only ever carries a capped summary.
// Every server-controlled string is escaped where it lands (inert.ts): one-line text is Markdown-escaped,
// multi-line text (messages with stderr, instructions) goes into fenced blocks.
import { mdBlock, mdInline, stripControls } from './inert';
import { clipRedacted, redactSecretsSync } from '../store/sanitize/secrets';
import type { McpServerState, McpToolDescription, McpToolEntry } from './types';

/** The most characters of a description INDEX.md shows for one tool. */
export const SUMMARY_CHARS = 120;
/** How much of a description is read for its summary. */
const SUMMARY_HEAD = 64 * 1024;
/** Descriptions longer than this are flagged in the per-tool JSON with their size. */
export const LARGE_DESCRIPTION_CHARS = 64 * 1024;

/** First sentence (or line) of a description, whitespace collapsed, capped at SUMMARY_CHARS. */
export function summarize(description: string | undefined): string {
  if (!description) return '';
  // Controls out and redacted before its lines are joined (a YAML block on one line is no block); a head far past what a
  // summary keeps bounds the work on a huge description.
  const redacted = redactSecretsSync(stripControls(description.slice(0, SUMMARY_HEAD))).text;
  const head = clipRedacted(redacted, SUMMARY_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(head)?.[1] ?? head;
  return sentence.length > SUMMARY_CHARS ? sentence.slice(0, SUMMARY_CHARS - 1).trimEnd() + '…' : sentence;
}

/** The per-tool JSON file: what the server listed, plus size notes and a schema problem if any. */
export function renderToolJson(tool: McpToolDescription, entry: Pick<McpToolEntry, 'inputSchemaError'>): string {
  return JSON.stringify(toolJsonValue(tool, entry), null, 2) + '\n';
}

/** The value of the per-tool JSON file (JSON escapes control characters; the store writer redacts every string). */
export function toolJsonValue(
  tool: McpToolDescription,
  entry: Pick<McpToolEntry, 'inputSchemaError'>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { name: tool.name };
  if (tool.title !== undefined) out.title = tool.title;
  out.description = tool.description ?? '';
  const chars = (tool.description ?? '').length;
  if (chars > LARGE_DESCRIPTION_CHARS)
    out.descriptionSize = `${chars} characters (very large; INDEX.md shows only a summary)`;
  out.inputSchema = tool.inputSchema ?? null;
  if (entry.inputSchemaError) out.inputSchemaError = entry.inputSchemaError;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}

function iso(ms: number | undefined): string {
  return ms === undefined ? 'never' : new Date(ms).toISOString();
}

/** SERVER.md: status, last sync, server name/version/instructions; for problems the message and the fix. */
export function renderServerMd(s: McpServerState): string {
  const lines = [
    `# MCP server: ${mdInline(s.name, 200)}`,
    '',
    `- Status: ${s.status}`,
    `- Last sync: ${iso(s.lastSync)}`,
  ];
  lines.push(`- Transport: ${s.transport}`, `- Defined in: ${mdInline(s.source)}`);
  if (s.serverInfo) lines.push(`- Server: ${mdInline(s.serverInfo.name, 200)} ${mdInline(s.serverInfo.version, 100)}`);
  lines.push(`- Tools: ${s.tools.length}`);
  if (s.message) lines.push('', '## Problem', '', mdBlock(s.message));
  if (s.fix) lines.push('', '## How to fix it', '', mdBlock(s.fix));
  if (s.status === 'needs-auth')
    lines.push(
      '',
      'Tell the user this server needs them to sign in; its tools exist but cannot be listed or called until then.',
    );
  const broken = s.tools.filter((t) => t.inputSchemaError);
  if (broken.length > 0) {
    lines.push('', '## Tools with an invalid input schema (calls are refused)', '');
    for (const t of broken) lines.push(`- ${mdInline(t.name, 200)}: ${mdInline(t.inputSchemaError ?? '', 500)}`);
  }
  if (s.instructions)
    lines.push(
      '',
      '## Instructions from the server',
      '',
      mdBlock(clipRedacted(stripControls(s.instructions), 16 * 1024)),
    );
  if (s.tools.length > 0) {
    lines.push(
      '',
      '## Tools',
      '',
      'One JSON file per tool in this folder (name, title, description, inputSchema, outputSchema, annotations).',
      '',
    );
    for (const t of s.tools) lines.push(`- ${mdInline(t.name, 200)} -> ${t.fileName}`);
  }
  return lines.join('\n') + '\n';
}

/** INDEX.md: every server with its status and tool names, one line per tool with a capped summary. */
export function renderIndexMd(servers: readonly McpServerState[]): string {
  const lines = [
    '# MCP tools',
    '',
    "One folder per server. Read `<server>/<tool>.json` for a tool's full description and input schema, `<server>/SERVER.md` for its status.",
  ];
  for (const s of servers) {
    lines.push('', `## ${mdInline(s.name, 200)} (${s.status}) -> ${s.folderName}/`);
    if (s.status !== 'connected' && s.message)
      lines.push(`${mdInline(s.message, 300)}${s.fix ? ` Fix: ${mdInline(s.fix, 300)}` : ''}`);
    for (const t of s.tools)
      lines.push(
        `- ${mdInline(t.name, 200)}${t.summary ? `: ${mdInline(t.summary)}` : ''}${t.inputSchemaError ? ' (invalid input schema)' : ''}`,
      );
  }
  return lines.join('\n') + '\n';
}
