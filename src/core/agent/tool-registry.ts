// The agent's tools: name, description, JSON input schema and `run`. Arguments are checked here (JSON
// syntax, known tool, schema via ajv) so a tool only ever sees valid input.
import type { ToolCall } from '../messages';
import { compileInputSchema, formatSchemaErrors } from '../mcp/schema';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth';
import type { ToolSpec } from './provider';

export interface ToolContext {
  signal: AbortSignal;
  session: string;
  turn: number;
  callId: string;
  /**
   * Stores output streamed in chunks (sanitized, long output to a file) and returns what the model
   * sees plus the file: a tool returning that `storedAt` is not stored again. Absent in tests and
   * store-less hosts.
   */
  storeOutput?: (
    chunks: AsyncIterable<string | Uint8Array>,
    options?: StoreOutputOptions,
  ) => Promise<{ text: string; storedAt?: string }>;
}

export interface StoreOutputOptions {
  /** The output is a secret as a whole (a command that prints one): every line is redacted. */
  secretOutput?: boolean;
}

/** `ok: false` is an error the model should read and fix (not a crash of the loop). */
export interface ToolOutput {
  ok: boolean;
  text: string;
  /** The tool itself stored the full output (e.g. a terminal log); the long-output port keeps it. */
  storedAt?: string;
}

/** How a call is shown to the user (tool cards, approvals): a title and arguments fit to display. */
export interface ToolCallLabel {
  /** E.g. `github › create_issue` for an MCP call. */
  title?: string;
  /** The arguments as shown (pretty, secrets redacted) instead of the model's raw JSON. */
  arguments?: string;
}

export interface AgentTool extends ToolSpec {
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
  /** Optional: a label for valid calls (never called for invalid ones). */
  describe?(args: Record<string, unknown>): Promise<ToolCallLabel> | ToolCallLabel;
}

/** Why a call cannot run. `malformed-json` and `unknown-tool` make the loop retry with retry filtering. */
export type InvalidCallKind = 'malformed-json' | 'unknown-tool' | 'invalid-arguments';

export type CheckedCall =
  { ok: true; tool: AgentTool; args: Record<string, unknown> } | { ok: false; kind: InvalidCallKind; message: string };

export class ToolRegistry {
  private readonly tools = new Map<string, AgentTool>();

  constructor(tools: readonly AgentTool[] = []) {
    for (const t of tools) this.register(t);
  }

  register(tool: AgentTool): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))
      throw new RangeError(`Tool name "${tool.name}" must be 1-64 letters, digits, "_" or "-"`);
    if (this.tools.has(tool.name)) throw new RangeError(`Tool "${tool.name}" is already registered`);
    const compiled = compileInputSchema(tool.inputSchema);
    if (!compiled.ok) throw new TypeError(`Tool "${tool.name}": ${compiled.error}`);
    this.tools.set(tool.name, tool);
  }

  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  get(name: string): AgentTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** What the provider gets (no `run`). */
  specs(): ToolSpec[] {
    return [...this.tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }));
  }

  check(call: ToolCall): CheckedCall {
    const tool = this.tools.get(call.name);
    if (!tool)
      return {
        ok: false,
        kind: 'unknown-tool',
        message: `There is no tool "${call.name}". Available tools: ${this.names().join(', ') || '(none)'}.`,
      };
    let parsed: unknown;
    try {
      parsed = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch (e) {
      return {
        ok: false,
        kind: 'malformed-json',
        message: `The arguments of ${call.name} are not valid JSON (${e instanceof Error ? e.message : String(e)}).`,
      };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { ok: false, kind: 'malformed-json', message: `The arguments of ${call.name} must be a JSON object.` };
    if (nestedDeeperThan(parsed))
      return {
        ok: false,
        kind: 'invalid-arguments',
        message: `The arguments of ${call.name} nest more than ${MAX_JSON_DEPTH} levels deep; no tool takes that. Send them again, flatter.`,
      };
    const compiled = compileInputSchema(tool.inputSchema);
    if (!compiled.ok) return { ok: false, kind: 'invalid-arguments', message: compiled.error };
    if (!compiled.validate(parsed))
      return {
        ok: false,
        kind: 'invalid-arguments',
        message: `The arguments of ${call.name} do not match its schema:\n${formatSchemaErrors(compiled.validate.errors)}`,
      };
    return { ok: true, tool, args: parsed as Record<string, unknown> };
  }
}
