// What a screen reader is told when the chat changes. The conversation itself is not a live region: it
// is virtualized (scrolling back re-inserts old rows) and a streaming message is drawn again at every
// chunk, so a live log would read old text again and again. One persistent polite region says instead
// what needs the user: an approval that appeared (even while they type, when it takes no focus) and a new
// error (the status line above the composer, a live region too, says how a run ended). Pure.
import type { ChatSnapshot } from '../../protocol/chat';

export function announcement(before: ChatSnapshot | undefined, after: ChatSnapshot): string | undefined {
  if (!before) return undefined;
  const parts: string[] = [];
  const seen = new Set(before.items.map((i) => i.id));
  for (const item of after.items)
    if (item.kind === 'notice' && item.level === 'error' && !seen.has(item.id)) parts.push(`Error: ${item.text}`);
  const a = after.approval;
  if (a && a.id !== before.approval?.id) parts.push(`Approval needed, above the message box: ${a.title}`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}
