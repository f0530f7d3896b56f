// Secrets handed to a command where no key names them: piped into its standard input, as a positional
// argument (htpasswd, mc), or behind an option only that tool uses for a password (keytool -storepass,
// openssl pass:, ldapsearch -w, smbclient -U user%password). Only the secret is redacted; the command
// stays readable.
import { isPlaceholder, unquote, type SecretRule } from './types';

/** One shell word: quoted, or a run up to whitespace, a quote or a shell operator. */
const ARG = String.raw`(?:'[^'\n]*'|"[^"\n]*"|[^\s'"|;&<>()]+)`;

/** Where a command ends: the line, a pipe, a list, a redirection, a subshell's close. */
const COMMAND_END = String.raw`(?=[ \t]*(?:$|[|;&<>)]|2>|\\n))`;

/**
 * The secret itself, not a variable (`$PW`), a stand-in or a documentation name in capitals
 * (`ACCESS_KEY SECRET_KEY` in a usage line).
 */
const literal = (s: string): boolean =>
  !isPlaceholder(s) && !/^\$/.test(unquote(s)) && !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(unquote(s));

export const COMMAND_RULES: readonly SecretRule[] = [
  {
    // chpasswd reads `user:password`: the user stays.
    id: 'stdin-password',
    title: 'Passwords echoed into chpasswd (echo "user:password" | chpasswd)',
    keywords: ['chpasswd'],
    pattern:
      /\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+["']?[\w.-]+:(?<secret>[^\s'"|:]+)["']?[ \t]*\|[ \t]*(?:sudo[ \t]+(?:-\S+[ \t]+)*)?chpasswd\b/g,
    accept: literal,
  },
  {
    // `echo "…" | docker login --password-stdin`: the documented way to keep a password off the command
    // line, which puts it on the command line when the value is written out. A variable stays.
    id: 'stdin-password',
    title: 'Passwords echoed into a command (echo … | docker login --password-stdin, … | passwd --stdin)',
    keywords: ['password-stdin', 'passwd'],
    pattern: new RegExp(
      String.raw`\b(?:echo|printf)(?:[ \t]+-[neE]+)*(?:[ \t]+(?:'%s'|"%s"|%s)(?:\\n)?)?[ \t]+(?<secret>${ARG})[ \t]*\|[ \t]*(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:[^\n|;&]*?[ \t]--password-stdin\b|passwd\b[^\n|;&]*?[ \t]--stdin\b)`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'stdin-password',
    title: 'Passwords given to --password-stdin in a here-string (… --password-stdin <<< "…")',
    keywords: ['password-stdin'],
    pattern: new RegExp(String.raw`--password-stdin\b[^\n|;&]*?<<<[ \t]*(?<secret>${ARG})`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Java keystore passwords (keytool / jarsigner -storepass, -keypass, -srcstorepass, -deststorepass)',
    keywords: ['storepass', 'keypass'],
    // `-storepass:env VAR` and `-storepass:file F` name where the password is, so they do not match.
    pattern: new RegExp(String.raw`[ \t]-(?:src|dest|new)?(?:store|key)pass[ \t]+(?<secret>${ARG})`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'OpenSSL pass phrases given as pass:… (-passin, -passout, -pass, -password)',
    keywords: ['pass:'],
    pattern: new RegExp(String.raw`[ \t]-pass(?:in|out|word)?[ \t]+["']?pass:(?<secret>[^\s'"|;&<>()]+)`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'htpasswd -b passwords (htpasswd -b[c] FILE USER PASSWORD, htpasswd -nb USER PASSWORD)',
    keywords: ['htpasswd'],
    pattern: new RegExp(
      String.raw`\bhtpasswd(?=[^\n|;&]*[ \t]-[A-Za-z]*b)(?:[ \t]+-[A-Za-z]+(?:[ \t]+\d+)?)+(?:[ \t]+${ARG}){1,2}?[ \t]+(?<secret>${ARG})${COMMAND_END}`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'LDAP bind passwords (ldapsearch / ldapadd / ldapmodify -w …, ldappasswd -a / -s …)',
    keywords: ['ldap'],
    pattern: new RegExp(
      String.raw`\b(?:ldap[a-z]*\b[^\n|;&]*?[ \t]-w|ldappasswd\b[^\n|;&]*?[ \t]-[as])[ \t]*(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Samba passwords after % (smbclient / rpcclient / smbcacls -U user%password)',
    keywords: ['smb', 'rpcclient', 'crackmapexec', 'netexec', 'nxc'],
    pattern:
      /\b(?:smb\w*|rpcclient|crackmapexec|netexec|nxc)\b[^\n|;&]*?[ \t](?:-U|--user(?:name)?=?)[ \t]*["']?[^\s%"']+%(?<secret>[^\s"']+)/g,
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'MinIO client access and secret keys (mc alias set NAME URL ACCESS_KEY SECRET_KEY)',
    keywords: ['mc alias', 'mc config'],
    pattern: new RegExp(
      String.raw`\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
];
