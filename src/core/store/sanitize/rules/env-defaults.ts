// The default a program falls back to when a secret-named environment variable is unset: a secret
// written into the code or the compose file itself (`${POSTGRES_PASSWORD:-…}`, Django's
// `SECRET_KEY = os.environ.get("SECRET_KEY", "django-insecure-…")`, `process.env.JWT_SECRET || "…"`).
// The assignment rules read the name on the left and take the call on the right for code; the literal
// inside the call is the secret.
import { SECRET_VAR } from './env-setters';
import { literalValue, QUOTED, type SecretRule } from './types';

/** A call that reads an environment variable or a setting with a default (Python, Go, Java, PHP, Ruby). */
const READ_CALL = String.raw`(?:\b(?:os\.)?getenv|\b(?:os\.)?environ\.get|\benv(?:\.str)?|\bconfig|\bENV\.fetch|\b(?:\w+\.)?get_?env\w*)`;

/** Blanks, with at most one line break among them. */
const BREAK = String.raw`[ \t]*(?:\r?\n[ \t]*)?`;

export const ENV_DEFAULT_RULES: readonly SecretRule[] = [
  {
    // Shell and Compose's `${NAME:-default}` / `${NAME-default}` / `${NAME:=default}`, Spring's
    // `${NAME:default}`; not `${NAME:?message}` nor `${NAME:+alternative}`.
    id: 'env-secret',
    title: 'Defaults of secret-named variables in ${NAME:-default} (shell, Compose) and ${NAME:default} (Spring)',
    keywords: ['${'],
    pattern: new RegExp(String.raw`\$\{${SECRET_VAR}(?::?[-=]|:(?![?+]))(?<secret>[^}\s]+)\}`, 'gi'),
    accept: literalValue,
  },
  {
    // `os.getenv("DB_PASSWORD", "…")`, `env("SECRET_KEY", default="…")`, `ENV.fetch("API_TOKEN", "…")`,
    // Go's `getEnv("JWT_SECRET", "…")`: a quoted default only (`None`, a name or a call is code). The
    // arguments may stand on lines of their own (black wraps a long call so).
    id: 'env-secret',
    title: 'Defaults of secret-named variables read by a call (os.getenv, environ.get, env(), config(), ENV.fetch)',
    keywords: ['getenv', 'environ.get', 'env(', 'env.str(', 'config(', 'env.fetch('],
    multiline: true,
    pattern: new RegExp(
      String.raw`${READ_CALL}\(${BREAK}["']${SECRET_VAR}["'][ \t]*,${BREAK}(?:default[ \t]*=[ \t]*)?(?<secret>${QUOTED})`,
      'gi',
    ),
    accept: literalValue,
  },
  {
    // `process.env.JWT_SECRET || "…"`, `process.env["API_KEY"] ?? '…'`, Ruby's `ENV["TOKEN"] || "…"`.
    id: 'env-secret',
    title: 'Defaults of secret-named variables after || or ?? (process.env.NAME || "…", ENV["NAME"] || "…")',
    keywords: ['process.env', 'import.meta.env', 'env['],
    pattern: new RegExp(
      String.raw`(?:\bprocess\.env|\bimport\.meta\.env|\bENV)(?:\.${SECRET_VAR}|\[[ \t]*["']${SECRET_VAR}["'][ \t]*\])[ \t]*(?:\|\||\?\?|\bor\b)[ \t]*(?<secret>${QUOTED})`,
      'gi',
    ),
    accept: literalValue,
  },
];
