// Reduces a `tools/call` result to text for the agent: text blocks verbatim, other blocks in one line,
// structured content as JSON (a note instead when it nests too deeply to serialise). The caller puts
// long text through the long-output store.
import { jsonOrNote } from '../json-depth';
import type { McpCallResult } from './types';

export function toCallResult(raw: unknown): McpCallResult {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const block of Array.isArray(r.content) ? r.content : []) {
    const b = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
    if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b.type === 'image' || b.type === 'audio')
      parts.push(`[${b.type} ${String(b.mimeType ?? '')}, ${String(b.data ?? '').length} base64 characters]`);
    else if (b.type === 'resource_link')
      parts.push(`[resource link ${String(b.uri ?? '')}${b.name ? ` (${String(b.name)})` : ''}]`);
    else if (b.type === 'resource') {
      const res = (b.resource ?? {}) as Record<string, unknown>;
      parts.push(typeof res.text === 'string' ? res.text : `[resource ${String(res.uri ?? '')}]`);
    } else parts.push(jsonOrNote(b));
  }
  if (r.structuredContent !== undefined && parts.length === 0) parts.push(jsonOrNote(r.structuredContent, 2));
  return { isError: r.isError === true, text: parts.join('\n'), raw };
}
