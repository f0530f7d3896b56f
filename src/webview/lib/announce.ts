// What a screen reader is told when the chat changes. The conversation itself is not a live region: it
// is virtualized (scrolling back re-inserts old rows) and a streaming message is drawn again at every
// chunk, so a live log would read old text again and again. One persistent polite region says instead
// what needs the user: an approval that appeared (even while they type, when it takes no focus) or that
// more now wait behind, and a new error (the status line above the composer, a live region too, says how
// a run ended). Pure.
import type { ChatSnapshot } from '../../protocol/chat';

export function announcement(before: ChatSnapshot | undefined, after: ChatSnapshot): string | undefined {
  if (!before) return undefined;
  const parts: string[] = [];
  const seen = new Set(before.items.map((i) => i.id));
  for (const item of after.items)
    if (item.kind === 'notice' && item.level === 'error' && !seen.has(item.id)) parts.push(`Error: ${item.text}`);
  const a = after.approval;
  const b = before.approval;
  const place = a?.place && `request ${a.place.at} of ${a.place.of}`;
  if (a && a.id !== b?.id)
    parts.push(`Approval needed, above the message box: ${a.title}${place ? ` (${place})` : ''}`);
  // The same prompt posted again with more waiting behind it ("1 of 2" became "1 of 3"): the eye sees the
  // count change beside the answers, a screen reader heard nothing. Said once, when it changes.
  else if (place && (a.place?.at !== b?.place?.at || a.place?.of !== b?.place?.of)) parts.push(`Approval ${place}`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}
