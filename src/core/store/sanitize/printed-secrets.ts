// Commands whose output is a secret with nothing around it to recognise it by: `gh auth token`, `aws ecr
// get-login-password`, `kubectl get secret db -o jsonpath='{.data.password}' | base64 -d`, `echo
// $OPENAI_API_KEY`, `cat token.txt`. The rules find secrets by their shape or the name in front of
// them; a bare password has neither. Where the command line is known (a terminal's command, the
// agent's run_command), the output of such a command is redacted whole, line by line.

export const PRINTED_SECRET = '[REDACTED:printed-secret]';

/** A secret-named variable: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `DB_PWD` (not `PWD`). */
const SECRET_VARIABLE =
  /(?:password|passwd|passphrase|secret|token|api_?key|access_?key|private_?key|credentials?|_pwd$|_pass$|_key$)/i;

/** Commands that print a secret, matched on the first command of a pipeline (options may come first). */
const PRINTERS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'gh auth token', pattern: /^gh\s+auth\s+token\b/ },
  {
    what: 'an AWS command that prints a secret or a credential',
    pattern:
      /^aws\b.*?\s(?:secretsmanager\s+get-secret-value|ssm\s+get-parameters?(?:-by-path)?\b.*\s--with-decryption|ecr(?:-public)?\s+get-login-password|codeartifact\s+get-authorization-token|sts\s+(?:get-session-token|assume-role\S*|get-federation-token)|iam\s+create-access-key)\b/,
  },
  {
    what: 'a gcloud command that prints a token or a secret',
    pattern:
      /^gcloud\b.*?\s(?:auth\s+(?:application-default\s+)?print-(?:access|identity)-token|secrets\s+versions\s+access)\b/,
  },
  {
    what: 'an az command that prints a token or a secret',
    // Key listings too: `"value": "<88 characters>"`, `"primaryMasterKey": …`, `"key1": …` (Azure OpenAI).
    pattern:
      /^az\b.*?\s(?:account\s+get-access-token|keyvault\s+secret\s+show|acr\s+login\b.*\s--expose-token|(?:storage\s+account|cosmosdb|cognitiveservices\s+account|redis|search\s+admin-key|eventhubs\s+namespace\s+authorization-rule|servicebus\s+namespace\s+authorization-rule)\s+keys?\s+list|search\s+admin-key\s+show)\b/,
  },
  {
    what: 'a Vault command that prints a secret or a token',
    pattern: /^vault\b.*?\s(?:kv\s+get|read|token\s+create|print\s+token|login\b.*\s-token-only)\b/,
  },
  { what: 'a 1Password CLI read', pattern: /^op\b.*?\s(?:read|item\s+get|inject)\b/ },
  { what: 'a Bitwarden CLI read', pattern: /^bw\s+get\s+(?:password|item|totp|notes)\b/ },
  { what: 'a keychain password read', pattern: /^security\s+find-(?:generic|internet)-password\b.*\s-[wg]\b/ },
  { what: 'a password store read', pattern: /^(?:go)?pass\s+(?:show|generate|otp)\b/ },
  {
    what: 'kubectl printing a Secret through a template',
    pattern:
      /^(?:kubectl|oc)\b.*?\sget\s+secrets?\b.*?\s(?:-o|--output)(?:=|\s+)['"]?(?:jsonpath|go-template|template|custom-columns)/,
  },
  { what: 'kubectl create token', pattern: /^(?:kubectl|oc)\b.*?\screate\s+token\b/ },
  { what: 'a Doppler secret read', pattern: /^doppler\s+secrets\s+(?:get|download)\b/ },
  { what: 'a Heroku config or token read', pattern: /^heroku\s+(?:config:get|auth:token)\b/ },
  {
    what: 'an AWS secret key read from the configuration',
    pattern: /^aws\b.*?\sconfigure\s+get\s+(?:\S+\.)?(?:aws_secret_access_key|aws_session_token)\b/,
  },
  { what: 'a desktop keyring read', pattern: /^(?:secret-tool\s+lookup|keyring\s+get)\b/ },
  { what: 'a LastPass CLI read', pattern: /^lpass\s+show\b.*\s--(?:password|notes|field)\b/ },
  { what: 'an Infisical secret read', pattern: /^infisical\s+secrets\s+get\b/ },
  { what: 'a Bitwarden Secrets Manager read', pattern: /^bws\s+secret\s+get\b/ },
  { what: 'a Fly.io token', pattern: /^(?:fly|flyctl)\s+(?:auth\s+token|tokens\s+create)\b/ },
];

/** Leading words that run the command after them: `sudo`, `env`, `time`, `VAR=value`. */
const PREFIX = /^(?:(?:sudo|env|command|exec|time|nohup|noglob)(?:\s+-\S+)*\s+|[A-Za-z_]\w*=\S*\s+)+/;

/**
 * Commands that run the one after them elsewhere: in a container (`docker exec db`, `kubectl exec pod --`),
 * on a host (`ssh host`), in a shell (`sh -c '…'`). What that one prints is printed all the same.
 */
const WRAPPER =
  /^(?:(?:docker|podman|nerdctl)\s+(?:compose\s+|container\s+)?exec|(?:kubectl|oc)\s(?:[^\n]{0,512}?\s)?exec|ssh|(?:sh|bash|zsh|dash|pwsh|powershell)(?:\s+-\w+)*\s+-(?:[a-z]*c|Command))\s+(.*)$/is;
/** Words of a wrapper's arguments tried as the start of the command it runs (its own options come first). */
const MAX_WRAPPED_WORDS = 12;

function printerOf(stage: string, depth = 0): string | undefined {
  const command = stage.trim().replace(PREFIX, '');
  for (const p of PRINTERS) if (p.pattern.test(command)) return p.what;
  const wrapped = depth < 2 ? WRAPPER.exec(command)?.[1] : undefined;
  if (wrapped !== undefined) {
    // The command starts at one of the first words: `docker exec -it -u root db printenv DB_PASSWORD`.
    const words = wrapped.split(/\s+/).slice(0, MAX_WRAPPED_WORDS);
    for (let i = 0; i < words.length; i++) {
      const rest = unquoted(words.slice(i).join(' '));
      const what = rest === '' ? undefined : printerOf(rest, depth + 1);
      if (what) return what;
    }
  }
  // `echo $GITHUB_TOKEN`, `printf '%s' "${DB_PASSWORD}"`, PowerShell's `Write-Output $env:API_KEY` (or the
  // variable alone, which PowerShell prints), cmd's `echo %API_KEY%`, `printenv OPENAI_API_KEY`
  const echo =
    /^(?:(?:echo|printf|Write-Output|Write-Host)\b|\[Console\]::WriteLine\()(.*)$/is.exec(command) ??
    /^(\$\{?env:[\w]+\}?)\s*$/i.exec(command);
  if (echo)
    for (const m of echo[1]!.matchAll(/\$\{?(?:env:)?([A-Za-z_]\w*)|%([A-Za-z_]\w*)%/gi)) {
      const name = m[1] ?? m[2]!;
      const written = m[2] ? `%${name}%` : /env:/i.test(m[0]) ? `$env:${name}` : `$${name}`;
      if (SECRET_VARIABLE.test(name)) return `echo of ${written}`;
    }
  const printenv = /^printenv\s+([A-Za-z_]\w*)\s*$/.exec(command);
  if (printenv && SECRET_VARIABLE.test(printenv[1]!)) return `printenv ${printenv[1]!}`;
  const file = secretFileRead(command);
  if (file) return `a read of ${file}`;
  const terraform = /^terraform\b.*?\soutput\s+(?:-\S+\s+)*-(?:raw|json)(?:\s+-\S+)*\s+([\w-]+)/.exec(command);
  if (terraform && SECRET_VARIABLE.test(terraform[1]!.replace(/-/g, '_'))) return `terraform output ${terraform[1]!}`;
  return undefined;
}

/** A command given as one quoted argument (`ssh host 'cat token.txt'`), without its quotes. */
function unquoted(s: string): string {
  const q = s[0];
  if (q !== '"' && q !== "'") return s;
  return s.endsWith(q) && s.length > 1 ? s.slice(1, -1) : s.slice(1);
}

/** Commands that print a file's bytes as they are, or encoded (`base64 token.txt`, `xxd master.key`). */
const FILE_READER =
  /^(?:cat|tac|head|tail|less|more|bat|batcat|strings|base64|xxd|od|hexdump|type|Get-Content|gc)\s+(.*)$/s;
/** A word that names a secret in a file's name (`token`, not `tokenizer` or `tokens`, a word list). */
const SECRET_FILE_WORD =
  /(?:^|[^a-z])(?:token|secrets?|passwords?|passphrase|api[-_]?keys?|apikey|access[-_]?key|pat)(?:[^a-z]|$)/i;
/** Extensions of files that hold only the secret; a YAML, JSON, env or code file is left to the rules. */
const BARE_EXTENSIONS = new Set(['', 'txt', 'token', 'secret', 'pass', 'pwd', 'pw', 'key']);
/** Files that are secrets whatever their content: Docker and Kubernetes mounts, Rails' key, .pgpass. */
const SECRET_PATH = /(?:^|\/)(?:var\/)?run\/secrets\/|(?:^|\/)(?:master\.key|\.pgpass)$/;

/** The secret file a reader prints (`cat ~/.github_token`, `type api_key.txt`), or undefined. */
function secretFileRead(command: string): string | undefined {
  const args = FILE_READER.exec(command)?.[1];
  if (args === undefined) return undefined;
  for (const word of args.split(/\s+/)) {
    const written = word.replace(/^['"]|['"]$/g, '');
    const file = written.replace(/\\/g, '/');
    if (file === '' || file.startsWith('-') || /[<>]/.test(file)) continue;
    const base = file.slice(file.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot + 1).toLowerCase()] : [base, ''];
    if (SECRET_PATH.test(file) || (BARE_EXTENSIONS.has(ext) && SECRET_FILE_WORD.test(stem))) return written;
  }
  return undefined;
}

/** Command lines longer than this are not parsed (a pasted script); its secrets are left to the rules. */
const MAX_COMMAND_LINE = 16 * 1024;

/**
 * What prints a secret in `commandLine` (for a note), or undefined. Each command of a list (`;`, `&&`,
 * `||`, lines) counts; in a pipeline the first command does (`... | base64 -d` prints it too). A command
 * inside `$( )` is not the one that prints.
 */
export function secretPrinter(commandLine: string): string | undefined {
  if (commandLine.length > MAX_COMMAND_LINE) return undefined;
  for (const segment of commandLine.split(/\r?\n|;|&&|\|\|/)) {
    const first = segment.split('|')[0] ?? '';
    const what = printerOf(first);
    if (what) return what;
  }
  return undefined;
}

/**
 * A transform for the sanitized output of such a command: every line with text becomes one marker (blank
 * lines stay). Stateful: the output comes in pieces that can cut a line anywhere.
 */
export function wholeOutputRedactor(): (text: string) => string {
  let marked = false; // the current line already has its marker
  return (text) => {
    let out = '';
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      const part = text.slice(from, nl === -1 ? text.length : nl);
      if (!marked && part.trim() !== '') {
        out += PRINTED_SECRET;
        marked = true;
      }
      if (nl === -1) return out;
      out += '\n';
      marked = false;
      from = nl + 1;
    }
  };
}
