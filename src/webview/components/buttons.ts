// Buttons in the theme's colours inside shadow roots: one sheet, adopted by each component that has them
// (`.primary`, `.secondary`, `.link`). Native buttons keep keyboard and screen-reader behaviour.
import { css } from 'lit';

export const buttons = css`
  button.primary,
  button.secondary {
    display: inline-flex;
    align-items: center;
    gap: 5px;
    padding: 4px 10px;
    font: inherit;
    border: 1px solid var(--vscode-button-border, transparent);
    border-radius: 2px;
    cursor: pointer;
    /* A narrow panel (110 px, 220 at 200 % zoom) wraps the label inside the button, not past the edge. */
    max-width: 100%;
    box-sizing: border-box;
    text-align: start;
    overflow-wrap: anywhere;
  }
  button:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 2px;
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  .primary {
    color: var(--vscode-button-foreground);
    background: var(--vscode-button-background);
  }
  .primary:hover:not(:disabled) {
    background: var(--vscode-button-hoverBackground);
  }
  .secondary {
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
  }
  .secondary:hover:not(:disabled) {
    background: var(--vscode-button-secondaryHoverBackground);
  }
  button.link {
    padding: 0;
    font: inherit;
    color: var(--vscode-textLink-foreground);
    background: none;
    border: none;
    cursor: pointer;
    text-decoration: underline;
  }
  button.link:hover {
    color: var(--vscode-textLink-activeForeground);
  }
`;
