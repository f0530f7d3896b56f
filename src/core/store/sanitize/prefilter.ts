// Cheap prefilter in front of secretlint, so redaction keeps up with 50 MB/s of terminal output.
//
// Every rule of @secretlint/secretlint-rule-preset-recommend 11.7 (aws, gcp, npm, slack, basicauth,
// openai, anthropic, linear, privatekey, sendgrid, shopify, github, 1password,
// database-connection-string) can only match text that contains one of the literals below (checked
// case-insensitively, so this is a superset). Only the LINES that contain one go through secretlint;
// all other lines cannot hold anything the preset would report. Multi-line secrets (PEM blocks, a GCP
// key file) are caught by our own private-key rule, which always runs on the full text.
// If the preset is upgraded, extend this list: the test "prefilter never changes the result" checks it.
export const SECRETLINT_PREFILTER =
  /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|secret|account|private|x-oauth-basic|_authToken|npm_|xox[bpaor]|xapp|hooks\.slack|:\/\/|sk-|lin_api_|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|ops_ey|mongodb|mysql|postgres/gi;

/** The same literals as keywords of the rule engine's single pass (it tells when secretlint must run). */
export const SECRETLINT_KEYWORDS: readonly string[] = SECRETLINT_PREFILTER.source
  .replace('xox[bpaor]', 'xoxb|xoxp|xoxa|xoxo|xoxr')
  .replace('shp(?:pa|ca|at|ss)_', 'shppa_|shpca_|shpat_|shpss_')
  .replace('gh[pousr]_', 'ghp_|gho_|ghu_|ghs_|ghr_')
  .split('|')
  .map((k) => k.replace(/\\(.)/g, '$1'));

/** A run of whole lines copied from the original text into the view. */
interface Piece {
  viewStart: number;
  origStart: number;
  length: number;
}

/** The suspect lines of a text, concatenated, with the way back to original offsets. */
export interface SuspectView {
  view: string;
  pieces: Piece[];
}

/** Collects the lines that contain a prefilter literal (adjacent ones merged). */
export function suspectView(text: string): SuspectView {
  const pieces: Piece[] = [];
  let view = '';
  let coveredUpTo = 0;
  SECRETLINT_PREFILTER.lastIndex = 0;
  for (let m = SECRETLINT_PREFILTER.exec(text); m; m = SECRETLINT_PREFILTER.exec(text)) {
    const lineStart = m.index < coveredUpTo ? coveredUpTo : text.lastIndexOf('\n', m.index - 1) + 1;
    const nl = text.indexOf('\n', m.index);
    const lineEnd = nl === -1 ? text.length : nl + 1;
    const last = pieces[pieces.length - 1];
    if (last && last.origStart + last.length === lineStart) last.length += lineEnd - lineStart;
    else pieces.push({ viewStart: view.length, origStart: lineStart, length: lineEnd - lineStart });
    view += text.slice(lineStart, lineEnd);
    coveredUpTo = lineEnd;
    SECRETLINT_PREFILTER.lastIndex = lineEnd;
  }
  return { view, pieces };
}

/** Maps an offset in the view back to the original text. */
export function toOriginal(v: SuspectView, offset: number): number {
  let lo = 0;
  let hi = v.pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (v.pieces[mid]!.viewStart <= offset) lo = mid;
    else hi = mid - 1;
  }
  const p = v.pieces[lo];
  return p ? p.origStart + (offset - p.viewStart) : offset;
}
