// The prompt that asks before a workspace's MCP servers start: each server with what starting it does
// (core/mcp/start-description.ts). VS Code cuts a notification's text after 1,000 characters, so Start is
// offered in the notification only when the whole of every description fits there; otherwise the
// notification offers Review…, a modal dialog whose detail lists every server in full, and Start is there.
import { visibleName, visibleText } from '../../core/agent/tools/mcp';
import { describeStart, whatStartingDoes } from '../../core/mcp/start-description';
import type { McpServerConfig } from '../../core/mcp/types';

/** VS Code shows at most this much of a notification's message (NotificationViewItem.MAX_MESSAGE_LENGTH). */
export const NOTIFICATION_MAX = 1000;
/** How much of a program line or URL the review dialog shows. */
const REVIEW_MAIN = 2000;

export const START = 'Start';
export const REVIEW = 'Review…';
export const NOT_NOW = 'Not Now';

export interface ConsentPrompt {
  /** The notification's text. */
  message: string;
  /** Whether `message` describes every server whole: then Start is offered in the notification itself. */
  inline: boolean;
  /** The modal dialog that lists every server (the only place Start is offered when not `inline`). */
  review: { message: string; detail: string };
}

const trust = (n: number): string =>
  `Start ${n === 1 ? 'it' : 'them'} only if you trust whoever wrote this configuration.`;

export function consentPrompt(configs: readonly McpServerConfig[], relative: (file: string) => string): ConsentPrompt {
  const where = (c: McpServerConfig): string => `"${visibleName(c.name)}" (${visibleText(relative(c.source))})`;
  const n = configs.length;
  const full = `Context Desk: this workspace defines MCP servers that have not been allowed to start: ${configs
    .map((c) => `${where(c)} ${whatStartingDoes(c)}`)
    .join('; ')}. ${trust(n)}`;
  const inline = full.length <= NOTIFICATION_MAX && configs.every((c) => !describeStart(c).cut);
  const message = inline
    ? full
    : `Context Desk: this workspace defines ${n === 1 ? 'an MCP server' : `${n} MCP servers`} that ${n === 1 ? 'has' : 'have'} not been allowed to start: ${configs.map((c) => `"${visibleName(c.name)}"`).join(', ')}. Review what ${n === 1 ? 'it runs' : 'they run'} before starting ${n === 1 ? 'it' : 'them'}.`;
  const detail = configs
    .map((c) => {
      const d = describeStart(c, REVIEW_MAIN);
      return [where(c), `  ${d.main}`, ...d.details.map((x) => `  ${x}`)].join('\n');
    })
    .join('\n\n');
  return {
    message,
    inline,
    review: {
      message: `Start ${n === 1 ? 'this MCP server' : `these ${n} MCP servers`}, defined by this workspace? ${trust(n)}`,
      detail,
    },
  };
}

/** The two ways VS Code asks: a notification with buttons, and a modal dialog with a detail. */
export interface ConsentUi {
  notify(message: string, items: string[]): PromiseLike<string | undefined>;
  confirm(message: string, detail: string, item: string): PromiseLike<string | undefined>;
}

/**
 * Asks whether to start `configs`, the servers the prompt names; true only when the user chose Start in
 * a prompt that showed every one of them whole.
 */
export async function askToStart(
  configs: readonly McpServerConfig[],
  relative: (file: string) => string,
  ui: ConsentUi,
): Promise<boolean> {
  const p = consentPrompt(configs, relative);
  const choice = await ui.notify(p.message, [p.inline ? START : REVIEW, NOT_NOW]);
  if (choice === START) return p.inline;
  if (choice !== REVIEW) return false;
  return (await ui.confirm(p.review.message, p.review.detail, START)) === START;
}
