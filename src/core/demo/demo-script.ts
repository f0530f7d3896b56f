// The demo model's script: a guided tour of a small task that works in any workspace. Each reply is
// chosen from the conversation the strategy prepared (the demo keeps no state of its own): the step
// marker of its last action says where the tour is, earlier tool results supply real file names.
import type { Message, ToolCall } from '../messages';
import { parseMaskPlaceholder } from '../strategies/placeholder';
import { DEMO_BUILD_LINES, DEMO_BUILD_TOOL, DEMO_ERROR_LINE } from './demo-build-tool';
import { formatCount } from '../numbers';

export interface DemoReply {
  text: string;
  toolCalls: ToolCall[];
}

/** The demo session's context settings: a short masking window and no prompt cache, so masking shows soon. */
export const DEMO_MASKING_WINDOW = 3;

const STEPS = 9;
const MARK = (n: number): string => `**Demo step ${n}/${STEPS}.** `;
const MARK_RE = /^\*\*Demo step (\d+)\/\d+\.\*\* /;
export const DEMO_DONE = '**Demo complete.**';

interface TourFacts {
  /** Files from the first listing of this task (empty when it is masked or failed). */
  files: string[];
  /** Workspace-relative path of the stored build log. */
  buildLog?: string;
  /** The log line the error grep found. */
  errorLine: number;
  /** The transcript named by the system prompt. */
  transcript?: string;
}

type Step = (f: TourFacts) => { text: string; call?: { name: string; arguments: Record<string, unknown> } } | undefined;

const STEP_LIST: Step[] = [
  () => ({
    text:
      "Hi! I'm the **demo model**: a script inside Context Desk, not an AI, and nothing leaves this machine. " +
      `I'll walk through a small task so you can watch the context stay small (this demo masks observations older than ${DEMO_MASKING_WINDOW} turns). First, the workspace:`,
    call: { name: 'list_dir', arguments: { path: '.' } },
  }),
  (f) =>
    f.files[0]
      ? {
          text: `Reading ${code(f.files[0])}.`,
          call: { name: 'read_file', arguments: { path: f.files[0], limit: 40 } },
        }
      : { text: 'The folder has no files to read; searching it instead.', call: grepWorkspace() },
  () => ({
    text: `Now a (simulated) noisy build. Its ${formatCount(DEMO_BUILD_LINES)}-line log is too long for the context: Context Desk stores it in a file, and I get a preview plus one line naming the file.`,
    call: { name: DEMO_BUILD_TOOL, arguments: {} },
  }),
  (f) =>
    f.buildLog
      ? {
          text: 'Searching the stored log for the error, instead of reading all of it:',
          call: { name: 'grep', arguments: { pattern: 'error', path: f.buildLog } },
        }
      : undefined,
  (f) =>
    f.buildLog
      ? {
          text: `Reading only the lines around it (line ${f.errorLine}):`,
          call: { name: 'read_file', arguments: { path: f.buildLog, offset: Math.max(1, f.errorLine - 3), limit: 7 } },
        }
      : undefined,
  (f) =>
    f.buildLog
      ? {
          text: 'How many warnings are there? A grep capped at five matches answers without flooding the context.',
          call: { name: 'grep', arguments: { pattern: 'warning', path: f.buildLog, max_results: 5 } },
        }
      : undefined,
  (f) =>
    f.buildLog
      ? { text: 'And the end of the log:', call: { name: 'tail', arguments: { path: f.buildLog, lines: 3 } } }
      : undefined,
  (f) =>
    f.buildLog
      ? {
          text: 'Everything lives in files. This is where the stored outputs of this session are:',
          call: { name: 'list_dir', arguments: { path: f.buildLog.slice(0, f.buildLog.lastIndexOf('/')) || '.' } },
        }
      : undefined,
  (f) =>
    f.transcript
      ? {
          text: 'The conversation itself is written to a transcript too; its last lines:',
          call: { name: 'tail', arguments: { path: f.transcript, lines: 6 } },
        }
      : undefined,
];

/**
 * A workspace name as an inline code span. Names come from the workspace (possibly hostile): a fence
 * longer than any run of backticks in them keeps the whole name literal, so no Markdown or HTML in a
 * file name is ever interpreted.
 */
export function code(name: string): string {
  const longest = Math.max(0, ...(name.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${name.replace(/[\r\n]/g, ' ')} ${fence}`;
}

function grepWorkspace(): { name: string; arguments: Record<string, unknown> } {
  return { name: 'grep', arguments: { pattern: 'TODO|FIXME', path: '.', max_results: 20 } };
}

function finalText(f: TourFacts): string {
  return [
    `${DEMO_DONE} What you just watched:`,
    '',
    f.buildLog
      ? `- The build log (${formatCount(DEMO_BUILD_LINES)} lines) never entered the context whole: it was stored at ${code(f.buildLog)}, I saw a preview and its path, and read only the lines I needed (the error is on line ${f.errorLine}).`
      : '- The build log could not be stored here, so it stayed in the context whole.',
    `- Observations older than ${DEMO_MASKING_WINDOW} turns are now **masked**: the model sees a one-line placeholder. Their cards say so; **open** shows the full text from its file (short outputs are kept in a file too, so every mask can be undone).`,
    '- The meter under the conversation counts the tokens of every call against the window; expand it for the details and the plot of tokens sent against raw history.',
    '',
    'This was a script, not an AI. To talk to a real model, choose **Set up a model** (the gear in the title bar of this view).',
  ].join('\n');
}

const FOLLOW_UP =
  "I'm the demo script, so I can only give the tour (start a new chat to watch it again). To ask a real model, choose **Set up a model** (the gear in the title bar of this view).";

/** The tool results and the facts they give, for the task that started at the last person message. */
function facts(messages: readonly Message[], from: number): TourFacts {
  const f: TourFacts = { files: [], errorLine: DEMO_ERROR_LINE };
  const transcript = /written to (\S+\.md)/.exec(messages.find((m) => m.role === 'system')?.content ?? '')?.[1];
  if (transcript) f.transcript = transcript;
  for (const m of messages.slice(from)) {
    if (m.role !== 'tool') continue;
    if (m.name === DEMO_BUILD_TOOL && m.storedAt) f.buildLog = m.storedAt;
    if (parseMaskPlaceholder(m.content)) continue;
    if (m.name === 'list_dir' && f.files.length === 0) f.files = listedFiles(m.content);
    const hit = m.name === 'grep' ? /:(\d+): .*error/.exec(m.content) : null;
    if (hit) f.errorLine = Number(hit[1]);
  }
  return f;
}

/** Plain files of a list_dir result (folders end with "/", links with "@"), text-like names first. */
function listedFiles(listing: string): string[] {
  const names = listing
    .split('\n')
    .slice(1)
    .filter((n) => n !== '' && !n.endsWith('/') && !n.endsWith('@') && !n.startsWith('… '));
  const texty = (n: string): number => (/\.(md|txt|py|ts|js|json|sh|c|go|rs|java|toml|ya?ml)$/i.test(n) ? 0 : 1);
  return names.sort((a, b) => texty(a) - texty(b));
}

/** The next reply of the tour for this conversation. */
export function nextDemoReply(messages: readonly Message[]): DemoReply {
  let start = -1;
  for (let i = messages.length - 1; i >= 0 && start === -1; i--)
    if (messages[i]!.role === 'user' && messages[i]!.origin !== 'environment') start = i;
  const before = messages.slice(0, Math.max(0, start));
  const calls = messages.filter((m) => m.role === 'assistant').length;
  if (before.some((m) => m.role === 'assistant' && m.content.startsWith(DEMO_DONE)))
    return { text: FOLLOW_UP, toolCalls: [] };
  const lastAction = [...messages.slice(start + 1)].reverse().find((m) => m.role === 'assistant');
  const done = Number(MARK_RE.exec(lastAction?.content ?? '')?.[1] ?? 0);
  const f = facts(messages, start + 1);
  for (let n = done + 1; n <= STEPS; n++) {
    const step = STEP_LIST[n - 1]!(f);
    if (!step) continue;
    const toolCalls = step.call
      ? [{ id: `demo_${calls + 1}`, name: step.call.name, arguments: JSON.stringify(step.call.arguments) }]
      : [];
    return { text: MARK(n) + step.text, toolCalls };
  }
  return { text: finalText(f), toolCalls: [] };
}
