// Codicon classes inside shadow roots: the document's <link> to codicon.css declares the font (an
// @font-face only works at document level), but its class rules do not reach into shadow DOM, so each
// component adopts this one shared sheet.
import { css, unsafeCSS } from 'lit';
import codiconCss from '@vscode/codicons/dist/codicon.css';

export const codicons = [
  unsafeCSS(codiconCss.replace(/@font-face\s*\{[^}]*\}/g, '')),
  // Spinners stand still when the system asks for less motion (the loading icon still says it). Two
  // classes, as codicon.css's own rule (`.codicon-loading.codicon-modifier-spin`), and later: it wins.
  css`
    @media (prefers-reduced-motion: reduce) {
      .codicon.codicon-modifier-spin {
        animation: none;
      }
    }
  `,
];
