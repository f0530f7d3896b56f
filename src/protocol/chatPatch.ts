// Applies chat patches to a snapshot. The host keeps its copy with this function and the webview keeps
// its own, so both always agree on what the panel shows.
import type { ChatItem, ChatPatch, ChatSnapshot, ChatToolCall } from './chat';

export function applyChatPatches(snapshot: ChatSnapshot, patches: readonly ChatPatch[]): ChatSnapshot {
  let s = snapshot;
  for (const p of Array.isArray(patches) ? patches : []) s = applyOne(s, p);
  return s;
}

const ITEM_KINDS: ReadonlySet<string> = new Set<ChatItem['kind']>(['user', 'assistant', 'notice']);

/**
 * One patch. A patch or item kind this version does not know (a host newer than its panel) is skipped:
 * it must not replace the snapshot, which left the panel at "Connecting…" and dropped every later patch.
 */
function applyOne(s: ChatSnapshot, p: ChatPatch): ChatSnapshot {
  switch (p?.op) {
    case 'upsertItem': {
      if (!ITEM_KINDS.has(p.item?.kind)) return s;
      const i = s.items.findIndex((x) => x.id === p.item.id);
      const items = i === -1 ? [...s.items, p.item] : s.items.map((x, j) => (j === i ? p.item : x));
      return { ...s, items };
    }
    case 'appendText':
      return {
        ...s,
        items: s.items.map((x) => (x.id === p.id && x.kind === 'assistant' ? { ...x, text: x.text + p.text } : x)),
      };
    case 'status':
      return { ...s, status: p.status };
    case 'meter':
      return { ...s, meter: p.meter };
    case 'point':
      return { ...s, series: [...s.series, p.point] };
    case 'masked': {
      const ids = new Set(p.callIds);
      const mask = (item: ChatItem): ChatItem =>
        item.kind === 'assistant' && item.tools.some((t) => ids.has(t.callId))
          ? {
              ...item,
              tools: item.tools.map((t) =>
                ids.has(t.callId) ? masked(t, p.lines[t.callId], p.placeholders?.[t.callId]) : t,
              ),
            }
          : item;
      return { ...s, items: s.items.map(mask) };
    }
    case 'approval':
      return p.approval ? { ...s, approval: p.approval } : withoutApproval(s);
    case 'pastSessions':
      return { ...s, pastSessions: p.sessions };
    case 'models':
      return { ...s, models: p.models };
    case 'activity': {
      const { activity: _old, ...rest } = s;
      return p.text === undefined ? rest : { ...rest, activity: p.text };
    }
    case 'notSent':
      return {
        ...s,
        items: s.items.map((x) => (x.id === p.id && x.kind === 'user' ? { ...x, notSent: true } : x)),
      };
    case 'removeItems': {
      const ids = new Set(p.ids);
      return { ...s, items: s.items.filter((i) => !ids.has(i.id)) };
    }
    default:
      return s;
  }
}

function masked(t: ChatToolCall, lines: number | undefined, placeholder: string | undefined): ChatToolCall {
  return {
    ...t,
    masked: true,
    ...(lines !== undefined ? { maskedLines: lines } : {}),
    ...(placeholder !== undefined ? { placeholder } : {}),
  };
}

function withoutApproval(s: ChatSnapshot): ChatSnapshot {
  const { approval: _gone, ...rest } = s;
  return rest;
}
