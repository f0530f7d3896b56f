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
  /** User settings (application-wide ones such as `contextDesk.agent.approveCommands` only apply here). */
  userSettings?: Record<string, unknown>;
  /** Browser size (default 1440x900, the size the layout is checked at). */
  viewport?: { width: number; height: number };
  /** Starts its own VS Code (e.g. through `npm start`): the runner opens no workbench. */
  standalone?: boolean;
  run(ctx: E2eContext): Promise<void>;
}

/** Opens the Context Desk container and returns the frame of the Agent panel once it shows `selector`. */
export async function openAgentPanel(page: Page, selector = 'cd-app main'): Promise<Frame> {
  const item = page.locator('.activitybar [aria-label^="Context Desk"]').first();
  await item.waitFor({ state: 'visible', timeout: 90_000 });
  // Clicking the item of the container already shown would hide the sidebar.
  const shown = page.locator('.part.sidebar .composite.title', { hasText: /context desk/i });
  if (!(await shown.isVisible().catch(() => false))) await item.click();
  return findFrame(page, selector, 90_000);
}

/** Runs a command from the palette (F1), by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/**
 * True when a click at the centre of the panel element `testid` would reach it: the innermost element
 * at that point, through shadow roots, is the element or inside it (nothing painted over it). A plain
 * script string, so no bundler helper reaches the page.
 */
export function reachable(frame: Frame, testid: string): Promise<boolean> {
  return frame.evaluate(`(() => {
    const find = (root) => {
      const hit = root.querySelector('[data-testid=${JSON.stringify(testid)}]');
      if (hit) return hit;
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
      return null;
    };
    const target = find(document);
    if (!target) return false;
    const r = target.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    let root = document, hit = null;
    for (;;) {
      const next = root.elementFromPoint(x, y);
      if (!next || next === hit) break;
      hit = next;
      if (!hit.shadowRoot) break;
      root = hit.shadowRoot;
    }
    for (let e = hit; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null)
      if (e === target) return true;
    return false;
  })()`) as Promise<boolean>;
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

/** The conversation is virtualized: scroll it up until the locator is rendered. */
export async function scrollUntil(frame: Frame, target: ReturnType<Frame['locator']>): Promise<void> {
  const log = frame.locator('[data-testid="conversation"]');
  for (let i = 0; i < 60 && (await target.count()) === 0; i++) {
    await log.evaluate((el) => el.scrollBy(0, -400));
    await frame.page().waitForTimeout(100);
  }
  await target.first().scrollIntoViewIfNeeded();
}
