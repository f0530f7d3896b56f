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

/** Tool-call arguments: providers give JSON text; some logs store the parsed object. */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

export function optionalNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export const BAD_COUNT = Symbol('not a token count');

/**
 * A token count from a log: a non-negative safe integer, undefined when absent (missing or null), and
 * `BAD_COUNT` when present but not a count (negative, fractional, beyond 2^53, a string): a prompt size
 * summed from it would be wrong, so callers leave the whole usage record out.
 */
export function optionalCount(v: unknown): number | typeof BAD_COUNT | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : BAD_COUNT;
}

export function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
