// edit_file and run_command as ports: the host (VS Code) applies edits with a diff preview and runs
// commands in a terminal, each with approval; the core defines the tools, checks the paths and the
// arguments, and hands the host only safe, absolute paths.
import { promises as fsp } from 'node:fs';
import type { AgentTool, ToolContext, ToolOutput } from '../tool-registry';
import type { PathGuard } from './paths';
import { runsOnEntering } from './entered-folder';
import { imitatedFile } from './imitated-path';
import { packageScriptsRun } from './package-scripts';
import { storeWriteWarning } from './store-writes';
import { secretPrinter } from '../../store/sanitize/printed-secrets';

/** What the store writes where a secret was: `[REDACTED:<rule>]`. */
const MARKER = /\[REDACTED:[^\]\n]{1,64}\]/g;
/** Files bigger than this are not read to count their markers (a whole-file write of one is rare). */
const MARKER_CHECK_MAX_BYTES = 8 * 1024 * 1024;

const markers = (text: string): number => text.match(MARKER)?.length ?? 0;

/** The file's text, or '' when it does not exist, cannot be read or is too big to check. */
async function currentText(absolute: string): Promise<string> {
  try {
    const stat = await fsp.stat(absolute);
    return stat.isFile() && stat.size <= MARKER_CHECK_MAX_BYTES ? await fsp.readFile(absolute, 'utf8') : '';
  } catch {
    return '';
  }
}

/**
 * The store keeps outputs with their secrets redacted; a model that copies from a stored copy would
 * write `[REDACTED:…]` over the user's real secret. An edit that adds markers the replaced text (or, for
 * a whole-file write, the file) does not have is refused with why.
 */
async function addedMarkers(request: EditRequest): Promise<string[]> {
  const found = request.newText.match(MARKER) ?? [];
  if (found.length === 0) return [];
  const before = request.oldText ?? (await currentText(request.absolute));
  return found.length > markers(before) ? [...new Set(found)] : [];
}

export interface EditRequest {
  /** Absolute, checked path. */
  absolute: string;
  /** Workspace-relative, as the model wrote it, for the preview and the approval prompt. */
  display: string;
  /** Where a link in `display` leads, when that is another file (workspace-relative): shown too. */
  target?: string;
  /** The existing file `display` reads as but is not (`src/config.ts` for `src/cоnfig.ts`): named too. */
  imitates?: string;
  /** Exact text to replace (must occur once); absent to create the file or replace it whole. */
  oldText?: string;
  newText: string;
}

export interface EditFilePort {
  /**
   * `recheck` checks the path again as edit_file did and says why it is refused now, or undefined: the
   * host calls it after the approval, just before applying (the file may have become a hard link or a
   * link to elsewhere while the approval waited).
   */
  edit(request: EditRequest, ctx: ToolContext, recheck?: () => Promise<string | undefined>): Promise<ToolOutput>;
}

export interface CommandRequest {
  command: string;
  /** Absolute, checked working directory. */
  cwd: string;
  timeoutMs: number;
  /** Why entering `cwd` can run a program the workspace holds (its `.envrc`): the approval says so. */
  runsCode?: string;
  /** The line changes to a folder that cannot be known before it runs (`cd "$(…)"`): the approval says so. */
  unknownFolder?: string;
  /** Why the line writes into the Context Desk store (`>> .context-desk/…`, `ln x .context-desk/…`): the approval says so. */
  storeWrite?: string;
  /** The package.json scripts the line runs (`npm test`), by name and text: the approval shows them. */
  scripts?: string;
}

export interface CommandPort {
  run(request: CommandRequest, ctx: ToolContext): Promise<ToolOutput>;
}

export function editFileTool(guard: PathGuard, port: EditFilePort): AgentTool {
  return {
    name: 'edit_file',
    description:
      'Edits a workspace file: replaces old_text (which must occur exactly once) with new_text, or without old_text creates or overwrites the file. The user may be asked to approve.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        old_text: { type: 'string', minLength: 1 },
        new_text: { type: 'string' },
      },
      required: ['path', 'new_text'],
      additionalProperties: false,
    },
    async run(args, ctx): Promise<ToolOutput> {
      const r = await guard.resolve(args.path, 'write');
      if (!r.ok) return { ok: false, text: r.message };
      const imitates = await imitatedFile(guard.workspaceRoot, r.display);
      const request: EditRequest = {
        absolute: r.absolute,
        display: r.display,
        ...(r.target !== undefined ? { target: r.target } : {}),
        ...(imitates !== undefined ? { imitates } : {}),
        newText: String(args.new_text),
        ...(typeof args.old_text === 'string' ? { oldText: args.old_text } : {}),
      };
      const added = await addedMarkers(request);
      if (added.length > 0)
        return {
          ok: false,
          text:
            `Refused: new_text would write ${added.join(', ')} into ${r.display}. That marker stands where ` +
            'Context Desk redacted a secret in a stored copy; it is not the value. Read the original file ' +
            'for the real text, or leave that part unchanged (edit around it with old_text).',
        };
      const recheck = async (): Promise<string | undefined> => {
        const again = await guard.resolve(request.absolute, 'write');
        if (!again.ok) return again.message;
        return again.absolute === request.absolute ? undefined : `${r.display} now leads to another file.`;
      };
      return port.edit(request, ctx, recheck);
    },
  };
}

export const DEFAULT_COMMAND_TIMEOUT_S = 120;

export function runCommandTool(guard: PathGuard, port: CommandPort): AgentTool {
  return {
    name: 'run_command',
    description:
      'Runs a shell command in the workspace and returns its exit code and output (long output is stored in a file: read, tail or grep it). The user may be asked to approve.',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1 },
        cwd: { type: 'string', description: 'Workspace-relative folder. Default: the workspace root.' },
        timeout_seconds: { type: 'integer', minimum: 1, maximum: 3600 },
      },
      required: ['command'],
      additionalProperties: false,
    },
    async run(args, ctx): Promise<ToolOutput> {
      const r = await guard.resolve(args.cwd ?? '.', 'write');
      if (!r.ok) return { ok: false, text: r.message };
      const seconds = typeof args.timeout_seconds === 'number' ? args.timeout_seconds : DEFAULT_COMMAND_TIMEOUT_S;
      const command = String(args.command);
      // A command that prints a secret (gh auth token, echo $API_KEY): its output is redacted whole.
      const store = ctx.storeOutput;
      const withSecret =
        store && secretPrinter(command) !== undefined
          ? {
              ...ctx,
              storeOutput: (chunks: AsyncIterable<string | Uint8Array>) => store(chunks, { secretOutput: true }),
            }
          : ctx;
      const entered = await runsOnEntering(guard.workspaceRoot, r.absolute, command);
      const scripts = await packageScriptsRun(guard.workspaceRoot, r.absolute, command);
      const storeWrite = storeWriteWarning(command, r.absolute, guard.storeRoot);
      return port.run(
        {
          command,
          cwd: r.absolute,
          timeoutMs: seconds * 1000,
          ...entered,
          ...(scripts ? { scripts } : {}),
          ...(storeWrite ? { storeWrite } : {}),
        },
        withSecret,
      );
    },
  };
}
