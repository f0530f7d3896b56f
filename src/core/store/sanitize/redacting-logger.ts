// The log is a file on disk too (VS Code keeps every output channel under its logs folder): what a
// provider, an MCP server or a terminal said reaches it through error messages, so every message is
// redacted on its way there. `redact` is passed in so the extension's activation bundle need not hold
// the rule engine: until the engine is loaded nothing that could carry outside text has run.
import type { Logger } from '../../ports';

export function redactingLogger(inner: Logger, redact: (text: string) => string): Logger {
  const text = (m: unknown): unknown =>
    typeof m === 'string' ? redact(m) : m instanceof Error ? redact(m.stack ?? `${m.name}: ${m.message}`) : m;
  const args = (a: unknown[]): unknown[] => a.map(text);
  return {
    trace: (m, ...a) => inner.trace(text(m) as string, ...args(a)),
    debug: (m, ...a) => inner.debug(text(m) as string, ...args(a)),
    info: (m, ...a) => inner.info(text(m) as string, ...args(a)),
    warn: (m, ...a) => inner.warn(text(m) as string, ...args(a)),
    error: (m, ...a) => inner.error(text(m) as string, ...args(a)),
  };
}
