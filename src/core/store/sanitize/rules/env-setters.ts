// Environment variables and constants whose name says they hold a secret, set by a call
// (`os.Setenv("API_KEY", …)`) or by a command that takes the name and the value as two words (`setx`,
// fish's `set -gx`, PowerShell's `Set-Item env:`). `NAME=value` assignments are in context.ts.
import { ARG } from './shell-words';
import { literalValue, QUOTED, type SecretRule } from './types';

/** Parts after a secret word that make the name one of its settings, not the secret (`TOKEN_URL`, `KEY_ID`). */
const SETTING_PART = String.raw`(?:FILE|PATH|URL|URI|DIR|ID|NAME|TYPE|HOST|PORT|USER|USERNAME|LENGTH|SIZE|TTL|LIFETIME|TIMEOUT|EXPIRY|EXPIRES|ENDPOINT|HEADER|PREFIX|FORMAT|ALGORITHM|LOCATION|ARN|REF|VAR|ENV)(?![A-Z0-9])`;

/**
 * An environment variable whose name says it holds a secret (`DB_PASSWORD`, `OPENAI_API_KEY`, `GH_PAT`,
 * `SECRET_KEY_BASE`, `DB_PASSWORD_PROD`, WordPress's `AUTH_SALT`); the short words only as a whole part,
 * so `PATH`, `KEYCLOAK_URL`, `TOKEN_URL` and `DB_PASSWORD_FILE` (Docker's path to the secret) are not.
 * Read without case (the rules' `i` flag): Windows' names are not case-sensitive (`setx OpenAI_Key`).
 */
export const SECRET_VAR = String.raw`(?:[A-Z0-9]+_)*(?:(?:[A-Z0-9]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIALS?)|APIKEY|KEY)(?:_(?!${SETTING_PART})[A-Z0-9]+){0,2}|PASS|PWD|AUTH|PAT|SALT)(?![A-Za-z0-9_])`;

/** Where a command starts: a line, a blank, a list, a pipe, a subshell, a quote or a backtick. */
const COMMAND_START = String.raw`(?:^|[\s;&|(\x60"'])`;

export const ENV_SETTER_RULES: readonly SecretRule[] = [
  {
    // `os.Setenv("API_KEY", "…")`, `monkeypatch.setenv(…)`, `os.environ.setdefault(…)`, `Deno.env.set(…)`,
    // `define('DB_PASSWORD', '…')` (wp-config.php), .NET's `Environment.SetEnvironmentVariable(…)`: a call
    // that sets a name that says it holds a secret.
    id: 'env-secret',
    title:
      "Secret-named environment variables and constants set by a call (setenv, Setenv, putenv, setdefault, env.set, SetEnvironmentVariable, PHP's define)",
    keywords: ['setenv', 'putenv', 'setdefault', 'env.set', 'define('],
    pattern: new RegExp(
      String.raw`\b(?:[Ss]etenv|putenv|setdefault|env\.set|SetEnvironmentVariable|define)\([ \t]*["']${SECRET_VAR}["'][ \t]*,[ \t]*(?<secret>${QUOTED})`,
      'gi',
    ),
    accept: literalValue,
  },
  {
    // Where the name and the value are two words: Windows' `setx`, fish's `set -gx`, csh's and launchctl's
    // `setenv`, Netlify's `env:set`, WP-CLI's `wp config set` (a wp-config.php constant). An option must
    // follow fish's `set` (`-x`, `--global`; not `-e`, which erases), so prose ("set API_KEY to …") is not
    // read as one.
    id: 'env-secret',
    title:
      "Secret-named environment variables set by a command (setx NAME VALUE, fish's set -gx, setenv, launchctl setenv, netlify env:set, wp config set)",
    keywords: ['setx', 'set -', 'setenv', 'env:set', 'config set'],
    pattern: new RegExp(
      String.raw`${COMMAND_START}(?:setx|SETX|(?:launchctl[ \t]+)?setenv|set(?:[ \t]+(?:-[gUlxfpa]+|--(?:export|global|universal|local|append|prepend)))+|netlify[ \t]+env:set|wp[ \t]+config[ \t]+set)[ \t]+["']?${SECRET_VAR}["']?[ \t]+(?!-)(?<secret>${ARG})`,
      'gim',
    ),
    accept: literalValue,
  },
  {
    id: 'env-secret',
    title: "Secret-named environment variables set by PowerShell's Set-Item / New-Item env:NAME VALUE",
    keywords: ['env:'],
    pattern: new RegExp(
      String.raw`${COMMAND_START}(?:[Ss]et-[Ii]tem|[Nn]ew-[Ii]tem|[Ss]et-[Cc]ontent|si|ni)(?:[ \t]+-[Pp]ath)?[ \t]+["']?[Ee]nv:\\?${SECRET_VAR}["']?(?:[ \t]+-[Vv]alue)?[ \t]+(?!-)(?<secret>${ARG})`,
      'gim',
    ),
    accept: literalValue,
  },
];
