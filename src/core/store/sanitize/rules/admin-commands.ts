// Passwords that database and service tools take by position or by their own short option, and the
// answers an expect script sends to a password prompt. What no key names: only the command tells.
import { ARG, literal } from './shell-words';
import type { SecretRule } from './types';

/** A prompt for a secret, as an expect script waits for it (`"*assword:*"`, `"Enter passphrase"`). */
const PROMPT = String.raw`[^\n]{0,200}?(?:assword|assphrase|PASSWORD|PIN\b|[Tt]oken)`;

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
    title: 'Passwords after -p of Cassandra and Neo4j shells (cqlsh -u USER -p …, cypher-shell -p …)',
    keywords: ['cqlsh', 'cypher-shell'],
    pattern: new RegExp(
      String.raw`\b(?:cqlsh|cypher-shell)\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
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
    // Tcl's expect: `expect "*assword:*"` then `send "…\r"` on one of the next two lines, or a block's
    // `"password:" { send "…\r" }`. The `\r` stays (as a character too: a JSON string decoded).
    id: 'cli-password',
    title: 'Answers an expect script sends to a password prompt (expect "*assword*" / send "…\\r")',
    keywords: ['expect'],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(
      String.raw`(?:\bexpect\b${PROMPT}[^\n]{0,200}\n(?:[^\n]{0,200}\n)?[ \t]*|"[^"\n]{0,200}?(?:assword|assphrase)[^"\n]{0,200}"[ \t]*\{[ \t]*)(?:exp_)?send(?:[ \t]+--)?[ \t]+"(?<secret>(?:[^"\\\n\r]|\\[^rn\n])+)(?:\\[rn]|\r)*"`,
      'g',
    ),
    accept: literal,
  },
  {
    // Python's pexpect and its kin: `child.expect('Password:')` then `child.sendline('…')`.
    id: 'cli-password',
    title: "Answers pexpect sends to a password prompt (.expect('Password:') / .sendline('…'))",
    keywords: ['expect('],
    multiline: true,
    fileLines: true,
    pattern: new RegExp(
      String.raw`\.expect(?:_exact)?\(${PROMPT}[^\n]{0,200}\n(?:[^\n]{0,200}\n)?[^\n]{0,80}?\.send(?:line)?\([ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\\\n\r]|\\[^rn\n])+)(?:\\[rn]|\r)*\k<q>[ \t]*\)`,
      'g',
    ),
    accept: literal,
  },
];
