// The demo's one tool of its own: a simulated noisy build that prints a long log and runs nothing. It
// gives the demo model an output long enough to be stored as a file, previewed and later masked, in any
// workspace and without a terminal or an approval.
import type { AgentTool, ToolOutput } from '../agent/tool-registry';

export const DEMO_BUILD_TOOL = 'demo_build';
export const DEMO_BUILD_LINES = 1_500;
/** The log line that holds the build's one error (1-based). */
export const DEMO_ERROR_LINE = 1_234;
export const DEMO_ERROR_TEXT = "src/module_412.c:17: error: 'config' undeclared (first use in this function)";

/** The simulated log: compile lines, a warning every 37 lines, one error, a summary. Deterministic. */
export function demoBuildLog(lines = DEMO_BUILD_LINES): string {
  const out: string[] = [];
  for (let n = 1; n <= lines; n++) {
    if (n === DEMO_ERROR_LINE) out.push(DEMO_ERROR_TEXT);
    else if (n === lines) out.push('build failed: 1 error, see above');
    else if (n % 37 === 0)
      out.push(`src/module_${String(n % 500).padStart(3, '0')}.c:${n % 90}: warning: unused variable 'tmp'`);
    else out.push(`[${String(n).padStart(4, ' ')}/${lines}] CC src/module_${String(n % 500).padStart(3, '0')}.o`);
  }
  return out.join('\n') + '\n';
}

export function demoBuildTool(): AgentTool {
  return {
    name: DEMO_BUILD_TOOL,
    description:
      'Demo only: prints a simulated noisy build log (1,500 lines, one error). Runs nothing; it exists so the demo model can show how long outputs are stored and masked.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    run(): Promise<ToolOutput> {
      return Promise.resolve({ ok: true, text: demoBuildLog() });
    },
  };
}
