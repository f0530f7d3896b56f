// Approval prompts shown in the panel (commands, edits, MCP calls, budget): one at a time, answered by
// the user with Approve, Deny, or (when offered) Always allow.
import type { ApprovalRequest as BudgetApprovalRequest, ApprovalPort } from '../../core/budget/types';
import type { ApprovalRequest, ChatPatch } from '../../protocol/chat';
import { revealPadding, visibleLine, visibleText } from '../../core/agent/tools/mcp';
import { formatCount } from '../../core/numbers';

export type ApprovalAnswer = 'approve' | 'always' | 'deny';

export class ApprovalBroker implements ApprovalPort {
  private queue: { request: ApprovalRequest; resolve: (answer: ApprovalAnswer) => void }[] = [];
  private next = 1;
  /** Requests answered since the queue was last empty: the head's place is one after them. */
  private answered = 0;

  constructor(private readonly post: (patches: ChatPatch[]) => void) {}

  /** Asks the user; resolves true when approved. */
  async ask(kind: ApprovalRequest['kind'], title: string, detail: string): Promise<boolean> {
    return (await this.request({ kind, title, detail })) !== 'deny';
  }

  /** Asks the user with every field of the request (MCP details, an "always" choice). */
  request(fields: Omit<ApprovalRequest, 'id'>): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const request: ApprovalRequest = { id: `approval-${this.next++}`, ...shown(fields) };
      this.queue.push({ request, resolve });
      // Shown again with the count when it is not the first: the user sees that more wait.
      this.postHead();
    });
  }

  /** The budget's approval mode. */
  requestApproval(r: BudgetApprovalRequest): Promise<boolean> {
    return this.ask(
      'budget',
      `The ${r.level} budget needs approval`,
      `${formatCount(r.used)} of ${formatCount(r.limit)} tokens used; this call needs ${formatCount(r.requested)} more.${r.reason ? `\n${r.reason}` : ''}`,
    );
  }

  /** `always` counts only where the request offered it. */
  answer(id: string, approved: boolean, always = false): boolean {
    const head = this.queue[0];
    if (!head || head.request.id !== id) return false;
    this.queue.shift();
    this.answered = this.queue.length ? this.answered + 1 : 0;
    head.resolve(!approved ? 'deny' : always && head.request.alwaysLabel ? 'always' : 'approve');
    this.postHead();
    return true;
  }

  /** Refuses everything pending (the run was stopped). */
  denyAll(): void {
    const pending = this.queue.splice(0);
    this.answered = 0;
    for (const p of pending) p.resolve('deny');
    if (pending.length) this.post([{ op: 'approval', approval: undefined }]);
  }

  get pending(): ApprovalRequest | undefined {
    const head = this.queue[0]?.request;
    const of = this.answered + this.queue.length;
    return head && (of > 1 ? { ...head, place: { at: this.answered + 1, of } } : head);
  }

  private postHead(): void {
    this.post([{ op: 'approval', approval: this.pending }]);
  }
}

/** A line longer than this wraps past the approval box in a narrow panel. */
const LONG_LINE = 200;

/**
 * What the user reads is what runs: the text of a request (a command from the model, MCP arguments) with
 * invisible and direction-changing characters made visible, and padding that would push part of it out
 * of sight replaced by a marker, so nothing can disguise or hide what is approved.
 */
function shown(fields: Omit<ApprovalRequest, 'id'>): Omit<ApprovalRequest, 'id'> {
  const reveal = (text: string): string => revealPadding(visibleText(text));
  const detail = reveal(fields.detail);
  // A command longer than the box shows says so where it cannot be missed: many lines, or one line long
  // enough to wrap past the box (`npm test -- <2,000 characters of paths> ; curl … | sh`).
  const lines = detail.split('\n');
  const longest = lines.reduce((n, l) => Math.max(n, l.length), 0);
  const size = [
    lines.length > 3 ? `${lines.length} lines` : '',
    longest > LONG_LINE ? `${formatCount(longest)} characters on one line` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const length = fields.kind === 'command' && size ? ` (${size}: read them all)` : '';
  return {
    ...fields,
    // A title is one line: newlines in a path the model chose would push its warning out of view.
    title: revealPadding(visibleLine(fields.title)) + length,
    detail,
    ...(fields.mcp ? { mcp: { ...fields.mcp, arguments: reveal(fields.mcp.arguments) } } : {}),
    ...(fields.alwaysLabel ? { alwaysLabel: visibleLine(fields.alwaysLabel) } : {}),
  };
}
