// Small readers for untrusted JSON: each throws a FormatError that says where the shape is wrong.
import { fail } from './errors';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asObject(v: unknown, where: string): JsonObject {
  if (!isObject(v)) fail(`${where} is not an object`);
  return v;
}

export function asArray(v: unknown, where: string): Json[] {
  if (!Array.isArray(v)) fail(`${where} is not an array`);
  return v as Json[];
}

/**
 * Message content as providers take it: a string, null, or a list of parts ({type: 'text', text}).
 * Non-text parts (images) are kept as a short marker so they are not silently lost.
 */
export function contentText(v: unknown, where: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) fail(`${where}: content is neither text nor a list of parts`);
  return v
    .map((part, i) => {
      if (typeof part === 'string') return part;
      const p = asObject(part, `${where}: content part ${i}`);
      if (typeof p.text === 'string') return p.text;
      if (typeof p.content === 'string' || Array.isArray(p.content)) return contentText(p.content, where);
      return `[${typeof p.type === 'string' ? p.type : 'part'}]`;
    })
    .join('');
}

/** Tool-call arguments: providers give JSON text; some logs store the parsed object. */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

export function optionalNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
