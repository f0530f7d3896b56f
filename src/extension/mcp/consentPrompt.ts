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

export function consentPrompt(configs: readonly McpServerConfig[], relative: (file: string) => string): ConsentPrompt {
  const where = (c: McpServerConfig): string => `"${visibleName(c.name)}" (${visibleText(relative(c.source))})`;
  const one = configs.length === 1;
  const waiting = one ? 'an MCP server that has' : `${configs.length} MCP servers that have`;
  const trust = `Start ${one ? 'it' : 'them'} only if you trust whoever wrote this configuration.`;
  const full = `Context Desk: this workspace defines ${waiting} not been allowed to start: ${configs
    .map((c) => `${where(c)} ${whatStartingDoes(c)}`)
    .join('; ')}. ${trust}`;
  const inline = full.length <= NOTIFICATION_MAX && configs.every((c) => !describeStart(c).cut);
  const names = configs.map((c) => `"${visibleName(c.name)}"`).join(', ');
  const message = inline
    ? full
    : `Context Desk: this workspace defines ${waiting} not been allowed to start: ${names}. Review what ${one ? 'it runs' : 'they run'} before starting ${one ? 'it' : 'them'}.`;
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
      message: `Start ${one ? 'this MCP server' : `these ${configs.length} MCP servers`}, defined by this workspace? ${trust}`,
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
