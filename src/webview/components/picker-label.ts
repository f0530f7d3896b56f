// The composer's pickers. A native <select> shows its choice on one line cut at its edge: in a 110 px panel
// (220 px at 200 % zoom) a long model name showed its first letters only. Each picker is a <select> laid,
// transparent, over a label that wraps what it shows. The select keeps the clicks, the keys, the list
// and what screen readers hear; the label is hidden from them.
import { css } from 'lit';

export const pickerStyles = css`
  .pick {
    position: relative;
    display: inline-flex;
    align-items: flex-start;
    gap: 2px;
    box-sizing: border-box;
    min-width: 0;
    max-width: 100%;
    font-size: 0.9em;
    color: var(--vscode-descriptionForeground);
    border: 1px solid transparent;
    border-radius: 3px;
    padding: 1px 2px;
  }
  .pick .shown {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .pick .codicon {
    flex: none;
    font-size: 12px;
    line-height: inherit;
  }
  .pick select {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    margin: 0;
    opacity: 0;
    font: inherit;
    cursor: pointer;
  }
  .pick:hover,
  .pick:has(select:focus-visible) {
    color: var(--vscode-foreground);
    border-color: var(--vscode-dropdown-border, var(--vscode-widget-border, transparent));
  }
  /* An outline, not only a border colour: forced colours (Windows high contrast) draw every border alike. */
  .pick:has(select:focus-visible) {
    border-color: var(--vscode-focusBorder);
    outline: 1px solid var(--vscode-focusBorder);
    outline-offset: 0;
  }
  option {
    color: var(--vscode-dropdown-foreground);
    background: var(--vscode-dropdown-background);
  }
`;

/**
 * Copies each picker's shown option into its label: after a render, and after anything that changes the
 * select's value without a render (a key passing over the options, Escape or a refusal putting one back).
 */
export function showPicked(root: ParentNode): void {
  for (const pick of root.querySelectorAll('.pick')) {
    const select = pick.querySelector('select');
    const shown = pick.querySelector('.shown');
    const text = select?.selectedOptions[0]?.text ?? '';
    if (shown && shown.textContent !== text) shown.textContent = text;
  }
}
