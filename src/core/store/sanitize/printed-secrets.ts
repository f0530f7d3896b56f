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
  // With or without -raw: without it the value is printed in quotes, a sensitive one all the same.
  const terraform = /^terraform\b.*?\soutput\s+(?:-\S+\s+)*([\w-]+)/.exec(command);
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
/** Files that are secrets whatever their content: Docker and Kubernetes mounts, Rails' key, .pgpass, .htpasswd. */
const SECRET_PATH = /(?:^|\/)(?:var\/)?run\/secrets\/|(?:^|\/)(?:master\.key|\.pgpass|\.htpasswd)$/;

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
  for (const stages of pipelines(commandLine)) {
    const what = extractorIn(stages.map((st) => st.trim().replace(PREFIX, '')));
    if (what) return what;
  }
  return undefined;
}

/**
 * The pipelines of a command line and their commands, split at `;`, `&&`, `||`, line breaks and `|`
 * outside quotes: `jq -r '.data | .password'` and `python -c 'import os; print(…)'` stay whole.
 */
function pipelines(line: string): string[][] {
  const all: string[][] = [];
  let stages: string[] = [];
  let quote = '';
  let from = 0;
  const cut = (i: number, skip: number, endsPipeline: boolean): void => {
    stages.push(line.slice(from, i));
    from = i + skip;
    if (endsPipeline) {
      all.push(stages);
      stages = [];
    }
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const two = line.slice(i, i + 2);
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (two === '&&' || two === '||') cut(i++, 2, true);
    else if (c === ';' || c === '\n') cut(i, 1, true);
    else if (c === '|') cut(i, 1, false);
  }
  cut(line.length, 0, true);
  return all;
}

/** A key named for a secret as the last step of a path (`.data.password`, `dbPassword`, `["api-key"]`). */
const SECRET_KEY_NAME =
  /(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|credentials?)$|(?:^|[_-])(?:pwd|pass)$/i;

/** The names a jq/yq filter or a sops path ends its paths with: `.a.b`, `."b-c"`, `["b"]`, `['b']`. */
function lastPathNames(expr: string): string[] {
  const names: string[] = [];
  const step = /\.([A-Za-z_$][\w$-]*)|\.?"([^"\n]+)"|\[\s*(?:"([^"\n]+)"|'([^'\n]+)')\s*\]/g;
  for (const m of expr.matchAll(step)) {
    // A quoted string is a step only after a `.` or inside brackets (`select(.type == "token")` is a literal).
    if (m[2] !== undefined && !m[0].startsWith('.')) continue;
    const next = expr[m.index + m[0].length];
    if (next !== '.' && next !== '[') names.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  }
  return names;
}

/** A command's words after its name, quotes removed (enough to read filters and options). */
const argsOf = (command: string): string[] =>
  (command.match(/'[^']*'|"(?:[^"\\]|\\.)*"|\S+/g) ?? []).slice(1).map((w) => w.replace(/^(['"])([\s\S]*)\1$/, '$2'));

// A secret-named variable read in code given on the command line: Node's `process.env.X`, Python's
// `os.environ["X"]` and `os.getenv("X")`, Ruby's `ENV["X"]`, Perl's `$ENV{X}`, PHP's `getenv('X')`, Deno's.
const ENV_READ =
  /process\.env(?:\.([A-Za-z_]\w*)|\[\s*['"]([A-Za-z_]\w*)['"])|os\.environ(?:\.get\(|\[)\s*['"]([A-Za-z_]\w*)['"]|(?:os\.getenv|getenv|Deno\.env\.get|ENV\.fetch)\(\s*['"]([A-Za-z_]\w*)['"]|ENV\[\s*['"]([A-Za-z_]\w*)['"]|\$ENV\{\s*['"]?([A-Za-z_]\w*)|Bun\.env\.([A-Za-z_]\w*)/g;
const INTERPRETER = /^(?:node|nodejs|deno|bun|python[\d.]*|py|ruby|perl|php|pwsh|powershell)\b/;
/** A grep pattern naming a secret (`DB_PASSWORD`, `-i pass`, `SECRET`). */
const SECRET_PATTERN =
  /password|passwd|passphrase|pass\b|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential/i;
/** A stage that keeps a line's value and drops its name: `cut -d= -f2`, `awk '{print $2}'`, `sed 's/.*=//'`, a decode. */
const VALUE_CUTTER =
  /^(?:cut\b(?=.*(?:\s-f\s*|--fields=)(?!1(?:\s|$))\S)|[gnm]?awk\b(?=.*\$(?:[2-9]|NF))|sed\b|base64\b.*\s(?:-d|-D|--decode)\b)/;
/** A file whose name says it holds a secret once decrypted (`token.gpg`, `secret.age`, `db_password.asc`). */
const SECRET_FILE_NAME =
  /(?:^|[^a-z])(?:token|secrets?|passwords?|passphrase|api[-_]?keys?|apikey|credentials?|pat)(?:[^a-z]|$)/i;

/**
 * A stage of a pipeline that prints a bare secret picked out by its name, anywhere in the pipeline
 * (`kubectl get secret db -o json | jq -r '.data.password' | base64 -d`), or undefined. A search alone
 * (`grep -r password src/`) prints whole lines, which the rules read; only with a stage that cuts the
 * value from its name (`grep DB_PASSWORD .env | cut -d= -f2`) is the output bare.
 */
function extractorIn(stages: readonly string[]): string | undefined {
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i]!;
    const args = argsOf(stage);
    // jq/yq with a filter ending in a secret's name: `jq -r .db.password`, `yq '.spring.datasource.password'`.
    if (/^(?:jq|gojq|jaq|yq)\b/.test(stage)) {
      const name = args
        .filter((a) => !a.startsWith('-'))
        .flatMap(lastPathNames)
        .find((n) => SECRET_KEY_NAME.test(n));
      if (name) return `a ${stage.split(/\s/)[0]} read of ${name}`;
    }
    // sops picking one value: `sops -d --extract '["db"]["password"]' secrets.enc.yaml`.
    const extract = /\s--extract(?:=|\s+)(?:'([^']*)'|"([^"]*)"|(\S+))/.exec(stage);
    if (/^sops\b/.test(stage) && extract) {
      const name = lastPathNames(extract[1] ?? extract[2] ?? extract[3]!).find((n) => SECRET_KEY_NAME.test(n));
      if (name) return `a sops read of ${name}`;
    }
    // Decrypting a file named for a secret: `gpg -d token.gpg`, `age -d -i key.txt secret.age`.
    if (/^(?:gpg2?|age|rage)\b.*\s(?:-d|--decrypt)\b/.test(stage)) {
      const file = args
        .filter((a) => /\.(?:gpg|pgp|asc|age)$/i.test(a))
        .find((a) => SECRET_FILE_NAME.test(a.replace(/^.*[\\/]/, '')));
      if (file) return `a decryption of ${file}`;
    }
    if (/^pulumi\b.*?\sconfig\s+get\s+(?:-\S+\s+)*(\S+)/.test(stage)) {
      const name = /\sconfig\s+get\s+(?:-\S+\s+)*(\S+)/.exec(stage)![1]!.replace(/^.*:/, '');
      if (SECRET_KEY_NAME.test(name)) return `pulumi config get ${name}`;
    }
    if (/^pulumi\b.*?\sstack\s+output\b.*\s--show-secrets\b/.test(stage)) return 'pulumi stack output --show-secrets';
    if (/^(?:kubectl|oc)\b.*?\sview-secret\b/.test(stage)) return 'kubectl view-secret';
    // A Secret's value decoded further down: `kubectl get secret db -o yaml | grep password | … | base64 -d`.
    if (
      i > 0 &&
      /^base64\b.*\s(?:-d|-D|--decode)\b/.test(stage) &&
      /^(?:kubectl|oc)\b.*?\sget\s+secrets?\b/.test(stages[0]!)
    )
      return 'a Secret decoded from kubectl';
    // Code given on the command line that reads a secret-named variable: `node -e "console.log(process.env.DB_PASSWORD)"`.
    if (INTERPRETER.test(stage)) {
      for (const m of stage.matchAll(ENV_READ)) {
        const name = m.slice(1).find((g) => g !== undefined)!;
        if (SECRET_KEY_NAME.test(name) || /(?:_key|_pass)$/i.test(name)) return `code printing ${name}`;
      }
      if (/\bkeyring\.get_password\(/.test(stage)) return 'a keyring read';
    }
    // A search for a secret's name whose lines lose the name further down: `grep DB_PASSWORD .env | cut -d= -f2`.
    if (
      /^(?:grep|egrep|rg|ag|findstr|Select-String)\b/.test(stage) &&
      !/\s(?:-[a-zA-Z]*[lLc][a-zA-Z]*|--files-with(?:out)?-match(?:es)?|--count)\b/.test(stage)
    ) {
      const pattern = args.find((a) => !a.startsWith('-'));
      const onlyMatch = /\s(?:-[a-zA-Z]*o[a-zA-Z]*|--only-matching)\b/.test(stage);
      if (
        pattern &&
        SECRET_PATTERN.test(pattern) &&
        (onlyMatch || stages.slice(i + 1).some((st) => VALUE_CUTTER.test(st)))
      )
        return `a search for ${pattern} cut to its value`;
    }
    // awk or sed picking a secret's value by its name: `awk -F= '/DB_PASSWORD/{print $2}' .env`, `sed -n 's/^TOKEN=//p'`.
    if (
      /^[gnm]?awk\b/.test(stage) &&
      /\$(?:[2-9]|NF)\b/.test(stage) &&
      args.some((a) => !a.startsWith('-') && SECRET_PATTERN.test(a) && /print/.test(a))
    )
      return 'awk printing a secret';
    if (/^sed\b/.test(stage) && args.some((a) => /^s(.).*\1.*\1[gp]*$/.test(a) && SECRET_PATTERN.test(a)))
      return 'sed printing a secret';
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
