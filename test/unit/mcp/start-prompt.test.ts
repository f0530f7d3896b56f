// The start prompt's Start allows exactly the server definitions that prompt showed: not a server the
// user answered Not Now to earlier, nor one redefined while the prompt was open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServerConfig } from '../../../src/core/mcp/types';
import { consentKey, McpStartConsent } from '../../../src/extension/mcp/startConsent';
import { StartPrompts } from '../../../src/extension/mcp/startPrompts';
import { memento } from '../../support/memento';

const server = (name: string, args: string[] = ['srv']): McpServerConfig => ({
  type: 'stdio',
  name,
  source: '/w/.mcp.json',
  command: 'node',
  args,
});
const waitingFor = (...configs: McpServerConfig[]): Map<string, McpServerConfig> =>
  new Map(configs.map((c) => [consentKey(c), c]));

/** Prompts answered by `answers` in turn; what each showed and what Start allowed are recorded. */
function harness() {
  const consent = new McpStartConsent(memento());
  const shown: string[][] = [];
  const answers: Array<(start: boolean) => void> = [];
  let allowed: Promise<unknown> = Promise.resolve();
  const prompts = new StartPrompts(
    (configs) => {
      shown.push(configs.map((c) => `${c.name} ${c.type === 'stdio' ? c.args?.join(' ') : c.url}`));
      return new Promise<boolean>((resolve) => answers.push(resolve));
    },
    (configs) => (allowed = consent.allow(configs)),
  );
  const answer = async (i: number, start: boolean): Promise<void> => {
    answers[i]!(start);
    await new Promise((r) => setImmediate(r));
    await allowed;
  };
  return { consent, shown, prompts, answer };
}

test('Start allows the servers the prompt named, not one the user answered Not Now to before', async () => {
  const { consent, shown, prompts, answer } = harness();
  const evil = server('evil');
  const github = server('github');
  prompts.offer(waitingFor(evil));
  await answer(0, false);
  // A pull adds a server; the new prompt names only it, and its Start allows only it.
  prompts.offer(waitingFor(evil, github));
  assert.deepEqual(shown, [['evil srv'], ['github srv']]);
  await answer(1, true);
  assert.equal(consent.isAllowed(github), true);
  assert.equal(consent.isAllowed(evil), false, 'answered Not Now: still waiting');
  // Asked once per window; an explicit refresh asks again.
  prompts.offer(waitingFor(evil));
  assert.equal(shown.length, 2);
  prompts.forget();
  prompts.offer(waitingFor(evil));
  assert.deepEqual(shown[2], ['evil srv']);
});

test('Start on a prompt whose server was redefined since allows nothing new: the new definition is asked about', async () => {
  const { consent, shown, prompts, answer } = harness();
  const before = server('srv', ['-e', 'process.exit(3)']);
  const after = server('srv', ['-e', 'process.exit(4)']);
  prompts.offer(waitingFor(before));
  // Another branch checked out while the prompt is open: the same name runs another program.
  prompts.offer(waitingFor(after));
  assert.deepEqual(shown, [['srv -e process.exit(3)'], ['srv -e process.exit(4)']]);
  await answer(0, true);
  assert.equal(consent.isAllowed(after), false, 'the definition shown was not the one now defined');
  assert.equal(consent.isAllowed(before), true);
});
