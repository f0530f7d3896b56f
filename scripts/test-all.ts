// `npm test`: lint, type-check, unit, integration (also once through .vscode-test.mjs) and e2e, in that
// order; every part runs even when an earlier one fails, then a summary is printed and the exit code is non-zero on any failure.
import { spawn } from 'node:child_process';

interface Part {
  name: string;
  script: string;
}

const PARTS: Part[] = [
  { name: 'lint', script: 'lint' },
  { name: 'typecheck', script: 'typecheck' },
  { name: 'unit', script: 'test:unit' },
  { name: 'integration', script: 'test:integration' },
  { name: 'vscode-test', script: 'test:vscode-cli' },
  { name: 'e2e', script: 'test:e2e' },
];

interface Outcome {
  part: Part;
  code: number;
  seconds: number;
  passed?: number;
  failed?: number;
}

/** Runs `npm run <script>`, streaming its output and keeping it to read the test counts. */
function runPart(part: Part): Promise<Outcome> {
  const started = Date.now();
  console.log(`\n━━━ ${part.name} ━━━`);
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', part.script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const relay = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      const s = chunk.toString();
      text += s;
      if (!s.includes('Unknown user config')) stream.write(chunk);
    };
    child.stdout.on('data', relay(process.stdout));
    child.stderr.on('data', relay(process.stderr));
    child.on('close', (code) => {
      resolve({ part, code: code ?? 1, seconds: (Date.now() - started) / 1000, ...counts(text) });
    });
  });
}

/** Reads node's test runner summary (ℹ pass N / ℹ fail N) or our runners' "N passed, N failed" line. */
function counts(text: string): { passed?: number; failed?: number } {
  const node = /ℹ pass (\d+)\s*\n\s*ℹ fail (\d+)/.exec(text);
  if (node) return { passed: Number(node[1]), failed: Number(node[2]) };
  const plain = [...text.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  if (plain) return { passed: Number(plain[1]), failed: Number(plain[2]) };
  return {};
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const outcomes: Outcome[] = [];
  for (const part of PARTS.filter((p) => only.length === 0 || only.includes(p.name)))
    outcomes.push(await runPart(part));

  console.log('\n━━━ summary ━━━');
  for (const o of outcomes) {
    const tests = o.passed === undefined ? '' : `  ${o.passed} passed, ${o.failed} failed`;
    console.log(`${o.code === 0 ? '✔' : '✖'} ${o.part.name.padEnd(12)} ${o.seconds.toFixed(1).padStart(6)} s${tests}`);
  }
  const passed = outcomes.reduce((n, o) => n + (o.passed ?? 0), 0);
  const failed = outcomes.reduce((n, o) => n + (o.failed ?? 0), 0);
  const partsFailed = outcomes.filter((o) => o.code !== 0);
  if (partsFailed.length > 0)
    console.log(
      `${partsFailed.length} of ${outcomes.length} parts failed: ${partsFailed.map((o) => o.part.name).join(', ')}`,
    );
  // The closing line counts tests across unit, integration and e2e; a part that failed without a
  // counted test failure (lint, typecheck, a crash) counts as one failure, so the line never lies.
  const uncounted = partsFailed.filter((o) => !o.failed).length;
  console.log(`${passed} passed, ${failed + uncounted} failed`);
  process.exit(partsFailed.length === 0 ? 0 : 1);
}

void main();
