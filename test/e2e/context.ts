import type { Page } from 'playwright-core';

/** What each e2e scenario gets: a workbench page with the extension installed, and a screenshot helper. */
export interface E2eContext {
  page: Page;
  workspace: string;
  screenshot(name: string): Promise<string>;
}

export interface E2eScenario {
  name: string;
  run(ctx: E2eContext): Promise<void>;
}
