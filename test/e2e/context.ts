import type { Page } from 'playwright-core';

/** What each e2e scenario gets: a workbench page with the extension installed, and a screenshot helper. */
export interface E2eContext {
  page: Page;
  workspace: string;
  screenshot(name: string): Promise<string>;
}

export interface E2eScenario {
  name: string;
  /** Runs before VS Code opens the workspace (write settings, start servers); returns a cleanup. */
  setup?(workspace: string): Promise<(() => Promise<void>) | void>;
  run(ctx: E2eContext): Promise<void>;
}
