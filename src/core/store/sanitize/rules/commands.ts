// Secrets handed to a command where no key names them: piped into its standard input, as a positional
// argument (htpasswd, mc, vault login, package managers' `config`), behind an option only that tool
// uses for a password (keytool -storepass, openssl pass:, ldapsearch -w, sqlcmd -P), or in an SQL
// statement. Only the secret is redacted; the command stays readable. Secret stores' own commands are in
// secret-stores.ts.
import { ARG, COMMAND_END, IN_COMMAND, literal, OPTIONS, WORD, WORD_CHAR } from './shell-words';
import { unquote, type SecretRule } from './types';

/** Any command given `--password-stdin` (docker, podman, helm registry, oras, … login). */
const STDIN_OPTION = String.raw`${IN_COMMAND}[ \t]--password-stdin\b`;

/**
 * The commands that read a secret from standard input by name: passwd, `sudo -S`, and the secret stores'
 * own commands (`gh secret set`, `gcloud secrets create --data-file=-`, `wrangler secret put`, …).
 */
const STDIN_COMMAND = String.raw`(?:sudo(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*S\b|passwd\b${IN_COMMAND}[ \t]--stdin\b|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)\b${IN_COMMAND}[ \t]--data-file(?:=|[ \t]+)-(?![\w-])|gh[ \t]+secret[ \t]+set\b|(?:npx[ \t]+)?wrangler[ \t]+secret[ \t]+put\b|vercel[ \t]+env[ \t]+add\b|(?:docker|podman)[ \t]+secret[ \t]+create\b${IN_COMMAND}[ \t]-(?![\w-]))`;

/** A command that reads a secret from standard input (after a pipe, where the search starts anyway). */
const STDIN_READER = String.raw`(?:${STDIN_OPTION}|${STDIN_COMMAND})`;
const STDIN_KEYWORDS = [
  'password-stdin',
  'sudo -',
  'passwd',
  'gcloud secrets',
  'secret set',
  'secret put',
  'env add',
  'secret create',
];

/** A token as an argument: not an option, not `key=value`. */
const TOKEN_ARG = String.raw`(?:'[^'\n]*'|"[^"\n]*"|[^\s'"=|;&<>()-][^\s'"=|;&<>()]*)`;

/**
 * A `--from-literal` of `kubectl create secret` (or `oc`): the check looks back only from the option, and
 * 4 KB at most (to the line's start, many options on one line were quadratic).
 */
const FROM_LITERAL = String.raw`--from-literal(?:=|[ \t]+)(?<=\bcreate[ \t]+secret\b[^\n|;&]{0,4096})`;

/**
 * `USER/PASSWORD` of an Oracle logon; a password holding `@` or `/` is quoted. The password is taken whole
 * or not at all: tried at every shorter length, each looking back for SQL*Plus's prompt, a long one took
 * minutes.
 */
const ORACLE_LOGON = String.raw`[A-Za-z][\w$#]*/(?<secret>"[^"\n]+"|[^\s@/"']+(?![^\s@/"']))`;

/**
 * A password given as a plain word where words may follow: quoted, ending the command, or holding a
 * digit ("use openssl passwd to hash it" is prose).
 */
const PASSWORD_WORD = String.raw`'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|${WORD}${COMMAND_END}|(?=${WORD_CHAR}*\d)${WORD}`;

/** Options of openssl passwd and mkpasswd that take a value (a salt, a file, a method): not the password. */
const HASH_VALUE_OPTION = String.raw`(?:salt|in|S|m|R|P|-method|-salt|-rounds|-password-fd)`;

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
    title:
      'Secrets echoed into a command that reads one (… | docker login --password-stdin, passwd --stdin, gh secret set, gcloud secrets create --data-file=-, wrangler secret put, vercel env add, docker secret create … -)',
    keywords: STDIN_KEYWORDS,
    pattern: new RegExp(
      String.raw`\b(?:echo|printf)(?:[ \t]+-[neE]+)*(?:[ \t]+(?:'%s'|"%s"|%s)(?:\\n)?)?[ \t]+(?<secret>${ARG})[ \t]*\|[ \t]*(?:sudo[ \t]+(?:-\S+[ \t]+)*)?${STDIN_READER}`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'stdin-password',
    title: 'Secrets given to such a command in a here-string (… --password-stdin <<< "…", gh secret set NAME <<< "…")',
    keywords: STDIN_KEYWORDS,
    // The option's search starts where a command does, not at every blank.
    pattern: new RegExp(
      String.raw`(?:(?:^|[;&|(])[ \t]*${STDIN_OPTION}|(?:^|[\s;&|(])${STDIN_COMMAND})${IN_COMMAND}<<<[ \t]*(?<secret>${ARG})`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Archive and GnuPG passwords (zip / unzip / 7z -P, 7z -pPASSWORD, gpg --passphrase)',
    keywords: ['zip', '7z', '7za', 'gpg', 'rar'],
    pattern: new RegExp(
      String.raw`\b(?:(?:zip|unzip|zipcloak|rar|unrar)\b[^\n|;&]{0,1024}?[ \t]-P[ \t]*|7za?\b[^\n|;&]{0,1024}?[ \t]-p|gpg2?\b[^\n|;&]{0,1024}?[ \t]--passphrase(?:=|[ \t]+))(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'HTTPie credentials (http / https -a user:password, --auth=user:password)',
    keywords: ['http', 'https'],
    pattern: new RegExp(
      String.raw`(?:^|[\s;&|("'\x60])(?:https?|httpie)(?:[ \t][^\n|;&]{0,1024}?)??[ \t](?:-a|--auth)(?:=|[ \t]+)["']?[^\s:"']*:(?<secret>'[^'\n]*'|"[^"\n]*"|[^\s"']+)`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Windows account passwords (net user NAME PASSWORD /add)',
    keywords: ['net user'],
    pattern: new RegExp(String.raw`\bnet[ \t]+user[ \t]+${ARG}[ \t]+(?![/*])(?<secret>${ARG})`, 'gi'),
    accept: literal,
  },
  {
    // `net use [DRIVE] \\server\share [PASSWORD] [/user:NAME]`, the password before or after the options.
    id: 'cli-password',
    title: 'Windows share passwords (net use [Z:] \\\\server\\share PASSWORD /user:NAME)',
    keywords: ['net use'],
    pattern: new RegExp(
      String.raw`\bnet[ \t]+use(?:[ \t]+(?:[A-Za-z]:|\*))?[ \t]+\\\\\S+(?:[ \t]+/\S+)*[ \t]+(?![/*])(?<secret>${ARG})`,
      'gi',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'lftp passwords (lftp -u USER,PASSWORD)',
    keywords: ['lftp'],
    pattern: new RegExp(String.raw`\blftp\b[^\n|;&]{0,1024}?[ \t]-u[ \t]+["']?[^\s,"']+,(?<secret>[^\s"']+)`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'PowerShell secure strings from plain text (ConvertTo-SecureString "…" -AsPlainText)',
    keywords: ['convertto-securestring'],
    pattern: new RegExp(
      String.raw`ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?<secret>"[^"\n]+"|'[^'\n]+')(?=[^\n]*-AsPlainText)`,
      'gi',
    ),
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
    // `-k` is a password only to openssl's ciphers (curl's `-k` is a switch); `-K` a raw key in hex.
    id: 'cli-password',
    title: 'OpenSSL passwords and keys given plainly (openssl enc -k PASSWORD, -K HEXKEY, dgst -hmac KEY)',
    keywords: ['openssl'],
    pattern: new RegExp(String.raw`\bopenssl\b${IN_COMMAND}[ \t](?:-[kK]|-hmac)[ \t]+(?!-)(?<secret>${ARG})`, 'g'),
    accept: literal,
  },
  {
    // The first word after the options is hashed.
    id: 'cli-password',
    title: 'Passwords hashed by command (openssl passwd [-6] [-salt S] PASSWORD, mkpasswd [-m METHOD] PASSWORD)',
    keywords: ['passwd'],
    pattern: new RegExp(
      String.raw`\b(?:openssl[ \t]+passwd|mkpasswd)(?:[ \t]+(?:-${HASH_VALUE_OPTION}(?:=\S+|[ \t]+(?!-)${ARG})|-(?!${HASH_VALUE_OPTION}(?![\w-]))[\w-]+))*[ \t]+(?!-)(?<secret>${PASSWORD_WORD})`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'htpasswd -b passwords (htpasswd -b[c] FILE USER PASSWORD, htpasswd -nb USER PASSWORD)',
    keywords: ['htpasswd'],
    pattern: new RegExp(
      String.raw`\bhtpasswd(?=[^\n|;&]{0,1024}[ \t]-[A-Za-z]*b)(?:[ \t]+-[A-Za-z]+(?:[ \t]+\d+)?)+(?:[ \t]+${ARG}){1,2}?[ \t]+(?<secret>${ARG})${COMMAND_END}`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'LDAP bind passwords (ldapsearch / ldapadd / ldapmodify -w …, ldappasswd -a / -s …)',
    keywords: ['ldap'],
    pattern: new RegExp(
      // Each option looks back for its command (bounded), so `ldappasswd -w OLD -s NEW` loses both.
      String.raw`[ \t]-(?:w(?<=\bldap[a-z]*\b[^\n|;&]{0,1024})|[as](?<=\bldappasswd\b[^\n|;&]{0,1024}))[ \t]*(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Samba passwords after % (smbclient / rpcclient / smbcacls -U user%password)',
    keywords: ['smb', 'rpcclient', 'crackmapexec', 'netexec', 'nxc'],
    pattern:
      /\b(?:smb\w*|rpcclient|crackmapexec|netexec|nxc)\b[^\n|;&]{0,1024}?[ \t](?:-U|--user(?:name)?=?)[ \t]*["']?[^\s%"']+%(?<secret>[^\s"']+)/g,
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
  {
    id: 'cli-password',
    title:
      'Passwords after -p / -P of database, broker and upload clients (mongosh / mongodump -p, sqlcmd / bcp / mosquitto_pub -P, twine -p, dotnet nuget -p)',
    keywords: ['mongo', 'sqlcmd', 'bcp', 'twine', 'nuget', 'mosquitto'],
    pattern: new RegExp(
      String.raw`\b(?:(?:mongo(?:sh|dump|restore|export|import|stat|top|files)?|twine|dotnet[ \t]+nuget)\b[^\n|;&]{0,1024}?[ \t]-p|(?:sqlcmd|bcp|mosquitto_(?:pub|sub|rr))\b[^\n|;&]{0,1024}?[ \t]-P)[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // Every literal of a Secret is one, whatever its key's name (`--from-literal=license=…`).
    id: 'cli-password',
    title: 'Values of a Kubernetes Secret made by command (kubectl / oc create secret … --from-literal=KEY=VALUE)',
    keywords: ['from-literal'],
    pattern: new RegExp(`${FROM_LITERAL}[\\w.-]+=(?<secret>${ARG})`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: "The same quoted whole (--from-literal='KEY=VALUE WITH BLANKS')",
    keywords: ['from-literal'],
    pattern: new RegExp(String.raw`${FROM_LITERAL}(?<q>["'])[\w.-]+=(?<secret>(?:(?!\k<q>)[^\n])+)\k<q>`, 'g'),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Tokens given to a login command (vault login TOKEN, cargo login TOKEN)',
    keywords: ['vault login', 'cargo login'],
    pattern: new RegExp(
      String.raw`\b(?:vault|cargo)[ \t]+login(?:[ \t]+--registry[ \t]+\S+)?${OPTIONS}[ \t]+(?<secret>${TOKEN_ARG})(?=$|[\s"'\x60\\|;&<>)])`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'RabbitMQ user passwords (rabbitmqctl add_user USER PASSWORD, change_password, authenticate_user)',
    keywords: ['rabbitmqctl'],
    pattern: new RegExp(
      String.raw`\brabbitmqctl${OPTIONS}[ \t]+(?:add_user|change_password|authenticate_user)[ \t]+${ARG}[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Package manager credentials set by command (poetry / composer config http-basic.… USER PASSWORD)',
    keywords: ['poetry', 'composer'],
    pattern: new RegExp(
      String.raw`\b(?:poetry|composer)[ \t]+config${OPTIONS}[ \t]+["']?http-basic\.\S+[ \t]+${ARG}[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title:
      'Package manager tokens set by command (poetry config pypi-token.NAME TOKEN, composer config github-oauth.HOST TOKEN, npm / pnpm / yarn config set //HOST/:_authToken TOKEN)',
    keywords: ['poetry', 'composer', 'config set'],
    pattern: new RegExp(
      String.raw`\b(?:poetry[ \t]+config${OPTIONS}[ \t]+["']?pypi-token\.\S+|composer[ \t]+config${OPTIONS}[ \t]+["']?(?:github-oauth|gitlab-token|gitlab-oauth|bitbucket-oauth|bearer)\.\S+|(?:npm|pnpm|yarn)[ \t]+config[ \t]+set${OPTIONS}[ \t]+["']?\S*(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)["']?)[ \t]+(?<secret>${ARG})`,
      'gi',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Bundler credentials (bundle config set HOST USER:PASSWORD)',
    keywords: ['bundle config'],
    pattern: new RegExp(
      String.raw`\bbundle[ \t]+config(?:[ \t]+set)?${OPTIONS}[ \t]+[\w-]+(?:\.[\w-]+)+[ \t]+["']?[^\s:'"]+:(?<secret>[^\s'"]+)`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'aws-secret-access-key',
    title: 'AWS secret keys set by command (aws configure set aws_secret_access_key …, aws_session_token …)',
    keywords: ['aws configure'],
    pattern: new RegExp(
      String.raw`\baws[ \t]+configure[ \t]+set${OPTIONS}[ \t]+(?:[\w-]+\.)?(?:aws_secret_access_key|aws_session_token)[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // SQL keeps a quote inside a string by doubling it ('it''s'). A blank or `=` comes before the value:
    // right after `password` a quote closes a JSON key (`"cli-password":1,"…`), and opens no password.
    id: 'sql-password',
    title:
      "Passwords in SQL (CREATE / ALTER USER, ROLE or LOGIN … PASSWORD '…', IDENTIFIED BY '…', SET PASSWORD = '…')",
    keywords: ['password', 'identified'],
    pattern:
      /\b(?:(?:USER|ROLE|LOGIN)\b[^\n;]{0,1024}?\bPASSWORD|SET[ \t]+PASSWORD\b[^\n;=]{0,1024}?=|IDENTIFIED\b(?:[ \t]+WITH[ \t]+['"]?\w+['"]?)?[ \t]+BY(?:[ \t]+PASSWORD)?)(?:[ \t]*=[ \t]*|[ \t]+|(?<==))(?<secret>'(?:[^'\n]|'')*'|"[^"\n]*")/gi,
    accept: literal,
  },
  {
    // Secret keys of a remote made by command; `rclone config create NAME TYPE key value …` or `key=value`.
    id: 'cli-password',
    title: 'rclone remotes made by command (rclone config create|update NAME TYPE pass …, secret_access_key …)',
    keywords: ['rclone'],
    pattern: new RegExp(
      String.raw`[ \t](?:pass|password|password2|secret_access_key|client_secret|token|key|account_key|sas_url|session_token|bearer_token|api_key|app_key|service_account_credentials)(?:=|[ \t]+)(?<=\brclone[ \t]+config[ \t]+(?:create|update)\b[^\n|;&]{0,1024})(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'SSH key pass phrases given to ssh-keygen (-N NEW, -P OLD)',
    keywords: ['ssh-keygen'],
    pattern: new RegExp(String.raw`[ \t]-[NP](?<=\bssh-keygen\b[^\n|;&]{0,1024})[ \t]*(?<secret>${ARG})`, 'g'),
    // `-N ""` is the usual empty pass phrase: nothing to hide.
    accept: (s) => unquote(s) !== '' && literal(s),
  },
  {
    // `sqlplus scott/tiger@orcl`, `expdp system/…@db`, and `CONNECT user/password` at SQL*Plus's prompt;
    // `sqlplus / as sysdba` names no user.
    id: 'cli-password',
    title: "Oracle logons (sqlplus / sqlldr / expdp / impdp / rman / dgmgrl USER/PASSWORD[@DB], SQL*Plus's CONNECT)",
    keywords: ['sqlplus', 'sqlldr', 'expdp', 'impdp', 'rman', 'dgmgrl', 'conn'],
    pattern: new RegExp(
      String.raw`\b(?:sqlplus|sqlldr|expdp|impdp|rman|dgmgrl)(?:[ \t]+-[A-Za-z]+)*(?:[ \t]+(?:target|catalog|auxiliary))?(?:[ \t]+userid=|[ \t]+)["']?${ORACLE_LOGON}(?=@|[ \t]|$)`,
      'gm',
    ),
    accept: literal,
  },
  {
    // A line starting `connect a/b` may be prose ("connect src/main"): a database, `AS SYSDBA` or the
    // prompt must say it is a logon.
    id: 'cli-password',
    title: "Oracle logons at SQL*Plus's prompt (CONNECT USER/PASSWORD@DB, conn sys/… as sysdba)",
    keywords: ['conn'],
    pattern: new RegExp(
      String.raw`^(?:[ \t]*SQL>)?[ \t]*(?:CONN(?:ECT)?|conn(?:ect)?)[ \t]+${ORACLE_LOGON}(?=@|[ \t]+(?:AS|as)[ \t]+(?:SYS|sys)|(?<=^[ \t]*SQL>[^\n]*)[ \t]*$)`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Wi-Fi pass phrases (nmcli … password PW, nmcli … wifi-sec.psk PW, wpa_passphrase SSID PW)',
    keywords: ['nmcli', 'wpa_passphrase'],
    pattern: new RegExp(
      String.raw`\b(?:nmcli\b${IN_COMMAND}[ \t](?:password|wifi-sec\.psk|802-11-wireless-security\.psk)|wpa_passphrase[ \t]+${ARG})[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // `AUTH [USER] PASSWORD` given to redis-cli or typed at its prompt (`127.0.0.1:6379> AUTH …`, also
    // quoted or after an escaped tab or line break in a JSON string). Which of two words is the password
    // cannot be told where more text follows, so both go; the usual user, `default`, stays.
    id: 'cli-password',
    title:
      'Redis AUTH passwords (redis-cli AUTH [USER] PASSWORD, HOST:PORT> AUTH …): a user other than default goes with it',
    keywords: ['redis-cli', '> auth', '>auth'],
    pattern: new RegExp(
      String.raw`(?:\bredis-cli\b${IN_COMMAND}[ \t]|(?:^[ \t]*|[\s"'\x60]|\\[nt])[\w.-]*:\d+(?:\[\d+\])?>[ \t]*)(?:AUTH|auth)[ \t]+(?:default[ \t]+)?(?<secret>${ARG}(?:[ \t]+${ARG})?)`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'etcd passwords (etcdctl --user USER:PASSWORD)',
    keywords: ['etcdctl'],
    pattern: new RegExp(
      String.raw`\betcdctl\b${IN_COMMAND}[ \t]--user(?:=|[ \t]+)["']?[^\s:"']+:(?<secret>[^\s"']+)`,
      'g',
    ),
    accept: literal,
  },
];
