// `npm run package`: the VSIX, offline. The project has no public repository, so the README that goes
// into the VSIX carries its images inline (data: URLs of the PNGs in media/): VS Code's extension details
// page shows them from the VSIX alone, with no repository or image host to fetch from. The README in the
// checkout keeps its ordinary relative links.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { spawnSync } from 'node:child_process';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};
const OUT = 'dist/context-desk.vsix';

/** Relative image links (Markdown `![alt](path)`) become data: URLs; anything else is left as written. */
export function inlineImages(markdown: string, read: (path: string) => Buffer): string {
  return markdown.replace(/!\[([^\]]*)\]\(((?!\w+:)[^)\s]+)\)/g, (whole, alt: string, path: string) => {
    const type = TYPES[extname(path).toLowerCase()];
    const clean = normalize(path);
    if (!type || clean.startsWith('..')) return whole;
    return `![${alt}](data:${type};base64,${read(clean).toString('base64')})`;
  });
}

function main(): number {
  mkdirSync('dist', { recursive: true });
  const readme = join('dist', 'vsix-readme.md');
  writeFileSync(
    readme,
    inlineImages(readFileSync('README.md', 'utf8'), (p) => readFileSync(p)),
  );
  const r = spawnSync(
    'npx',
    [
      'vsce',
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      // The README's redaction example (`postgres://app:[REDACTED:url-password]@db...`) reads as a
      // connection string to vsce's scanner; only that one rule is allowed, every other one still stops it.
      '--allow-package-secrets',
      'database-connection-string',
      '--readme-path',
      readme,
      '--out',
      OUT,
    ],
    { stdio: 'inherit' },
  );
  return r.status ?? 1;
}

if (require.main === module) process.exit(main());
