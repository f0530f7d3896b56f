// Passwords and tokens that database, service and developer tools take by position or by an option of
// their own (or in their own configuration: redis.conf, Bundler's environment), and the answers an expect
// script or pexpect sends to a password prompt. What no key names: only the command tells.
import { LINE_START } from './line-start';
import { ARG, COMMAND_END, literal } from './shell-words';
import type { SecretRule } from './types';

/** A prompt for a secret, as an expect script waits for it (`"*assword:*"`, `"Enter passphrase"`). */
const PROMPT = String.raw`[^\n]{0,200}?(?:assword|assphrase|PASSWORD|PIN\b|[Tt]oken)`;

/** Tcl expect's `send "…\r"` (or `send -- "…"`, `exp_send`): the text sent, without its `\r`. */
const SEND = String.raw`(?:exp_)?send(?:[ \t]+--)?[ \t]+"(?<secret>(?:[^"\\\n\r]|\\[^rn\n])+)(?:\\[rn]|\r)*"`;

export const ADMIN_COMMAND_RULES: readonly SecretRule[] = [
  {
    id: 'cli-password',
    title: 'Passwords set by database tools (mysqladmin … password NEW, neo4j-admin set-initial-password)',
    keywords: ['mysqladmin', 'set-initial-password'],
    pattern: new RegExp(
      String.raw`\b(?:mysqladmin\b[^\n|;&]{0,1024}?[ \t]password|neo4j-admin(?:[ \t]+dbms)?[ \t]+set-initial-password)[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Passwords after -p of Cassandra, Neo4j and RabbitMQ clients (cqlsh / cypher-shell / rabbitmqadmin -p …)',
    keywords: ['cqlsh', 'cypher-shell', 'rabbitmqadmin'],
    pattern: new RegExp(
      String.raw`\b(?:cqlsh|cypher-shell|rabbitmqadmin)\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Remote desktop and Sysinternals passwords (xfreerdp / wlfreerdp /p:…, psexec / paexec -p …)',
    keywords: ['freerdp', 'psexec', 'paexec'],
    pattern: new RegExp(
      String.raw`\b(?:[xw]l?freerdp3?\b[^\n|;&]{0,1024}?[ \t][/-]p:|(?:psexec|paexec)(?:64)?(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t][-/]p[ \t]+)(?<secret>${ARG})`,
      'gi',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'MinIO user passwords (mc admin user add ALIAS USER PASSWORD)',
    keywords: ['mc admin'],
    pattern: new RegExp(
      String.raw`\bmc[ \t]+admin[ \t]+user[ \t]+add[ \t]+[^\s|;&]+[ \t]+[^\s|;&]+[ \t]+(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'PuTTY passwords (plink / pscp / psftp -pw …)',
    keywords: ['-pw'],
    pattern: new RegExp(
      String.raw`\b(?:plink|pscp|psftp|putty)(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t]-pw[ \t]+(?<secret>${ARG})`,
      'gi',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Redis passwords in its configuration or set by CONFIG SET (requirepass, masterauth, sentinel auth-pass)',
    keywords: ['requirepass', 'masterauth', 'auth-pass'],
    pattern: new RegExp(
      // Where a line starts (redis.conf), not in prose ("the requirepass directive"). Bounded: each tab of
      // a run is such a start, and an unbounded indent read the rest of the run from each (quadratic).
      String.raw`(?:${LINE_START}[ \t]{0,16}|\bCONFIG[ \t]+SET[ \t]+)(?:requirepass|masterauth|sentinel[ \t]+auth-pass[ \t]+[^\s|;&]+)[ \t]+(?<secret>${ARG})`,
      'gim',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'mosquitto_passwd -b passwords (mosquitto_passwd -b FILE USER PASSWORD)',
    keywords: ['mosquitto_passwd'],
    pattern: new RegExp(
      String.raw`\bmosquitto_passwd(?=[^\n|;&]{0,1024}[ \t]-[A-Za-z]*b)(?:[ \t]+-[A-Za-z]+)+[ \t]+${ARG}[ \t]+${ARG}[ \t]+(?<secret>${ARG})${COMMAND_END}`,
      'gm',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: "Drupal user passwords set by drush (drush user:password USER '…')",
    keywords: ['drush'],
    pattern: new RegExp(
      String.raw`\bdrush\b[^\n|;&]{0,256}?[ \t](?:user:password|user-password|upwd)[ \t]+(?!-)${ARG}[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title:
      'Tokens given to developer service CLIs by position (snyk auth, ngrok authtoken, codecov -t, expo login -p, infracost configure set api_key)',
    keywords: ['snyk auth', 'authtoken', 'codecov', 'expo login', 'infracost'],
    pattern: new RegExp(
      String.raw`\b(?:snyk[ \t]+auth|ngrok(?:[ \t]+config[ \t]+add-authtoken|[ \t]+authtoken)|infracost[ \t]+configure[ \t]+set[ \t]+api_key|codecov(?:cli)?\b[^\n|;&]{0,1024}?[ \t]-t|expo[ \t]+login\b[^\n|;&]{0,1024}?[ \t]-p)[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // Bundler reads a gem server's credentials from `BUNDLE_<HOST>` (dots as `__`): `user:password`.
    id: 'env-secret',
    title: "Bundler's gem server credentials in the environment (BUNDLE_GEMS__EXAMPLE__COM=user:password)",
    keywords: ['BUNDLE_'],
    exactKeywords: true,
    pattern: /\bBUNDLE_(?:[A-Z0-9-]+__)+[A-Z0-9-]+=["']?[^\s:"'=]+:(?<secret>[^\s"']+)/g,
    accept: literal,
  },
  {
    // Tcl's expect: `expect "*assword:*"` then `send "…\r"` on one of the next two lines. The `\r` stays
    // (as a character too: a JSON string decoded).
    id: 'cli-password',
    title: 'Answers an expect script sends to a password prompt (expect "*assword*" / send "…\\r")',
    // What is sent, not `expect`: a common word in code and prose, and each hit reads the whole text.
    // `send \` is its quote escaped at any depth of JSON (the variants stop at DECODE_PASSES levels).
    keywords: ['send "', 'send --', 'send \\'],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(String.raw`\bexpect\b${PROMPT}[^\n]{0,200}\n(?:[^\n]{0,200}\n)?[ \t]*${SEND}`, 'g'),
    accept: literal,
  },
  {
    // The same in an expect block, on the prompt's line: `"password:" { send "…\r" }`.
    id: 'cli-password',
    title: 'Answers an expect block sends to a password prompt ("*assword*" { send "…\\r" })',
    keywords: ['{ send', '{send'],
    pattern: new RegExp(String.raw`"[^"\n]{0,200}?(?:assword|assphrase)[^"\n]{0,200}"[ \t]*\{[ \t]*${SEND}`, 'g'),
    accept: literal,
  },
  {
    // Python's pexpect and its kin: `child.expect('Password:')` then `child.sendline('…')`.
    id: 'cli-password',
    title: "Answers pexpect sends to a password prompt (.expect('Password:') / .sendline('…'))",
    keywords: ['sendline(', ".send('", '.send("', '.send(\\'],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(
      String.raw`\.expect(?:_exact)?\(${PROMPT}[^\n]{0,200}\n(?:[^\n]{0,200}\n)?[^\n]{0,80}?\.send(?:line)?\([ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\\\n\r]|\\[^rn\n])+)(?:\\[rn]|\r)*\k<q>[ \t]*\)`,
      'g',
    ),
    accept: literal,
  },
];
