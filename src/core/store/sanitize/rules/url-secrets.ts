// Secrets that stand in a URL or a connection string: the password of `scheme://user:password@host`
// (also with blanks a URL would encode), a token as its user, secret query parameters, `;Password=…;`.
// The scheme, host and user stay readable; only the `secret` group is redacted.
import { entropy, hasDigitAndLetter, isPlaceholder, type SecretRule } from './types';

/** A URL's host: a name, an IPv4 address or an IPv6 one in brackets. */
const URL_HOST = String.raw`(?:[A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])`;

/** `://user:` and a password holding single blanks up to the `@` before a host (what follows it is the caller's). */
const URL_WITH_BLANKS = String.raw`:\/\/[^\s:/@'"<>]{1,256}:(?<secret>[^\s'"<>][^\n\r\t'"<>]{0,126}?[^\s'"<>])@${URL_HOST}`;

/** In CONTEXT_RULES' order, first: a URL's password before any key rule reads it as a value. */
export const URL_RULES: readonly SecretRule[] = [
  {
    id: 'url-password',
    title: 'Password in a URL (scheme://user:password@host)',
    keywords: ['://'],
    // A password may hold `/` when an `@host` follows before any blank (only userinfo is followed by `@`):
    // `postgres://app:ab/Xk95@db`. A port and a path before an `@` (`https://host:443/@scope/pkg`) is none.
    pattern:
      /\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/[^\s:/@'"<>]{0,256}:(?<secret>[^\s/'"<>]{1,256}(?=@[\w[])|[^\s'"<>@]{1,256}(?=@[\w[]))@/g,
    accept: (s) => !isPlaceholder(s) && !/^\d{1,5}\//.test(s),
  },
  ...[
    // A password typed raw, with blanks a URL would encode (`postgres://admin:my secret pw@db:5432/app`).
    // Prose has such runs too (`http://user:pass and mail me@host.com`): up to four words, only before a
    // host that a port, a path or a query follows, or, for a scheme other than the web's, that ends the URL.
    String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}${URL_WITH_BLANKS}(?=:\d{1,5}(?![\w.])|[/?])`,
    String.raw`\b(?!(?:https?|ftp)\b)[a-zA-Z][a-zA-Z0-9+.-]{1,30}${URL_WITH_BLANKS}(?=["'\x60<>]|[ \t]*\r?$)`,
  ].map((source): SecretRule => ({
    id: 'url-password',
    title: 'Password with blanks in a URL (scheme://user:my secret pw@host:port/…)',
    keywords: ['://'],
    pattern: new RegExp(source, 'gm'),
    accept: (s) => /^\S+(?: \S+){1,3}$/.test(s) && !s.includes('://') && !isPlaceholder(s),
  })),
  {
    // A passphrase of five words or more (diceware's six) where a URL is a value, not a sentence's word:
    // at a line's start, after `=`, `: ` or a quote, its host followed by a port, path, query, quote or
    // the line's end. Prose with a URL and an address later (`see http://user:pass and then email
    // me@host.com/x`) has a word before the URL.
    id: 'url-password',
    title: 'Passphrase in a URL that is a value (DATABASE_URL=postgres://u:five words or more@db:5432/app)',
    keywords: ['://'],
    pattern: new RegExp(
      String.raw`\b(?=[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/)(?<=^[ \t]{0,8}|[="'\x60][ \t]{0,8}|:[ \t]{1,8})[a-zA-Z][a-zA-Z0-9+.-]{1,30}${URL_WITH_BLANKS}(?=:\d{1,5}(?![\w.])|[/?"'\x60]|[ \t]*\r?$)`,
      'gm',
    ),
    accept: (s) => /^\S+(?: \S+){4,15}$/.test(s) && !s.includes('://') && !isPlaceholder(s),
  },
  {
    // A token as the user with no password (Azure DevOps, GitHub: `https://<PAT>@dev.azure.com/…`): long
    // and random, unlike a user name (`git@`, `deploy@`).
    id: 'url-password',
    title: 'Token as the user of a URL (scheme://token@host)',
    keywords: ['://'],
    pattern: /\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}:\/\/(?<secret>[A-Za-z0-9_~-]{20,256})@(?=[\w[])/g,
    accept: (s) => !isPlaceholder(s) && hasDigitAndLetter(s) && entropy(s) >= 3.5,
  },
  {
    id: 'url-secret-param',
    title: 'Secret query parameters (?password=, &token=, access_token=, api_key=, sig=, X-Amz-Signature=, …)',
    keywords: [
      'password=',
      'passwd=',
      'pwd=',
      'pass=',
      'secret=',
      'token=',
      'key=',
      'sig=',
      'signature=',
      'auth=',
      'credential=',
      'credentials=',
    ],
    pattern:
      /[?&;](?:[\w.-]*[_.-])?(?:password|passwd|pwd|pass|secret|token|key|apikey|sig|signature|auth|credentials?)=(?<secret>[^&#;\s"'<>]{1,2048})/gi,
    accept: (s) => !isPlaceholder(decodeURIComponentSafe(s)),
  },

  {
    id: 'connection-string-password',
    title: 'Password in an ADO.NET / ODBC / JDBC connection string (…;Password=…;)',
    keywords: ['password', 'pwd='],
    // At a line start only in a line that goes on with `;` (`Password=…;Server=…`): elsewhere
    // `password = encryption_algorithm.password` is code, and a config line is the line rules' work.
    pattern: /(?:^(?=[^\n]*;)|;)[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?<secret>[^;\n"']+)/gim,
    // `password = getPassword();`, `password = getpass.getpass('Password: ');` are calls.
    accept: (s) => !isPlaceholder(s.trim()) && !/^[A-Za-z_$][\w$.]*\(/.test(s.trim()),
  },
];

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
