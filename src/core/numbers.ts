// Numbers as text, the way `toLocaleString('en-US', ...)` writes them, without Intl. The first Intl
// number format (or collator) a process makes pages in ICU's data from node's binary: +4.6 MB of RSS in
// the extension host for the rest of the window (measured, README), to put commas in "12,345 tokens".
// Rounding is Intl's: the shortest decimal that reads back as the number (what String(n) writes), halves
// away from zero, so $0.015 is $0.02 where toFixed gives $0.01 (0.015 is 0.01499999... in binary).
// test/unit/numbers.test.ts holds these equal to Intl's output.

/** A decimal as digits (no leading or trailing zeros) and where the point goes: 0.d1d2... x 10^point. */
interface Decimal {
  negative: boolean;
  digits: string;
  point: number;
}

function decimalOf(n: number): Decimal {
  const negative = n < 0 || Object.is(n, -0);
  const [mantissa = '', exponent = '0'] = String(Math.abs(n)).split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return { negative, digits, point: digits === '' ? 0 : point };
}

/** `d` with only its first `keep` digits, the rest rounded half away from zero. */
function keepDigits(d: Decimal, keep: number): Decimal {
  if (keep >= d.digits.length) return d;
  if (keep < 0) return { ...d, digits: '', point: 0 };
  const up = d.digits.charCodeAt(keep) >= 53; // '5'
  let digits = d.digits.slice(0, keep);
  let point = d.point;
  if (up) {
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === '9') i--;
    if (i < 0) {
      digits = '1';
      point++;
    } else digits = digits.slice(0, i) + String(Number(digits[i]) + 1);
  }
  digits = digits.replace(/0+$/, '');
  return { ...d, digits, point: digits === '' ? 0 : point };
}

function group(whole: string): string {
  let out = '';
  for (let i = whole.length; i > 0; i -= 3) out = whole.slice(Math.max(0, i - 3), i) + (out ? `,${out}` : '');
  return out;
}

function write(d: Decimal, minFraction: number, grouping: boolean): string {
  const whole = d.point <= 0 ? '0' : d.digits.slice(0, d.point).padEnd(d.point, '0');
  const fraction = (d.point < 0 ? '0'.repeat(-d.point) + d.digits : d.digits.slice(Math.max(0, d.point))).padEnd(
    minFraction,
    '0',
  );
  return `${d.negative ? '-' : ''}${grouping ? group(whole) : whole}${fraction ? `.${fraction}` : ''}`;
}

function special(n: number): string | undefined {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '\u221e';
  if (n === -Infinity) return '-\u221e';
  return undefined;
}

export interface DecimalOptions {
  /** Fewest decimals written (zeros added): 0 by default. */
  minFraction?: number;
  /** Most decimals kept, the rest rounded: 3 by default, as Intl's. */
  maxFraction?: number;
  /** Commas between thousands: on by default. */
  grouping?: boolean;
}

/** `n` as `n.toLocaleString('en-US', { minimumFractionDigits, maximumFractionDigits, useGrouping })` writes it. */
export function formatDecimal(
  n: number,
  { minFraction = 0, maxFraction = 3, grouping = true }: DecimalOptions = {},
): string {
  const d = decimalOf(n);
  return special(n) ?? write(keepDigits(d, d.point + Math.max(minFraction, maxFraction)), minFraction, grouping);
}

/** `n` as `n.toLocaleString('en-US')` writes it: "12,345", "0.333". */
export function formatCount(n: number): string {
  return formatDecimal(n);
}

/** `n` with at most `digits` significant digits, as `toLocaleString('en-US', { maximumSignificantDigits })`. */
export function formatSignificant(n: number, digits: number): string {
  return special(n) ?? write(keepDigits(decimalOf(n), digits), 0, true);
}

/** Text order that is the same on every machine (no locale): case folded first, then by code unit. */
export function compareText(a: string, b: string): number {
  const fa = a.toLowerCase();
  const fb = b.toLowerCase();
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `2026-11-23 10:04:12`, local time: readable without Intl (whose date formats page in the same data). */
export function localTime(d: Date): string {
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
