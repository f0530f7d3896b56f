// A session this workspace did not write (it came with the repository or from another machine) may hold
// instructions hidden in characters that draw nothing (tag characters, zero-width ones) or that reorder
// text (bidi overrides). Resuming sends its messages to the model as the user's own, so the panel shows
// them with those characters made visible as `\u{…}`, as approvals and tool cards already do.
import { invisibleCount, visibleText } from '../../core/agent/tools/mcp';
import type { ChatItem } from '../../protocol/chat';
import { formatCount } from '../../core/numbers';

/** The conversation's messages with their hidden characters shown, and how many there were. */
export function revealHiddenInMessages(items: readonly ChatItem[]): { items: ChatItem[]; hidden: number } {
  let hidden = 0;
  const shown = items.map((item): ChatItem => {
    if (item.kind === 'notice') return item;
    const n = invisibleCount(item.text);
    hidden += n;
    return n === 0 ? item : { ...item, text: visibleText(item.text) };
  });
  return { items: shown, hidden };
}

/** What the resume notice adds when there were any. */
export function hiddenNotice(hidden: number): string {
  if (hidden === 0) return '';
  const many =
    hidden === 1
      ? 'character that draws nothing or reorders text is'
      : 'characters that draw nothing or reorder text are';
  return ` Careful: ${formatCount(hidden)} ${many} shown as \\u{…} in its messages; the model reads them as written.`;
}
