// Logons printed by mail and file-transfer clients (curl -v, swaks, openssl s_client, Python's
// smtplib / imaplib / poplib debug output): the password goes, the user and the session stay readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';
import { assertStreamedAsWhole } from './helpers';

const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;
const b64 = (s: string): string => Buffer.from(s, 'latin1').toString('base64');
const PLAIN = b64('\0alice@example.com\0Xk9m-Q2vL p7Rt');
const PASSWORD = b64('Xk9m-Q2vL p7Rt');

test('SMTP, IMAP, POP3 and FTP logons lose their password, wherever the client prints them', async () => {
  const cases: [string, string][] = [
    // SASL PLAIN on the command's line: curl -v, swaks, smtplib, IMAP's SASL-IR, Dovecot's auth debug log.
    [`> AUTH PLAIN ${PLAIN}`, '> AUTH PLAIN [REDACTED:sasl-plain]'],
    [` ~> AUTH PLAIN ${PLAIN}`, ' ~> AUTH PLAIN [REDACTED:sasl-plain]'],
    [`send: 'AUTH PLAIN ${PLAIN}\\r\\n'`, `send: 'AUTH PLAIN [REDACTED:sasl-plain]\\r\\n'`],
    [`A002 AUTHENTICATE PLAIN ${PLAIN}`, 'A002 AUTHENTICATE PLAIN [REDACTED:sasl-plain]'],
    [
      `auth: Debug: client in: AUTH\t1\tPLAIN\tservice=imap\tsecured\tresp=${PLAIN}`,
      'auth: Debug: client in: AUTH\t1\tPLAIN\tservice=imap\tsecured\tresp=[REDACTED:sasl-plain]',
    ],
    // After the server's empty challenge.
    [`C: AUTH PLAIN\nS: 334\nC: ${PLAIN}`, 'C: AUTH PLAIN\nS: 334\nC: [REDACTED:sasl-plain]'],
    [`a1 AUTHENTICATE PLAIN\n+ \n${PLAIN}\na1 OK`, 'a1 AUTHENTICATE PLAIN\n+ \n[REDACTED:sasl-plain]\na1 OK'],
    // AUTH LOGIN: the line after `334 UGFzc3dvcmQ6` ("Password:"); the user name before it stays.
    [
      `AUTH LOGIN\n334 VXNlcm5hbWU6\nYWxpY2U=\n334 UGFzc3dvcmQ6\n${PASSWORD}\n235 2.7.0 Authentication successful`,
      'AUTH LOGIN\n334 VXNlcm5hbWU6\nYWxpY2U=\n334 UGFzc3dvcmQ6\n[REDACTED:sasl-login]\n235 2.7.0 Authentication successful',
    ],
    [
      `reply: b'334 UGFzc3dvcmQ6\\r\\n'\nreply: retcode (334); Msg: b'UGFzc3dvcmQ6'\nsend: '${PASSWORD}\\r\\n'`,
      `reply: b'334 UGFzc3dvcmQ6\\r\\n'\nreply: retcode (334); Msg: b'UGFzc3dvcmQ6'\nsend: '[REDACTED:sasl-login]\\r\\n'`,
    ],
    [`<~  334 UGFzc3dvcmQ6\n ~> ${PASSWORD}`, '<~  334 UGFzc3dvcmQ6\n ~> [REDACTED:sasl-login]'],
    // PHPMailer's debug output behind its time, Ruby's Net::SMTP debug_output.
    [
      `2026-11-26 07:00:00\tSERVER -> CLIENT: 334 UGFzc3dvcmQ6\n2026-11-26 07:00:00\tCLIENT -> SERVER: ${PASSWORD}`,
      '2026-11-26 07:00:00\tSERVER -> CLIENT: 334 UGFzc3dvcmQ6\n2026-11-26 07:00:00\tCLIENT -> SERVER: [REDACTED:sasl-login]',
    ],
    [
      `-> "334 UGFzc3dvcmQ6\\r\\n"\n<- "${PASSWORD}\\r\\n"`,
      '-> "334 UGFzc3dvcmQ6\\r\\n"\n<- "[REDACTED:sasl-login]\\r\\n"',
    ],
    // IMAP LOGIN: curl, imaplib (quoted, with a time), typed at openssl s_client.
    ['> A002 LOGIN alice Xk9mQ2vLp7Rt', '> A002 LOGIN alice [REDACTED:mail-password]'],
    [
      `  12:00.31 > b'JHNB1 LOGIN alice "Xk9m \\"Q2\\" p7"'`,
      `  12:00.31 > b'JHNB1 LOGIN alice "[REDACTED:mail-password]"'`,
    ],
    ['. login alice@example.com Xk9mQ2vLp7Rt', '. login alice@example.com [REDACTED:mail-password]'],
    // POP3 and FTP: USER, a reply, PASS (a POP3 password may hold blanks).
    [
      '> USER alice\n< 331 Please specify the password.\n> PASS Xk9mQ2vLp7Rt',
      '> USER alice\n< 331 Please specify the password.\n> PASS [REDACTED:mail-password]',
    ],
    [
      'USER alice\n+OK\nPASS Xk9m Q2vL p7Rt\n+OK Logged in.',
      'USER alice\n+OK\nPASS [REDACTED:mail-password]\n+OK Logged in.',
    ],
    [
      `*cmd* b'USER alice'\n*get* b'+OK'\n*cmd* b'PASS Xk9mQ2vLp7Rt'`,
      `*cmd* b'USER alice'\n*get* b'+OK'\n*cmd* b'PASS [REDACTED:mail-password]'`,
    ],
    // Inside a JSON string (a tool's output in a log), and behind a logger's time.
    [
      JSON.stringify({ output: `> USER alice\n> PASS Xk9mQ2vLp7Rt\n< 230 Login successful.` }),
      JSON.stringify({ output: `> USER alice\n> PASS [REDACTED:mail-password]\n< 230 Login successful.` }),
    ],
    [
      `2026-11-26T07:00:00Z send: 'AUTH PLAIN ${PLAIN}\\r\\n'`,
      `2026-11-26T07:00:00Z send: 'AUTH PLAIN [REDACTED:sasl-plain]\\r\\n'`,
    ],
  ];
  for (const [input, want] of cases) assert.equal(await clean(input), want, input);
});

test('sessions without a password, test runners and prose stay as they are', async () => {
  for (const text of [
    // Jest's and Go's results, Python's `pass`, a user listed.
    ' PASS  src/user.test.ts\n PASS  src/auth/login.test.ts',
    'user alice\nuid=1000(alice) gid=1000(alice)\n--- PASS: TestLogin (0.00s)',
    'def login(user):\n    pass  # nothing to do',
    // Passwords already hidden by the client (ftp -d, ftplib), stand-ins, a user name sent by AUTH LOGIN.
    '---> USER alice\n331 Please specify the password.\n---> PASS XXXX',
    "*cmd* 'USER alice'\n*cmd* 'PASS **********'",
    'USER alice\nPASS <password>',
    'AUTH LOGIN\n334 VXNlcm5hbWU6\nYWxpY2U=',
    // Words where a PLAIN message would be: not base64 of user NUL password.
    'The client sends AUTH PLAIN followed by the base64 of NUL user NUL password.',
    'AUTH PLAIN\n334\nAUTHENTICATION',
    `AUTH PLAIN ${b64('alice:secret')}`,
    // IMAP's replies and prose without a tag.
    'a001 OK LOGIN completed',
    '* CAPABILITY IMAP4rev1 LOGIN-REFERRALS AUTH=PLAIN',
    'Then login as root',
    'Step 3 login alice and bob today',
  ])
    assert.equal(await clean(text), text, text);
});

test('a logon split across the batches of a stream is still found (USER and 334 lines are held back)', async () => {
  const after = 'x\n'.repeat(12);
  for (const text of [
    `> USER alice\n< 331 Please specify the password.\n> PASS Xk9mQ2vLp7Rt\n${after}`,
    `<~  334 UGFzc3dvcmQ6\n ~> ${PASSWORD}\n${after}`,
  ])
    await assertStreamedAsWhole(text, [1, 7, 16], 32);
});

test('hostile logon lines are read in linear time', async () => {
  const started = performance.now();
  const n = 100_000;
  for (const text of [
    `AUTH PLAIN ${'A'.repeat(4 * n)}_`,
    `PLAIN ${'x'.repeat(4 * n)} resp=${'A'.repeat(n)}`,
    `a1 LOGIN${' a'.repeat(n)}`,
    `> ${'>'.repeat(4 * n)}USER a`,
    'USER a\n'.repeat(n) + 'PASS b',
    `334 UGFzc3dvcmQ6\n${'A'.repeat(4 * n)}_`,
    `AUTH PLAIN\n${' '.repeat(4 * n)}`,
  ])
    assert.equal(typeof (await redactSecrets(text)).text, 'string');
  assertQuick(started);
});
