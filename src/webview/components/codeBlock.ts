// The look of command lines, arguments and output previews inside shadow roots: one sheet, adopted by
// each component that shows them (each sets its own margins and height).
import { css } from 'lit';

export const codeBlock = css`
  pre {
    padding: 4px 6px;
    overflow: auto;
    white-space: pre-wrap;
    word-break: break-all;
    font-family: var(--vscode-editor-font-family);
    font-size: var(--vscode-editor-font-size);
    background: var(--vscode-textCodeBlock-background);
  }
  /* A pre that scrolls is a Tab stop (Chromium 130+): the theme's ring, not the browser's near-black one. */
  pre:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: -1px;
  }
`;
