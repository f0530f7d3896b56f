// Workspace trust, the parts without VS Code: the API key bound to its endpoint origin, the Restricted
// Mode guard on the agent's commands and edits, and the manifest's restricted settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { SecretStorage } from 'vscode';
import {
  apiKeyFor,
  keyBoundTo,
  KeyOriginDeclined,
  storeApiKey,
  type AskOrigin,
} from '../../../src/extension/agent/keyOrigin';
import { guardHostPorts, RESTRICTED_MODE_MESSAGE } from '../../../src/extension/trust';
import { silentLogger } from '../../../src/core/ports';

/** SecretStorage's contract over a Map (the real one is VS Code's; the integration tests use it). */
function secrets(): SecretStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (k: string) => map.get(k),
    store: async (k: string, v: string) => void map.set(k, v),
    delete: async (k: string) => void map.delete(k),
    onDidChange: (() => ({ dispose() {} })) as unknown as SecretStorage['onDidChange'],
  };
}

function asking(answer: 'once' | 'rebind' | undefined): AskOrigin & { calls: string[][] } {
  const calls: string[][] = [];
  const ask = (async (bound: string, requested: string) => {
    calls.push([bound, requested]);
    return answer;
  }) as unknown as AskOrigin & { calls: string[][] };
  ask.calls = calls;
  return ask;
}

const KEY = ['sk', 'test', 'not', 'a', 'real', 'key'].join('-');
const mine = { url: 'https://api.openai.com/v1', fromWorkspace: false };
const evil = { url: 'https://evil.example/v1', fromWorkspace: true };

test('a key goes without asking to the origin it was set for', async () => {
  const s = secrets();
  await storeApiKey(s, 'openai-compatible', KEY, 'https://api.openai.com');
  const ask = asking(undefined);
  assert.equal(await apiKeyFor(s, 'openai-compatible', { ...mine, url: 'https://api.openai.com/v2/x' }, ask), KEY);
  assert.deepEqual(ask.calls, []);
});

test('another origin asks, naming both; declining sends nothing; "from now on" rebinds', async () => {
  const s = secrets();
  await storeApiKey(s, 'openai-compatible', KEY, 'https://api.openai.com');
  const no = asking(undefined);
  await assert.rejects(apiKeyFor(s, 'openai-compatible', evil, no), KeyOriginDeclined);
  assert.deepEqual(no.calls, [['https://api.openai.com', 'https://evil.example']]);
  assert.equal(await apiKeyFor(s, 'openai-compatible', evil, asking('once')), KEY);
  assert.equal(s.map.get('contextDesk.agent.apiKey.origin'), 'https://api.openai.com', '"once" does not rebind');
  assert.equal(await apiKeyFor(s, 'openai-compatible', evil, asking('rebind')), KEY);
  assert.equal(await apiKeyFor(s, 'openai-compatible', evil, asking(undefined)), KEY, 'rebound: no question');
});

test('a key from before binding is bound to a user-chosen endpoint silently, and asks for a workspace one', async () => {
  const s = secrets();
  s.map.set('contextDesk.agent.apiKey.anthropic', KEY);
  const ask = asking(undefined);
  await assert.rejects(apiKeyFor(s, 'anthropic', evil, ask), KeyOriginDeclined);
  assert.equal(ask.calls.length, 1);
  assert.equal(await apiKeyFor(s, 'anthropic', { url: 'https://api.anthropic.com', fromWorkspace: false }, ask), KEY);
  assert.equal(s.map.get('contextDesk.agent.apiKey.anthropic.origin'), 'https://api.anthropic.com');
  await storeApiKey(s, 'anthropic', '', 'x');
  assert.deepEqual([...s.map.keys()], [], 'removing the key removes its binding');
  assert.equal(await apiKeyFor(s, 'anthropic', evil, ask), undefined);
});

test('Test connection gets a stored key only for its bound origin; an unbound key never for a workspace endpoint', async () => {
  const s = secrets();
  // A key stored before keys were bound; a cloned repository's settings point the endpoint elsewhere.
  s.map.set('contextDesk.agent.apiKey', KEY);
  assert.equal(await keyBoundTo(s, 'openai-compatible', 'https://evil.example', evil), undefined);
  assert.equal(await keyBoundTo(s, 'openai-compatible', 'https://evil.example', undefined), undefined);
  assert.equal(await keyBoundTo(s, 'openai-compatible', 'https://api.openai.com', mine), KEY, 'the user chose it');
  assert.equal(await keyBoundTo(s, 'openai-compatible', 'https://evil.example', mine), undefined);
  await storeApiKey(s, 'openai-compatible', KEY, 'https://api.openai.com');
  assert.equal(
    await keyBoundTo(s, 'openai-compatible', 'https://api.openai.com', evil),
    KEY,
    'bound: where it belongs',
  );
  assert.equal(await keyBoundTo(s, 'openai-compatible', 'https://evil.example', evil), undefined);
});

test('Restricted Mode refuses the agent’s commands and edits, checked at each call', async () => {
  let trusted = false;
  const ran: string[] = [];
  const ports = guardHostPorts(
    {
      edit: {
        edit: async (_r, _c, recheck) => (ran.push('edit'), { ok: true, text: (await recheck?.()) ?? 'edited' }),
      },
      command: { run: async () => (ran.push('command'), { ok: true, text: 'ran' }) },
    },
    () => trusted,
    silentLogger,
  );
  const ctx = {} as Parameters<typeof ports.command.run>[1];
  const req = { command: 'rm -rf /', cwd: '/', timeoutMs: 1 };
  assert.deepEqual(await ports.command.run(req, ctx), { ok: false, text: RESTRICTED_MODE_MESSAGE });
  assert.equal((await ports.edit.edit({} as Parameters<typeof ports.edit.edit>[0], ctx)).ok, false);
  assert.deepEqual(ran, []);
  trusted = true;
  assert.equal((await ports.command.run(req, ctx)).text, 'ran');
  assert.deepEqual(ran, ['command']);
  // The check again at apply time reaches the host's port (it refuses a hard link made meanwhile).
  const edit = ports.edit.edit({} as Parameters<typeof ports.edit.edit>[0], ctx, async () => 'now a hard link');
  assert.equal((await edit).text, 'now a hard link');
});

test('every setting that can send data elsewhere, run code or relax a safeguard is restricted', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  const u = pkg.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  for (const key of [
    'storeFolder',
    'mcp.servers',
    'skills.folders',
    'agent.provider',
    'agent.baseUrl',
    'agent.anthropicBaseUrl',
    'agent.approveCommands',
    'agent.budgetTokens',
    'agent.budgetMode',
    'agent.maxTurns',
    'agent.maxOutputTokens',
    'agent.model',
    'agent.summaryModel',
    'agent.contextWindow',
  ])
    assert.ok(u.restrictedConfigurations.includes(`contextDesk.${key}`), key);
  for (const k of u.restrictedConfigurations) assert.ok(k in pkg.contributes.configuration.properties, `${k} exists`);
});

test('a workspace cannot relax a safeguard, trusted or not: those settings are application-wide', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const props = pkg.contributes.configuration.properties;
  const userOnly = [
    'agent.approveCommands',
    'agent.autoApproveReadOnlyMcpTools',
    'redaction.patterns',
    // The prices every cost figure and the cache-aware strategy use: a repository cannot make a model look cheap.
    'prices',
    'cachedInputPrice',
    'cacheWritePrice',
  ];
  for (const key of userOnly) assert.equal(props[`contextDesk.${key}`]?.scope, 'application', key);
});

test('the webview CSP forbids form submission and frames', () => {
  const view = readFileSync('src/extension/agentView.ts', 'utf8');
  assert.match(view, /"form-action 'none'"/);
  assert.match(view, /"frame-src 'none'"/);
  assert.match(view, /"default-src 'none'"/);
});
