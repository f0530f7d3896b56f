// Input schemas compiled with ajv: at sync time to flag tools whose schema is broken, at call time to
// check the agent's arguments before they reach the server.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';
import type * as Re2 from 're2js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth';

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/**
 * A schema's `pattern` in a linear-time engine (RE2): the server writes the pattern and the model the
 * argument, and JavaScript's backtracking engine took 1 s for `^(a+)+$` against 28 characters (minutes
 * for 35) on the extension host's thread. A pattern RE2 cannot compile (lookaround, backreference) is not
 * checked here (the server still checks its own arguments).
 */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): RegExpLike & { toString(): string } => {
    // ajv keys compiled patterns by their text: each must print as itself.
    const toString = (): string => `/${pattern}/`;
    let re: Re2.RE2JS;
    try {
      re = re2().RE2JS.compile(pattern);
    } catch {
      return { test: () => true, toString };
    }
    return { test: (s: string) => re.matcher(s).find(), toString };
  },
  { code: 'linearRegExp' },
);

const options = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  logger: false,
  code: { regExp: linearRegExp },
} as const;
let instances: { draft7: AnyAjv; d2019: AnyAjv; d2020: AnyAjv } | undefined;

function ajvFor(schema: Record<string, unknown>): AnyAjv {
  instances ??= { draft7: new Ajv(options), d2019: new Ajv2019(options), d2020: new Ajv2020(options) };
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return instances.d2020;
  if (dialect.includes('2019-09')) return instances.d2019;
  return instances.draft7;
}

export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; error: string };

const cache = new Map<string, CompiledSchema>();

/** Compiles a tool's input schema. The result is cached by the schema's JSON text. */
export function compileInputSchema(schema: unknown): CompiledSchema {
  if (schema === undefined || schema === null) return { ok: false, error: 'the tool has no input schema' };
  if (typeof schema !== 'object' || Array.isArray(schema))
    return { ok: false, error: 'the input schema is not a JSON object' };
  if (nestedDeeperThan(schema))
    return { ok: false, error: `the input schema nests more than ${MAX_JSON_DEPTH} levels deep` };
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  const s = { ...(schema as Record<string, unknown>) };
  let result: CompiledSchema;
  if (s.type !== undefined && s.type !== 'object') {
    result = { ok: false, error: `the input schema has type ${JSON.stringify(s.type)}; MCP requires "object"` };
  } else {
    // Draft-07 ajv does not know draft-04/06 URIs or foreign $ids; neither changes validation of arguments.
    const dialect = typeof s.$schema === 'string' && /(2019-09|2020-12)/.test(s.$schema) ? s.$schema : undefined;
    delete s.$schema;
    delete s.$id;
    if (dialect) s.$schema = dialect;
    try {
      result = { ok: true, validate: ajvFor(s).compile(s) };
    } catch (e) {
      result = { ok: false, error: `the input schema is invalid: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  if (cache.size > 2000) cache.clear();
  cache.set(key, result);
  return result;
}

/** Human-readable ajv errors: `/path: message`, one per line. */
export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map(
      (e) =>
        `${e.instancePath || '(arguments)'}: ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
    )
    .join('\n');
}

/** RE2 (about 150 KB minified) is evaluated when the first schema with a pattern is compiled. */
function re2(): typeof Re2 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, on purpose
  return require('re2js') as typeof Re2;
}
