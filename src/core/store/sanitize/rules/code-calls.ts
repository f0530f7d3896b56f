// Secrets passed to well-known calls by position, where no key names them: `auth=('user', 'pw')`,
// `HTTPBasicAuth('user', 'pw')`, `smtp.login('me', 'pw')`, `jwt.sign(payload, 'secret')`, and
// nodemailer's `pass: '…'`, and a config line's `pass = …` (rclone). Only literals count: a variable is
// where the secret is, not it.
import { literalValue, QUOTED, type SecretRule } from './types';

const STRING = String.raw`(?:${QUOTED})`;
const SECRET_STRING = String.raw`(?<secret>${QUOTED})`;

const literal = (s: string, quoted: boolean): boolean => literalValue(s, quoted) && s.length >= 3;

export const CODE_CALL_RULES: readonly SecretRule[] = [
  {
    id: 'code-secret',
    title:
      "Passwords passed with a user name (auth=('user', '…'), HTTPBasicAuth / DigestAuth / BasicAuth('user', '…'), .login('user', '…'), MongoDB's db.auth / changeUserPassword)",
    keywords: ['auth', 'login(', 'changeuserpassword('],
    pattern: new RegExp(
      String.raw`(?:\bauth[ \t]*=(?:[ \t]*[([])?|\b(?:HTTPBasicAuth|HTTPDigestAuth|HTTPProxyAuth|BasicAuth|DigestAuth)\(|\.login\(|\bdb\.auth\(|\.changeUserPassword\()[ \t]*${STRING}[ \t]*,[ \t]*${SECRET_STRING}`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'code-secret',
    title: "JWT signing secrets (jwt.sign(payload, '…'), jwt.encode(…, '…'), jwt.verify / decode)",
    keywords: ['jwt.'],
    pattern: new RegExp(String.raw`\bjwt\.(?:sign|encode|verify|decode)\([^,\n]{1,200},[ \t]*${SECRET_STRING}`, 'g'),
    accept: literal,
  },
  {
    // `pass` alone is an ordinary word; as a key with a string value (nodemailer's auth) it is a password.
    id: 'code-secret',
    title: "Passwords under a `pass` key with a string value (nodemailer auth: { user, pass: '…' })",
    keywords: ['pass:', 'pass":', "pass':", 'pass :'],
    // No quote inside the value: `'pass":', "pass'"` is a list of strings, not a password.
    pattern: new RegExp(String.raw`(?<![\w$-])pass["']?[ \t]*:[ \t]*(?<secret>"[^"'\n]+"|'[^"'\n]+')`, 'g'),
    accept: literal,
  },
  {
    // MongoDB's createUser / updateUser and some APIs name the password `pwd`; a path is a directory's.
    id: 'code-secret',
    title: "Passwords under a `pwd` key with a string value (MongoDB: db.createUser({ user, pwd: '…' }))",
    keywords: ['pwd:', 'pwd":', "pwd':", 'pwd :'],
    pattern: new RegExp(String.raw`(?<![\w$-])pwd["']?[ \t]*:[ \t]*(?<secret>"[^"'\n]+"|'[^"'\n]+')`, 'g'),
    accept: (s, quoted) => literal(s, quoted) && !/^(?:[~/.]|[A-Za-z]:[\\/]|%\w+%)/.test(s),
  },
  {
    // rclone's config (its `pass` is only obscured, with a key anyone can read), INI and TOML files.
    // Python's `pass` is a statement and never takes `=`.
    id: 'code-secret',
    title: 'Passwords under a `pass` key at a line start (rclone config, INI, TOML: pass = …)',
    keywords: ['pass'],
    // The line ends, or the JSON string it was printed in (`…\npass = x"}`).
    pattern: /^[ \t]*pass[ \t]*=[ \t]*(?<secret>"[^"\n]+"|'[^'\n]+'|[^\s"'#;]+)(?=[ \t]*(?:$|"[ \t]*[,}\]]))/gm,
    accept: literal,
  },
];
