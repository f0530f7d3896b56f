// The three colour themes every screenshot is taken in. A theme is switched by writing the workspace's
// settings.json (as a user editing it would); the workbench applies it live.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export interface Theme {
  id: string;
  /** Screenshot name part. */
  file: string;
  /** The class the workbench carries while the theme is active. */
  workbenchClass: string;
}

export const THEMES: readonly Theme[] = [
  { id: 'Default Dark Modern', file: 'dark', workbenchClass: 'vs-dark' },
  { id: 'Default Light Modern', file: 'light', workbenchClass: 'vs' },
  { id: 'Default High Contrast', file: 'high-contrast', workbenchClass: 'hc-black' },
];

export async function useTheme(page: Page, workspace: string, theme: Theme): Promise<void> {
  const file = join(workspace, '.vscode', 'settings.json');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, JSON.stringify({ ...settings, 'workbench.colorTheme': theme.id }, null, 2));
  await page.locator(`.monaco-workbench.${theme.workbenchClass}`).first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(600); // webviews get the new colours a moment later
}
