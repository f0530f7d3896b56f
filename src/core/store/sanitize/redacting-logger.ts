// The log is a file on disk too (VS Code keeps every output channel under its logs folder): what a
// provider, an MCP server or a terminal said reaches it through error messages, so every message is
// redacted on its way there. `redact` is passed in so the extension's activation bundle need not hold
// the rule engine: until the engine is loaded nothing that could carry outside text has run.
import type { Logger } from '../../ports';

/** An object as the log channel would print it (as JSON), or as a string when it has no JSON form. */
function asText(m: object): string {
  try {
    return JSON.stringify(m) ?? String(m);
  } catch {
    return String(m);
  }
}

export function redactingLogger(inner: Logger, redact: (text: string) => string): Logger {
  // An object argument (a request's options, a response's headers) is printed by the channel as JSON:
  // it is turned into that text here so its secrets are redacted too.
  const text = (m: unknown): unknown =>
    typeof m === 'string'
      ? redact(m)
      : m instanceof Error
        ? redact(m.stack ?? `${m.name}: ${m.message}`)
        : typeof m === 'object' && m !== null
          ? redact(asText(m))
          : m;
  const args = (a: unknown[]): unknown[] => a.map(text);
  return {
    trace: (m, ...a) => inner.trace(text(m) as string, ...args(a)),
    debug: (m, ...a) => inner.debug(text(m) as string, ...args(a)),
    info: (m, ...a) => inner.info(text(m) as string, ...args(a)),
    warn: (m, ...a) => inner.warn(text(m) as string, ...args(a)),
    error: (m, ...a) => inner.error(text(m) as string, ...args(a)),
  };
}
