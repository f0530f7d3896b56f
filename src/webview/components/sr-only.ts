// Text read by screen readers and not shown (`.sr-only`): one sheet, adopted by each component with such
// text, as buttons.ts is.
import { css } from 'lit';

export const srOnly = css`
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
