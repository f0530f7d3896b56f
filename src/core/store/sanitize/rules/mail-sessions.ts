// Logons in a mail or file-transfer session as a client prints it (curl -v, swaks, openssl s_client,
// telnet, the debug output of Python's smtplib / imaplib / poplib, Ruby's Net::SMTP, PHPMailer, JavaMail): SMTP's AUTH PLAIN and AUTH LOGIN, IMAP's
// LOGIN, POP3's and FTP's USER then PASS. The commands are only read where a client sent them: at a
// line's start or a cell's, after a client's marker (`> `, ` ~> `, `C: `, `send: '`, `> b'`).
import { LINE_START } from './line-start';
import { ARG } from './shell-words';
import { isPlaceholder, type SecretRule } from './types';

/**
 * What a client's line starts with: blanks and marks (`> `, ` -> `, ` ~> `, `<- "`, `*cmd* `), a speaker
 * (`C:`, `send:`, PHPMailer's `CLIENT -> SERVER:`), a time (imaplib's `  12:00.00 > `), a bytes
 * literal's quote (`b'`); where a line starts (see LINE_START: a cell or a string that holds the session
 * too). Bounded, so a line of marks stays linear.
 */
const CLIENT = String.raw`${LINE_START}[^\w\n]{0,8}(?:(?:C:|send:|\*cmd\*|CLIENT -> SERVER:|\d\d:\d\d[.:]\d\d)[^\w\n]{0,8})?(?:b?['"])?`;

/** Where a client's line ends: its `\r\n` as Python prints it, the closing quote, blanks. */
const LINE_END = String.raw`(?:\\r\\n)?['"]?[ \t]*\r?$`;

/** Where a client's command of one line ends: also a cell's tab or the quote or `|` after it. */
const COMMAND_END = String.raw`(?=\\r\\n|\t|[ ]*\r?(?:$|["'|]))`;

/** A base64 word alone. */
const BASE64 = String.raw`[A-Za-z0-9+/]{4,}={0,2}`;

/** A line that holds nothing but a client's base64 word. */
const BASE64_LINE = String.raw`${CLIENT}(?<secret>${BASE64})${LINE_END}`;

/** The base64 as bytes in a string, or undefined when it is not base64. */
function decode(s: string): string | undefined {
  if (s.length % 4 === 1) return undefined;
  try {
    return atob(s.padEnd(Math.ceil(s.length / 4) * 4, '='));
  } catch {
    return undefined;
  }
}

/** SASL PLAIN's message: `[authzid] NUL user NUL password`, the password not empty. */
function plainMessage(s: string): boolean {
  const parts = decode(s)?.split('\0');
  return parts?.length === 3 && parts[1] !== '' && parts[2] !== '';
}

/** Base64 of text, as AUTH LOGIN's password is sent (not a stand-in). */
function base64Text(s: string): boolean {
  const text = decode(s);
  return text !== undefined && text !== '' && !/[\0-\x08\x0e-\x1f]/.test(text) && !isPlaceholder(text);
}

export const MAIL_SESSION_RULES: readonly SecretRule[] = [
  {
    // Only a real PLAIN message is taken (decoded: user NUL password), so a word after AUTH PLAIN in prose is not.
    id: 'sasl-plain',
    title: 'SASL PLAIN logons (SMTP AUTH PLAIN, IMAP AUTHENTICATE PLAIN, Dovecot resp=): user and password',
    keywords: ['auth plain', 'authenticate plain', 'resp='],
    pattern: new RegExp(
      String.raw`(?:\bAUTH(?:ENTICATE)?[ \t]+PLAIN[ \t]+|\bPLAIN\b[^\n]{0,512}?\bresp=)(?<secret>${BASE64})(?![\w+/=])`,
      'gi',
    ),
    accept: plainMessage,
  },
  {
    // The message on a line of its own after the server's empty challenge (`334`, IMAP's `+`).
    id: 'sasl-plain',
    title: 'SASL PLAIN logons sent after the challenge (AUTH PLAIN, 334, then the message)',
    keywords: ['auth plain', 'authenticate plain'],
    multiline: true,
    pattern: new RegExp(
      String.raw`\bAUTH(?:ENTICATE)?[ \t]+PLAIN${LINE_END}\n(?:[^\n]{0,80}\n){0,2}?${BASE64_LINE}`,
      'gim',
    ),
    accept: plainMessage,
  },
  {
    // `334 UGFzc3dvcmQ6` is "Password:" in base64: the client's next line is the password, in base64.
    id: 'sasl-login',
    title: 'SMTP AUTH LOGIN passwords (the base64 line after 334 UGFzc3dvcmQ6, "Password:")',
    keywords: ['UGFzc3dvcmQ6', 'cGFzc3dvcmQ6'],
    exactKeywords: true,
    multiline: true,
    pattern: new RegExp(
      String.raw`\b334[ \t]+[Uc]GFzc3dvcmQ6[^\n]{0,16}\n(?:[^\n]{0,80}[Uc]GFzc3dvcmQ6[^\n]{0,16}\n)?${BASE64_LINE}`,
      'gm',
    ),
    accept: base64Text,
  },
  {
    // A tag with a digit (`a001`, imaplib's `JHNB1`) or `.`, so prose ("then login as root") is not one.
    id: 'mail-password',
    title: 'IMAP LOGIN passwords (a001 LOGIN user password)',
    keywords: ['login'],
    pattern: new RegExp(
      String.raw`${CLIENT}(?:[A-Za-z]{0,8}\d{1,6}|\.)[ \t]+LOGIN[ \t]+${ARG}[ \t]+(?<secret>${ARG})${COMMAND_END}`,
      'gim',
    ),
    accept: (s) => !isPlaceholder(s),
  },
  {
    // POP3 and FTP: USER, the server's reply, then PASS with the rest of the line (a POP3 password may
    // hold blanks). Only after USER, so a test runner's `PASS src/app.test.ts` is not read as one. In
    // capitals, as clients send them: `pass ` and `user ` are common words, and each hit reads the text.
    id: 'mail-password',
    title: 'POP3 and FTP passwords (USER name, then PASS password)',
    keywords: ['USER '],
    exactKeywords: true,
    multiline: true,
    pattern: new RegExp(
      String.raw`${CLIENT}USER[ \t]+[^\s'"]+${LINE_END}\n(?:[^\n]{0,200}\n){0,2}?${CLIENT}PASS[ \t]+(?<secret>[^\s'"\\][^\n]*?)${LINE_END}`,
      'gm',
    ),
    accept: (s) => !isPlaceholder(s),
  },
];
