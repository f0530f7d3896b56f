// Code and manifest agree on settings: every key the code reads is declared in package.json with the
// same default, and every declared key is read by the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  SECTION,
  SETTINGS,
  readSettings,
  sessionSettings,
  stricterMode,
  tighterBudget,
} from '../../src/extension/settings';
import { findFiles } from '../../scripts/lib/files';

interface Property {
  type: string | string[];
  default: unknown;
  enum?: unknown[];
}
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } };
};
const declared = manifest.contributes.configuration.properties;

test('every setting in the code is declared in package.json with the same default', () => {
  for (const [key, spec] of Object.entries(SETTINGS)) {
    const property = declared[`${SECTION}.${key}`];
    assert.ok(property, `${SECTION}.${key} is declared in package.json`);
    assert.deepEqual(property.default, spec.default, `${SECTION}.${key} has the same default`);
    if (property.enum)
      assert.ok(property.enum.includes(spec.default), `${SECTION}.${key}'s default is one of its enum values`);
  }
});

test('every setting declared in package.json is read by the code', () => {
  const inCode = new Set(Object.keys(SETTINGS).map((k) => `${SECTION}.${k}`));
  for (const key of Object.keys(declared)) assert.ok(inCode.has(key), `${key} is declared but the code never reads it`);
});

test('declared types match the defaults', () => {
  for (const [key, property] of Object.entries(declared)) {
    const actual = Array.isArray(property.default)
      ? 'array'
      : property.default === null
        ? 'null'
        : typeof property.default;
    const types = (Array.isArray(property.type) ? property.type : [property.type]).map((t: string) =>
      t === 'integer' ? 'number' : t,
    );
    assert.ok(types.includes(actual), `${key}: default ${JSON.stringify(property.default)} is a ${types.join(' or ')}`);
  }
});

test('the code reads configuration only through the settings table', () => {
  for (const file of findFiles('src', '.ts')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/getConfiguration\(([^)]*)\)/g)) {
      // VS Code's terminal settings are read (never declared or written) only to match what it shows.
      if (m[1] === 'TERMINAL_SECTION') continue;
      assert.equal(m[1], 'SECTION', `${file} reads configuration section ${m[1] || '(all)'}; use settings.ts`);
    }
    for (const m of text.matchAll(/affectsConfiguration\('([^']+)'\)/g)) {
      assert.ok(m[1] === SECTION || m[1]! in declared, `${file} watches undeclared setting ${m[1]}`);
    }
  }
});

test('readSettings falls back to the default for a value of the wrong type', () => {
  const values: Record<string, unknown> = { strategy: 42, maskingWindow: 5 };
  const s = readSettings({ get: <T>(key: string, fallback?: T) => (key in values ? values[key] : fallback) as T });
  assert.equal(s.strategy, SETTINGS.strategy.default);
  assert.equal(s.maskingWindow, 5);
  assert.equal(s.tokenizer, SETTINGS.tokenizer.default);
});

test("the agent takes only the strategies it offers: replay's retry-filter, typed into the setting, is the default", () => {
  const read = (strategy: string) =>
    readSettings({ get: <T>(key: string, fallback?: T) => (key === 'strategy' ? strategy : fallback) as T });
  assert.equal(sessionSettings(read('retry-filter')).strategy, 'cache-aware');
  assert.equal(sessionSettings(read('no-such')).strategy, 'cache-aware');
  for (const name of ['cache-aware', 'masking', 'raw', 'summary', 'hybrid', 'sliding-window'])
    assert.equal(sessionSettings(read(name)).strategy, name);
});

test('a workspace can tighten the money limits, never lift them: budget, its mode, turns per message', () => {
  type Layers = { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown };
  const read = (layers: Record<string, Layers>) =>
    readSettings({
      get: <T>(key: string, fallback?: T) => {
        const l = layers[key];
        return (l?.workspaceFolderValue ?? l?.workspaceValue ?? l?.globalValue ?? fallback) as T;
      },
      inspect: ((key: string) => ({ key, ...(layers[key] ?? {}) }) as { key: string } & Layers) as never,
    });
  // The user's budget of 1,000 stays when a repository asks for more, or for none (0).
  assert.equal(read({ 'agent.budgetTokens': { globalValue: 1000, workspaceValue: 1e9 } })['agent.budgetTokens'], 1000);
  assert.equal(read({ 'agent.budgetTokens': { globalValue: 1000, workspaceValue: 0 } })['agent.budgetTokens'], 1000);
  assert.equal(
    read({ 'agent.budgetTokens': { globalValue: 1000, workspaceFolderValue: 1e9 } })['agent.budgetTokens'],
    1000,
  );
  // A lower one, or one where the user set none, applies.
  assert.equal(read({ 'agent.budgetTokens': { globalValue: 1000, workspaceValue: 10 } })['agent.budgetTokens'], 10);
  assert.equal(read({ 'agent.budgetTokens': { workspaceValue: 500 } })['agent.budgetTokens'], 500);
  assert.equal(read({ 'agent.budgetTokens': { globalValue: 1000 } })['agent.budgetTokens'], 1000);
  // Modes: hard > approval > soft.
  assert.equal(
    read({ 'agent.budgetMode': { globalValue: 'hard', workspaceValue: 'soft' } })['agent.budgetMode'],
    'hard',
  );
  assert.equal(
    read({ 'agent.budgetMode': { workspaceValue: 'soft' } })['agent.budgetMode'],
    'hard',
    'the default is hard',
  );
  assert.equal(
    read({ 'agent.budgetMode': { globalValue: 'soft', workspaceValue: 'approval' } })['agent.budgetMode'],
    'approval',
  );
  // Turns: the lower.
  assert.equal(read({ 'agent.maxTurns': { workspaceValue: 100000 } })['agent.maxTurns'], 50);
  assert.equal(read({ 'agent.maxTurns': { globalValue: 200, workspaceValue: 20 } })['agent.maxTurns'], 20);
  // A workspace value VS Code ignores (Restricted Mode: get() returns the user's) takes no effect.
  const restricted = readSettings({
    get: <T>(key: string, fallback?: T) => (key === 'agent.maxTurns' ? 200 : fallback) as T,
    inspect: ((key: string) => ({
      key,
      globalValue: 200,
      workspaceValue: key === 'agent.maxTurns' ? 1 : undefined,
    })) as never,
  });
  assert.equal(restricted['agent.maxTurns'], 200);
  // Other settings: the workspace wins as usual.
  assert.equal(read({ strategy: { globalValue: 'raw', workspaceValue: 'masking' } }).strategy, 'masking');
  assert.equal(tighterBudget(0, 0), 0);
  assert.equal(stricterMode('approval', 'bogus'), 'approval');
});
