// Values handed to a secret store by command (every value is a secret, whatever its name), and values a
// workflow declares secret. Values read from standard input are in commands.ts.
import { ARG, IN_COMMAND, literal, OPTIONS } from './shell-words';
import { SECRET_NAME_END, type SecretRule } from './types';

/** `pulumi config set`'s options before the key (`--secret` and `--path` alone, the others with a value). */
const PULUMI_OPTIONS = String.raw`(?:[ \t]+(?:--secret|--plaintext|--path|(?:-s|--stack|-C|--cwd|--config-file)(?:=|[ \t]+)[^\s|;&]+))*`;
/** A configuration key named for a secret (`dbPassword`, `app:apiKey`, `stripe.secretKey`). */
const SECRET_KEY = String.raw`[\w.:/-]*?${SECRET_NAME_END}[\w.:/-]*`;

export const SECRET_STORE_RULES: readonly SecretRule[] = [
  {
    id: 'cli-password',
    title:
      'Values given to a secret store by option (gh secret set --body, aws secretsmanager --secret-string, az keyvault secret set --value)',
    keywords: ['secret set', 'secretsmanager'],
    pattern: new RegExp(
      String.raw`\b(?:gh[ \t]+secret[ \t]+set\b[^\n|;&]{0,1024}?[ \t](?:--body|-b)|aws[ \t]+secretsmanager\b[^\n|;&]{0,1024}?[ \t]--secret-string|az[ \t]+keyvault[ \t]+secret[ \t]+set\b[^\n|;&]{0,1024}?[ \t]--value)(?:=|[ \t]+)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // Every value a secret store is given is a secret, whatever its name (`fly secrets set LICENSE=…`).
    id: 'cli-password',
    title: 'Values set in a secret store by NAME=VALUE (fly / flyctl / supabase / doppler secrets set)',
    keywords: ['secrets set'],
    pattern: new RegExp(
      String.raw`[ \t]["']?[A-Za-z_][\w.-]*=(?<=\b(?:fly|flyctl|supabase|doppler)[ \t]+secrets[ \t]+set\b[^\n|;&]{0,1024})(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'Values set in a secret store as two words (doppler secrets set NAME VALUE)',
    keywords: ['secrets set'],
    pattern: new RegExp(
      String.raw`\bdoppler[ \t]+secrets[ \t]+set${OPTIONS}[ \t]+[A-Za-z_][\w.-]*[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: 'SecureString parameters put by command (aws ssm put-parameter --type SecureString --value …)',
    keywords: ['securestring'],
    pattern: new RegExp(
      String.raw`\baws[ \t]+ssm[ \t]+put-parameter\b(?=[^\n|;&]{0,1024}SecureString)${IN_COMMAND}[ \t]--value(?:=|[ \t]+)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    id: 'cli-password',
    title: '.NET user secrets set by command (dotnet user-secrets set KEY VALUE): every value, whatever its key',
    keywords: ['user-secrets'],
    pattern: new RegExp(
      String.raw`\bdotnet[ \t]+user-secrets[ \t]+set${OPTIONS}[ \t]+${ARG}[ \t]+(?!-)(?<secret>${ARG})`,
      'g',
    ),
    accept: literal,
  },
  {
    // `--secret` makes Pulumi encrypt the value: every value so set is one, whatever its key.
    id: 'cli-password',
    title: 'Values set by pulumi config set --secret KEY VALUE, or under a key named for a secret',
    keywords: ['pulumi config'],
    pattern: new RegExp(
      String.raw`\bpulumi[ \t]+config[ \t]+set(?:(?=[^\n|;&]{0,1024}[ \t]--secret\b)|(?=${PULUMI_OPTIONS}[ \t]+${SECRET_KEY}[ \t]))${PULUMI_OPTIONS}[ \t]+(?!-)[^\s|;&]+[ \t]+(?!-)(?<secret>${ARG})`,
      'gi',
    ),
    accept: literal,
  },
  {
    // A workflow step hides a value from its log this way, so the value is a secret by its author's word.
    id: 'stdin-password',
    title: 'Values masked in GitHub Actions (::add-mask::…)',
    keywords: ['::add-mask::'],
    pattern: /(?<![^\s"'\x60])::add-mask::(?<secret>[^\s"'\x60\\]+)/g,
    accept: literal,
  },
];
