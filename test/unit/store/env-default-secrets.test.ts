// The default a program falls back to when a secret-named environment variable is unset is a secret
// written in the file: Compose's `${POSTGRES_PASSWORD:-…}`, Spring's `${DB_PASSWORD:…}`, Django's
// `os.environ.get("SECRET_KEY", "django-insecure-…")`, `process.env.JWT_SECRET || "…"`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecretsSync } from '../../../src/core/store/sanitize/secrets';
import { assertStreamedAsWhole } from './helpers';

const clean = (s: string): string => redactSecretsSync(s).text;
const M = '[REDACTED:env-secret]';

test('the default of a secret-named variable is redacted, the name and the call stay', () => {
  const cases: [string, string][] = [
    [
      '      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-pgDev2024x}',
      `      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-${M}}`,
    ],
    ['pw="${DB_PASSWORD-r00tPw42}"', `pw="\${DB_PASSWORD-${M}}"`],
    ['spring.datasource.password=${DB_PASSWORD:s3cretSpring}', `spring.datasource.password=\${DB_PASSWORD:${M}}`],
    ['password = os.getenv("DB_PASSWORD", "hunter2isMyPw")', `password = os.getenv("DB_PASSWORD", "${M}")`],
    [
      "SECRET_KEY = env('DJANGO_SECRET_KEY', default='django-insecure-k2x8v9q0w3e7r5t1y')",
      `SECRET_KEY = env('DJANGO_SECRET_KEY', default='${M}')`,
    ],
    ['jwtKey := getEnv("JWT_SECRET", "goDefaultS3cret")', `jwtKey := getEnv("JWT_SECRET", "${M}")`],
    ['token = ENV.fetch("API_TOKEN", "rubyT0kenDefault")', `token = ENV.fetch("API_TOKEN", "${M}")`],
    [
      "const secret = process.env.JWT_SECRET || 'nodeDefaultS3cret';",
      `const secret = process.env.JWT_SECRET || '${M}';`,
    ],
    [
      'const k = process.env["STRIPE_API_KEY"] ?? "sk_test_abc123XYZ";',
      `const k = process.env["STRIPE_API_KEY"] ?? "${M}";`,
    ],
    // black puts a long call's arguments on lines of their own.
    [
      'SECRET_KEY = os.environ.get(\n    "DJANGO_SECRET_KEY",\n    "django-insecure-k2x8v9q0w3e7r5t1y",\n)',
      `SECRET_KEY = os.environ.get(\n    "DJANGO_SECRET_KEY",\n    "${M}",\n)`,
    ],
  ];
  for (const [input, want] of cases) assert.equal(clean(input), want, input);
});

test('no default, a reference, an error message or a variable that is no secret stays', () => {
  const kept = [
    'os.getenv("API_KEY", "")',
    'config("SECRET_KEY", cast=str)',
    'env("DATABASE_PASSWORD", default=None)',
    'os.getenv("DB_PASSWORD", default_password)',
    '${TOKEN:-}',
    '${DB_PASSWORD:-$DEFAULT_PASSWORD}',
    '${GITHUB_TOKEN:?GITHUB_TOKEN must be set}',
    '${API_TOKEN:+--token=abc}',
    '${SSH_AUTH_SOCK:-/tmp/agent.sock}',
    '${GPG_KEY_ID:-ABCDEF0123}',
    'os.environ.get("SECRET_KEY_FILE", "/run/secrets/django")',
    'getenv("MAX_TOKENS", "4096")',
    'process.env.API_KEY || ""',
    'process.env.SECRET ?? defaultSecret',
    'process.env.TOKEN_URL || "https://login.example.com/token"',
    'os.getenv("TOKEN", "<your token>")',
  ];
  for (const line of kept) assert.equal(clean(line), line, line);
});

test('a default is redacted the same when the text streams in pieces', async () => {
  await assertStreamedAsWhole(
    'services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-pgDev2024x}\n' +
      'SECRET_KEY = os.environ.get(\n    "DJANGO_SECRET_KEY",\n    "django-insecure-k2x8v9q0w3e7r5t1y",\n)\n',
    [1, 7, 64],
    64,
  );
});
