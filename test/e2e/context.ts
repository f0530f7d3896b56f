import type { Frame, Page } from 'playwright-core';

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

/** Webviews are nested iframes: returns the frame that shows the selector. */
export async function findFrame(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames())
      if (
        await f
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return f;
    await page.waitForTimeout(250);
  }
  throw new Error(`No frame shows ${selector} within ${timeoutMs} ms`);
}
