// What starting an MCP server does, for a person to judge before allowing it: the program and its
// arguments, or the URL, and then everything else that decides what runs or what the server receives
// (its folder, env entries, the variables its env file sets, headers, the user's environment variables
// it reads). Only the program line or the URL is ever cut, saying how much was left out; the rest is
// shown whole, so a long URL cannot push a header that sends `${env:AWS_SECRET_ACCESS_KEY}` out of
// sight. Secrets redacted (never inside an argument that can be code) and invisible or direction-changing
// characters shown as \u{…}, so what is read is what runs. Shared by the extension's start prompt and the CLI.
import * as path from 'node:path';
import { visibleText } from '../agent/tools/mcp';
import { redactSecretsSync } from '../store/sanitize/secrets';
import type { McpServerConfig, StdioServerConfig } from './types';

/** How much of the program line or the URL a one-line description shows. */
export const MAX_MAIN = 200;

export interface StartDescription {
  /** `runs <command and arguments>` or `connects to <url>`, cut after the limit (saying how much more there is). */
  main: string;
  /** Whether `main` was cut. */
  cut: boolean;
  /** The rest, each whole: `env: …`, `headers: …`, the user's environment variables the server gets. */
  details: string[];
}

export function describeStart(c: McpServerConfig, maxMain = MAX_MAIN): StartDescription {
  const details: string[] = [];
  let main: string;
  if (c.type === 'stdio') {
    const program = programLine(c);
    main = visibleText(program.text.replace(/\s+/g, ' '));
    if (program.secretShown)
      details.push('an argument that can run as code holds what looks like a secret: shown as it runs');
    if (c.cwd !== undefined) details.push(shown(`in folder ${c.cwd}`));
    const env = Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v}`);
    if (env.length) details.push(shown(`env: ${env.join(', ')}`));
    if (c.envFile !== undefined) details.push(shown(`env file ${c.envFile}${envFileSets(c)}`));
  } else {
    main = shown(`connects to ${c.url}`);
    // Headers as sent: a value such as `${env:GITHUB_TOKEN}` hands that secret of the user's to the server.
    const headers = Object.entries(c.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
    if (headers.length) details.push(shown(`headers: ${headers.join(', ')}`));
  }
  const variables = userVariables(c);
  if (variables.length)
    details.push(
      shown(
        `${c.type === 'stdio' ? 'gives the program' : 'sends the server'} your environment variables: ${variables.join(', ')}`,
      ),
    );
  const cut = main.length > maxMain;
  if (cut) main = `${main.slice(0, maxMain)}… (${main.length - maxMain} more characters not shown)`;
  return { main, cut, details };
}

/** The description on one line: the program or URL (cut), then each detail in parentheses (whole). */
export function whatStartingDoes(c: McpServerConfig): string {
  const d = describeStart(c);
  return [d.main, ...d.details.map((x) => `(${x})`)].join(' ');
}

/** What the env file sets, as the sync read it (every variable, as `env` entries are shown). */
function envFileSets(c: StdioServerConfig): string {
  if (!c.envFileContent) return ' (not read yet)';
  const vars = Object.entries(c.envFileContent.vars).map(([k, v]) => `${k}=${v}`);
  return vars.length ? `: ${vars.join(', ')}` : ' (sets no variables)';
}

/** An argument a shell or an interpreter can read as code (`sh -c '…'`, `node -e …`), or with quotes or spaces. */
const CODE_LIKE = /[\s"'`$;|&<>()\\\0]/;

/**
 * `runs <program and arguments>` with secrets redacted, but never inside or across an argument that can be
 * code: a redaction rule replaces text around a secret too, so `sh -c 'DB_PASSWORD="$(curl … | sh)" exec
 * npx server'` read `DB_PASSWORD="[REDACTED:env-secret]" exec npx server`, and a quote in one argument
 * (`DB_PASSWORD="x`) hid the arguments after it. Those arguments are shown as they run.
 */
function programLine(c: StdioServerConfig): { text: string; secretShown: boolean } {
  const words = [c.command, ...c.args];
  const marks = words.map((w, i) => (CODE_LIKE.test(w) ? `\0${i}\0` : w));
  let text = redactSecretsSync(`runs ${marks.join(' ')}`).text;
  // A rule that took a mark (`--password '<script>'`) would hide it: then nothing is redacted.
  if (marks.some((m, i) => m !== words[i] && !text.includes(m))) text = `runs ${words.join(' ')}`;
  else words.forEach((w, i) => (text = text.replace(marks[i]!, () => w)));
  const secretShown = words.some((w, i) => marks[i] !== w && redactSecretsSync(w).text !== w);
  return { text, secretShown };
}

function shown(text: string): string {
  return visibleText(redactSecretsSync(text).text.replace(/\s+/g, ' '));
}

/** The names of the user's environment variables (`${env:NAME}`) the config reads, anywhere in it. */
function userVariables(c: McpServerConfig): string[] {
  const texts =
    c.type === 'stdio'
      ? [c.command, ...c.args, ...Object.values(c.env ?? {}), c.cwd ?? '', c.envFile ?? '']
      : [c.url, ...Object.values(c.headers ?? {})];
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/\$\{env:([^}]*)\}/g)) names.add(m[1]!);
  return [...names];
}

/** Whether a server's config file lies inside `folder` (came with the workspace, e.g. a cloned `.mcp.json`). */
export function definedInFolder(config: McpServerConfig, folder: string | undefined): boolean {
  if (!folder || config.source === 'setting') return false;
  const rel = path.relative(folder, config.source);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
