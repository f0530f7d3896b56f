// Composes the README's screenshot from the e2e run's pictures (run `npm run test:e2e` first): the Agent
// panel as the sidebar shows it, side by side: a masked observation, the setup form after Test
// connection, and History. Writes media/screenshot-agent-panel.png.
import { readFileSync } from 'node:fs';
import { launchBrowser } from './lib/browser';

const SHOTS = [
  [
    'test-results/agent-panel-masked.png',
    'A long task: a masked observation and the link to its file, the one-line meter',
  ],
  ['test-results/setup-test-connection-ok.png', 'The setup form after Test connection'],
  ['test-results/history.png', 'History: each session titled by its first instruction, with its cost'],
] as const;

async function main(): Promise<void> {
  const figures = SHOTS.map(
    ([file, caption]) =>
      `<figure><div class="crop"><img src="data:image/png;base64,${readFileSync(file).toString('base64')}"></div><figcaption>${caption}</figcaption></figure>`,
  ).join('');
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1160, height: 600 }, deviceScaleFactor: 1 });
    await page.setContent(`<style>
      body { margin: 0; padding: 16px; background: #1f1f1f; display: flex; gap: 16px; font: 13px system-ui, sans-serif; color: #ccc; }
      figure { margin: 0; width: 360px; } .crop { width: 360px; height: 520px; overflow: hidden; border: 1px solid #3c3c3c; }
      figcaption { margin-top: 6px; line-height: 1.35; }
    </style><body>${figures}</body>`);
    await page.screenshot({ path: 'media/screenshot-agent-panel.png', fullPage: true });
  } finally {
    await browser.close();
  }
  console.log('wrote media/screenshot-agent-panel.png');
}

void main();
