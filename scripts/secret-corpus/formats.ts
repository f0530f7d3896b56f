// The fake-secret formats of the corpus: how each looks and a line it typically stands in.
// Every value is random from a seeded generator; checksums are computed, so they are format-valid.
import {
  ALNUM,
  B64,
  B64URL,
  BASE32,
  base64url,
  checksummedToken,
  crc24,
  HEX,
  LOWER_ALNUM,
  type Rng,
  UPPER_ALNUM,
  wrap64,
} from './random';

/** Lowercase letters: the words of a passphrase. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface CorpusEntry {
  /** The format, e.g. `github-pat`. */
  format: string;
  /** The rule id expected in `[REDACTED:<rule>]` when the line is redacted on its own. */
  rule: string;
  /** The secret value: no part of it may reach disk. */
  secret: string;
  /** Parts checked instead of `secret` when it spans lines (a key block's body lines). */
  needles?: string[];
  /** A line (or block) the secret typically appears in. */
  line: string;
  /** Recognisable without its line (a prefixed token): also tested inside a URL. */
  standalone: boolean;
}

type Make = (rng: Rng) => { secret: string; line: string; needles?: string[] };
interface Format {
  format: string;
  rule: string;
  standalone: boolean;
  make: Make;
}

const tok = (format: string, rule: string, make: (rng: Rng) => string, line: (s: string) => string): Format => ({
  format,
  rule,
  standalone: true,
  make: (rng) => {
    const secret = make(rng);
    return { secret, line: line(secret) };
  },
});
const ctx = (format: string, rule: string, make: Make): Format => ({ format, rule, standalone: false, make });

function pem(rng: Rng, label: string, bytes: number): { secret: string; line: string; needles: string[] } {
  const body = wrap64(rng.bytes(bytes));
  const secret = [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
  return { secret, line: secret, needles: body.filter((l) => l.length >= 16) };
}

/** A private key's DER (`prefix` in hex, then random bytes) in base64: in PEM lines, or on one line. */
function derKey(
  rng: Rng,
  prefix: string,
  bytes: number,
  lines: boolean,
): { secret: string; line: string; needles: string[] } {
  const der = Buffer.concat([Buffer.from(prefix, 'hex'), rng.bytes(bytes)]);
  const body = lines ? wrap64(der) : [der.toString('base64')];
  const secret = body.join('\n');
  return { secret, line: secret, needles: body.filter((l) => l.length >= 16) };
}

const password = (rng: Rng): string => `${rng.str(ALNUM, 6)}!${rng.str(ALNUM, 5)}#${rng.int(90) + 10}`;

export const FORMATS: Format[] = [
  // Cloud
  tok(
    'aws-access-key-id',
    'aws-access-key-id',
    (r) => `AKIA${r.str(BASE32, 16)}`,
    (s) => `aws_access_key_id = ${s}`,
  ),
  tok(
    'aws-sts-access-key-id',
    'aws-access-key-id',
    (r) => `ASIA${r.str(BASE32, 16)}`,
    (s) => `"AccessKeyId": "${s}",`,
  ),
  ctx('aws-secret-access-key', 'aws-secret-access-key', (r) => {
    const secret = r.str(B64, 40);
    return { secret, line: `aws_secret_access_key = ${secret}` };
  }),
  ctx('aws-sts-secret-json', 'aws-secret-access-key', (r) => {
    const secret = r.str(B64, 40);
    return { secret, line: `        "SecretAccessKey": "${secret}",` };
  }),
  tok(
    'gcp-api-key',
    'google-api-key',
    (r) => `AIza${r.str(B64URL, 35)}`,
    (s) => `const firebaseConfig = { apiKey: "${s}" };`,
  ),
  tok(
    'google-ai-gemini-key',
    'google-api-key',
    (r) => `AIza${r.str(B64URL, 35)}`,
    (s) => `GEMINI_API_KEY=${s}`,
  ),
  ctx('gcp-service-account-key', 'private-key', (r) => {
    const body = wrap64(r.bytes(1190));
    const block = `-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n`;
    return { secret: block, line: `  "private_key": "${block}",`, needles: body.filter((l) => l.length >= 16) };
  }),
  ctx('gcp-private-key-id', 'gcp-private-key-id', (r) => {
    const secret = r.str(HEX, 40);
    return { secret, line: `  "private_key_id": "${secret}",` };
  }),
  tok(
    'google-oauth-client-secret',
    'google-oauth-secret',
    (r) => `GOCSPX-${r.str(B64URL, 28)}`,
    (s) => `client_secret: ${s}`,
  ),
  tok(
    'google-oauth-access-token',
    'google-oauth-token',
    (r) => `ya29.a0${r.str(B64URL, 120)}`,
    (s) => `token ${s} expires in 3599`,
  ),
  ctx('azure-storage-connection-string', 'azure-storage-key', (r) => {
    const secret = r.bytes(64).toString('base64');
    return {
      secret,
      line: `DefaultEndpointsProtocol=https;AccountName=st${r.str(LOWER_ALNUM, 8)};AccountKey=${secret};EndpointSuffix=core.windows.net`,
    };
  }),
  ctx('azure-service-bus-key', 'azure-storage-key', (r) => {
    const secret = r.bytes(32).toString('base64');
    return {
      secret,
      line: `Endpoint=sb://ns-${r.str(LOWER_ALNUM, 6)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${secret}`,
    };
  }),
  tok(
    'azure-ad-client-secret',
    'azure-ad-client-secret',
    (r) => `${r.str(ALNUM, 3)}${r.int(10)}Q~${r.str(ALNUM + '_.~-', 34)}`,
    (s) => `AZURE_CLIENT_SECRET="${s}"`,
  ),
  ctx('azure-sas-token', 'url-secret-param', (r) => {
    const secret = encodeURIComponent(r.bytes(32).toString('base64'));
    return {
      secret,
      line: `curl "https://st${r.str(LOWER_ALNUM, 6)}.blob.core.windows.net/data/report.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${secret}"`,
    };
  }),
  tok(
    'digitalocean-token',
    'digitalocean-token',
    (r) => `dop_v1_${r.str(HEX, 64)}`,
    (s) => `doctl auth init -t ${s}`,
  ),
  tok(
    'vault-token',
    'hashicorp-vault-token',
    (r) => `hvs.${r.str(B64URL, 90)}`,
    (s) => `VAULT_TOKEN=${s}`,
  ),
  tok(
    'databricks-token',
    'databricks-token',
    (r) => `dapi${r.str(HEX, 32)}`,
    (s) => `databricks configure --token ${s}`,
  ),

  // Forges
  tok(
    'github-pat',
    'github-token',
    (r) => checksummedToken(r, 'ghp_'),
    (s) => `git remote set-url origin https://x-access-token:${s}@github.com/acme/app.git`,
  ),
  tok(
    'github-oauth',
    'github-token',
    (r) => checksummedToken(r, 'gho_'),
    (s) => `oauth_token: ${s}`,
  ),
  tok(
    'github-app-installation',
    'github-token',
    (r) => checksummedToken(r, 'ghs_'),
    (s) => `Authorization: token ${s}`,
  ),
  tok(
    'github-user-to-server',
    'github-token',
    (r) => checksummedToken(r, 'ghu_'),
    (s) => `GH_TOKEN=${s} gh pr list`,
  ),
  tok(
    'github-refresh',
    'github-token',
    (r) => checksummedToken(r, 'ghr_'),
    (s) => `refresh_token=${s}&grant_type=refresh_token`,
  ),
  tok(
    'github-fine-grained',
    'github-token',
    (r) => `github_pat_${r.str(ALNUM, 22)}_${r.str(ALNUM, 59)}`,
    (s) => `token = "${s}"`,
  ),
  tok(
    'gitlab-pat',
    'gitlab-token',
    (r) => `glpat-${r.str(B64URL, 20)}`,
    (s) => `PRIVATE-TOKEN: ${s}`,
  ),
  tok(
    'gitlab-pat-routable',
    'gitlab-token',
    (r) => `glpat-${r.str(B64URL, 36)}.01.${r.str(LOWER_ALNUM, 9)}`,
    (s) => `export GITLAB_TOKEN=${s}`,
  ),
  tok(
    'gitlab-runner',
    'gitlab-token',
    (r) => `glrt-${r.str(B64URL, 20)}`,
    (s) => `gitlab-runner register --token ${s}`,
  ),
  tok(
    'gitlab-deploy',
    'gitlab-token',
    (r) => `gldt-${r.str(B64URL, 20)}`,
    (s) => `deploy token ${s}`,
  ),
  tok(
    'bitbucket-app-password',
    'bitbucket-app-password',
    (r) => `ATBB${r.str(ALNUM, 32)}${r.str(HEX.toUpperCase(), 8)}`,
    (s) => `BITBUCKET_APP_PASSWORD=${s}`,
  ),
  tok(
    'atlassian-api-token',
    'atlassian-token',
    (r) => `ATATT3xFfGF0${r.str(B64URL, 180)}=${r.str(HEX.toUpperCase(), 8)}`,
    (s) => `jira token ${s}`,
  ),

  // Chat and mail
  tok(
    'slack-bot-token',
    'slack-token',
    (r) => `xoxb-${r.int(9e11) + 1e11}-${r.int(9e12) + 1e12}-${r.str(ALNUM, 24)}`,
    (s) => `SLACK_BOT_TOKEN=${s}`,
  ),
  tok(
    'slack-user-token',
    'slack-token',
    (r) => `xoxp-${r.int(9e11) + 1e11}-${r.int(9e11) + 1e11}-${r.int(9e12) + 1e12}-${r.str(HEX, 32)}`,
    (s) => `slack token: ${s}`,
  ),
  tok(
    'slack-app-token',
    'slack-token',
    (r) => `xapp-1-A${r.str(UPPER_ALNUM, 10)}-${r.int(9e12) + 1e12}-${r.str(HEX, 64)}`,
    (s) => `app_token=${s}`,
  ),
  ctx('slack-webhook', 'slack-webhook', (r) => {
    const secret = `T${r.str(UPPER_ALNUM, 8)}/B${r.str(UPPER_ALNUM, 10)}/${r.str(ALNUM, 24)}`;
    return { secret, line: `curl -X POST https://hooks.slack.com/services/${secret} -d @msg.json` };
  }),
  ctx('discord-webhook', 'discord-webhook', (r) => {
    const secret = `${r.int(9e17) + 1e17}/${r.str(B64URL, 68)}`;
    return { secret, line: `webhook: https://discord.com/api/webhooks/${secret}` };
  }),
  tok(
    'sendgrid-api-key',
    'sendgrid-api-key',
    (r) => `SG.${r.str(B64URL, 22)}.${r.str(B64URL, 43)}`,
    (s) => `SENDGRID_API_KEY='${s}'`,
  ),
  tok(
    'twilio-api-key-sid',
    'twilio-api-key',
    (r) => `SK${r.str(HEX, 32)}`,
    (s) => `client = Client("${s}", api_secret)`,
  ),
  ctx('twilio-auth-token', 'vendor-secret', (r) => {
    const secret = r.str(HEX, 32);
    return { secret, line: `TWILIO_AUTH_TOKEN=${secret}` };
  }),
  tok(
    'mailgun-api-key',
    'mailgun-api-key',
    (r) => `key-${r.str(HEX, 32)}`,
    (s) => `curl -s --user 'api:${s}' https://api.mailgun.net/v3/mg.example.com/messages`,
  ),
  tok(
    'mailchimp-api-key',
    'mailchimp-api-key',
    (r) => `${r.str(HEX, 32)}-us${r.int(20) + 1}`,
    (s) => `mailchimp.setConfig({ apiKey: "${s}" })`,
  ),

  // Payments
  tok(
    'stripe-live-secret',
    'stripe-key',
    (r) => `sk_live_51${r.str(ALNUM, 97)}`,
    (s) => `Stripe.api_key = "${s}"`,
  ),
  tok(
    'stripe-restricted',
    'stripe-key',
    (r) => `rk_live_51${r.str(ALNUM, 97)}`,
    (s) => `STRIPE_RESTRICTED_KEY=${s}`,
  ),
  tok(
    'stripe-test-secret',
    'stripe-key',
    (r) => `sk_test_51${r.str(ALNUM, 97)}`,
    (s) => `stripe listen --api-key ${s}`,
  ),
  tok(
    'stripe-webhook-secret',
    'stripe-webhook-secret',
    (r) => `whsec_${r.str(ALNUM, 32)}`,
    (s) => `endpoint_secret = '${s}'`,
  ),
  tok(
    'square-access-token',
    'square-token',
    (r) => `sq0atp-${r.str(B64URL, 22)}`,
    (s) => `square token ${s}`,
  ),
  tok(
    'shopify-access-token',
    'shopify-token',
    (r) => `shpat_${r.str(HEX, 32)}`,
    (s) => `X-Shopify-Access-Token: ${s}`,
  ),

  // Package registries
  tok(
    'npm-token',
    'npm-token',
    (r) => checksummedToken(r, 'npm_'),
    (s) => `//registry.npmjs.org/:_authToken=${s}`,
  ),
  ctx('npm-legacy-token', 'npmrc-auth', (r) => {
    const secret = `${r.str(HEX, 8)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 12)}`;
    return { secret, line: `//registry.npmjs.org/:_authToken=${secret}` };
  }),
  tok(
    'pypi-token',
    'pypi-token',
    (r) =>
      `pypi-${base64url(Buffer.concat([Buffer.from([2, 1, 8]), Buffer.from('pypi.org'), Buffer.from([2, 0x2a]), r.bytes(120)]))}`,
    (s) => `twine upload -u __token__ -p ${s} dist/*`,
  ),
  tok(
    'rubygems-token',
    'rubygems-token',
    (r) => `rubygems_${r.str(HEX, 48)}`,
    (s) => `:rubygems_api_key: ${s}`,
  ),
  tok(
    'docker-hub-pat',
    'docker-hub-token',
    (r) => `dckr_pat_${r.str(B64URL, 27)}`,
    (s) => `echo ${s} | docker login -u ci --password-stdin`,
  ),

  // AI providers
  tok(
    'openai-project-key',
    'openai-api-key',
    (r) => `sk-proj-${r.str(B64URL, 74)}T3BlbkFJ${r.str(B64URL, 74)}`,
    (s) => `OPENAI_API_KEY=${s}`,
  ),
  tok(
    'openai-service-account-key',
    'openai-api-key',
    (r) => `sk-svcacct-${r.str(B64URL, 74)}T3BlbkFJ${r.str(B64URL, 74)}`,
    (s) => `api_key="${s}"`,
  ),
  tok(
    'openai-admin-key',
    'openai-api-key',
    (r) => `sk-admin-${r.str(B64URL, 58)}T3BlbkFJ${r.str(B64URL, 58)}`,
    (s) => `openai admin ${s}`,
  ),
  tok(
    'openai-legacy-key',
    'openai-api-key',
    (r) => `sk-${r.str(ALNUM, 20)}T3BlbkFJ${r.str(ALNUM, 20)}`,
    (s) => `openai.api_key = "${s}"`,
  ),
  tok(
    'anthropic-api-key',
    'anthropic-api-key',
    (r) => `sk-ant-api03-${r.str(B64URL, 93)}AA`,
    (s) => `ANTHROPIC_API_KEY=${s}`,
  ),
  tok(
    'anthropic-admin-key',
    'anthropic-api-key',
    (r) => `sk-ant-admin01-${r.str(B64URL, 93)}AA`,
    (s) => `x-api-key: ${s}`,
  ),
  tok(
    'anthropic-oauth-token',
    'anthropic-api-key',
    (r) => `sk-ant-oat01-${r.str(B64URL, 93)}AA`,
    (s) => `CLAUDE_CODE_OAUTH_TOKEN=${s}`,
  ),
  tok(
    'huggingface-token',
    'huggingface-token',
    (r) => `hf_${r.str(ALNUM.slice(0, 52), 34)}`,
    (s) => `huggingface-cli login --token ${s}`,
  ),
  tok(
    'groq-api-key',
    'groq-api-key',
    (r) => `gsk_${r.str(ALNUM, 52)}`,
    (s) => `GROQ_API_KEY=${s}`,
  ),
  tok(
    'replicate-token',
    'replicate-token',
    (r) => `r8_${r.str(ALNUM, 37)}`,
    (s) => `export REPLICATE_API_TOKEN=${s}`,
  ),
  tok(
    'xai-api-key',
    'xai-api-key',
    (r) => `xai-${r.str(ALNUM, 80)}`,
    (s) => `XAI_API_KEY=${s}`,
  ),
  tok(
    'perplexity-api-key',
    'perplexity-api-key',
    (r) => `pplx-${r.str(ALNUM, 48)}`,
    (s) => `pplx key ${s}`,
  ),
  tok(
    'openrouter-api-key',
    'openrouter-api-key',
    (r) => `sk-or-v1-${r.str(HEX, 64)}`,
    (s) => `OPENROUTER_API_KEY=${s}`,
  ),
  tok(
    'deepseek-api-key',
    'sk-api-key',
    (r) => `sk-${r.str(HEX, 32)}`,
    (s) => `client = OpenAI(api_key="${s}", base_url="https://api.deepseek.com")`,
  ),
  tok(
    'langsmith-api-key',
    'langsmith-api-key',
    (r) => `lsv2_pt_${r.str(HEX, 32)}_${r.str(HEX, 10)}`,
    (s) => `LANGSMITH_API_KEY=${s}`,
  ),
  tok(
    'langfuse-secret-key',
    'langfuse-secret-key',
    (r) => `sk-lf-${r.str(HEX, 8)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 12)}`,
    (s) => `LANGFUSE_SECRET_KEY=${s}`,
  ),
  tok(
    'tavily-api-key',
    'tavily-api-key',
    (r) => `tvly-dev-${r.str(ALNUM, 32)}`,
    (s) => `client = TavilyClient(api_key="${s}")`,
  ),
  tok(
    'firecrawl-api-key',
    'firecrawl-api-key',
    (r) => `fc-${r.str(HEX, 32)}`,
    (s) => `app = FirecrawlApp(api_key="${s}")`,
  ),
  tok(
    'nvidia-api-key',
    'nvidia-api-key',
    (r) => `nvapi-${r.str(B64URL, 64)}`,
    (s) => `export NVIDIA_API_KEY=${s}`,
  ),
  tok(
    'elevenlabs-api-key',
    'elevenlabs-api-key',
    (r) => `sk_${r.str(HEX, 48)}`,
    (s) => `client = ElevenLabs(api_key="${s}")`,
  ),

  // Developer services
  tok(
    'linear-api-key',
    'linear-api-key',
    (r) => `lin_api_${r.str(ALNUM, 40)}`,
    (s) => `LINEAR_API_KEY=${s}`,
  ),
  tok(
    'notion-token',
    'notion-token',
    (r) => `ntn_${r.str('0123456789', 11)}${r.str(ALNUM, 35)}`,
    (s) => `notion = Client(auth="${s}")`,
  ),
  tok(
    'supabase-access-token',
    'supabase-token',
    (r) => `sbp_${r.str(HEX, 40)}`,
    (s) => `supabase login --token ${s}`,
  ),
  tok(
    'figma-token',
    'figma-token',
    (r) => `figd_${r.str(B64URL, 40)}`,
    (s) => `curl -H 'X-Figma-Token: ${s}' https://api.figma.com/v1/me`,
  ),
  tok(
    'sentry-user-token',
    'sentry-token',
    (r) => `sntryu_${r.str(HEX, 64)}`,
    (s) => `SENTRY_AUTH_TOKEN=${s}`,
  ),
  tok(
    'grafana-service-account',
    'grafana-token',
    (r) => `glsa_${r.str(ALNUM, 32)}_${r.str(HEX, 8)}`,
    (s) => `grafana token ${s}`,
  ),
  tok(
    'postman-api-key',
    'postman-api-key',
    (r) => `PMAK-${r.str(HEX, 24)}-${r.str(HEX, 34)}`,
    (s) => `postman key ${s}`,
  ),
  tok(
    'newrelic-user-key',
    'newrelic-key',
    (r) => `NRAK-${r.str(UPPER_ALNUM, 27)}`,
    (s) => `NEW_RELIC_API_KEY=${s}`,
  ),
  tok(
    'tailscale-auth-key',
    'tailscale-key',
    (r) => `tskey-auth-k${r.str(ALNUM, 16)}-${r.str(ALNUM, 30)}`,
    (s) => `tailscale up --authkey=${s}`,
  ),
  tok(
    'doppler-token',
    'doppler-token',
    (r) => `dp.pt.${r.str(ALNUM, 43)}`,
    (s) => `doppler configure set token ${s}`,
  ),
  tok(
    'telegram-bot-token',
    'telegram-bot-token',
    (r) => `${r.int(9e8) + 1e8}:AA${r.str(B64URL, 33)}`,
    (s) => `https://api.telegram.org/bot${s}/getMe`,
  ),
  tok(
    'age-secret-key',
    'age-secret-key',
    (r) => `AGE-SECRET-KEY-1${r.str('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.toUpperCase(), 58)}`,
    (s) => `# secret: ${s}`,
  ),
  tok(
    'planetscale-password',
    'planetscale-token',
    (r) => `pscale_pw_${r.str(B64URL, 43)}`,
    (s) => `DATABASE_PASSWORD=${s}`,
  ),
  tok(
    'pulumi-token',
    'pulumi-token',
    (r) => `pul-${r.str(HEX, 40)}`,
    (s) => `PULUMI_ACCESS_TOKEN=${s}`,
  ),
  tok(
    'terraform-cloud-token',
    'terraform-cloud-token',
    (r) => `${r.str(LOWER_ALNUM, 14)}.atlasv1.${r.str(B64URL, 67)}`,
    (s) => `credentials "app.terraform.io" { token = "${s}" }`,
  ),
  tok(
    'brevo-api-key',
    'brevo-api-key',
    (r) => `xkeysib-${r.str(HEX, 64)}-${r.str(ALNUM, 16)}`,
    (s) => `brevo ${s}`,
  ),

  // Formats
  tok(
    'jwt',
    'jwt',
    (r) => {
      const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
      const payload = base64url(
        JSON.stringify({ sub: r.str(HEX, 12), iat: 1_760_000_000 + r.int(1e6), scope: 'repo' }),
      );
      return `${header}.${payload}.${base64url(r.bytes(32))}`;
    },
    (s) => `Location: https://app.example.com/callback#id_token=${s}&state=af0ifjsldkj`,
  ),
  ctx('rsa-private-key', 'private-key', (r) => pem(r, 'RSA PRIVATE KEY', 1190)),
  ctx('pkcs8-private-key', 'private-key', (r) => pem(r, 'PRIVATE KEY', 1216)),
  ctx('ec-private-key', 'private-key', (r) => pem(r, 'EC PRIVATE KEY', 121)),
  ctx('encrypted-private-key', 'private-key', (r) => pem(r, 'ENCRYPTED PRIVATE KEY', 1298)),
  ctx('openssh-private-key', 'private-key', (r) => {
    const bytes = Buffer.concat([Buffer.from('openssh-key-v1\0'), r.bytes(400)]);
    const body = wrap64(bytes).map((l) => l.slice(0, 70));
    const secret = ['-----BEGIN OPENSSH PRIVATE KEY-----', ...body, '-----END OPENSSH PRIVATE KEY-----'].join('\n');
    return { secret, line: secret, needles: body.filter((l) => l.length >= 16) };
  }),
  tok(
    'kubeconfig-client-key-data',
    'private-key-base64',
    (r) => Buffer.from(pem(r, 'RSA PRIVATE KEY', 600).secret + '\n').toString('base64'),
    (s) => `    client-key-data: ${s}`,
  ),
  ctx('pgp-private-key', 'private-key', (r) => {
    const data = r.bytes(600);
    const body = wrap64(data);
    const sum = Buffer.from([crc24(data) >> 16, (crc24(data) >> 8) & 0xff, crc24(data) & 0xff]).toString('base64');
    const secret = [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      '',
      ...body,
      `=${sum}`,
      '-----END PGP PRIVATE KEY BLOCK-----',
    ].join('\n');
    return { secret, line: secret, needles: body.filter((l) => l.length >= 16) };
  }),

  // Known by context
  ctx('postgres-url-password', 'url-password', (r) => {
    const secret = password(r);
    return { secret, line: `DATABASE_URL=postgres://app:${secret}@db.internal:5432/app` };
  }),
  ctx('mongodb-url-password', 'url-password', (r) => {
    const secret = r.str(ALNUM, 16);
    return {
      secret,
      line: `mongosh "mongodb+srv://admin:${secret}@cluster0.${r.str(LOWER_ALNUM, 5)}.mongodb.net/prod"`,
    };
  }),
  ctx('redis-url-password', 'url-password', (r) => {
    const secret = r.str(ALNUM, 20);
    return { secret, line: `REDIS_URL=redis://:${secret}@cache:6379/0` };
  }),
  ctx('url-query-password', 'url-secret-param', (r) => {
    const secret = r.str(ALNUM, 14);
    return { secret, line: `GET /login?user=admin&password=${secret}&remember=1 HTTP/1.1` };
  }),
  ctx('url-query-access-token', 'url-secret-param', (r) => {
    const secret = r.str(B64URL, 40);
    return { secret, line: `https://api.example.com/v2/me?access_token=${secret}` };
  }),
  ctx('basic-auth-header', 'basic-auth', (r) => {
    const secret = Buffer.from(`deploy:${password(r)}`).toString('base64');
    return { secret, line: `Authorization: Basic ${secret}` };
  }),
  ctx('bearer-token-header', 'bearer-token', (r) => {
    const secret = r.str(ALNUM, 40);
    return { secret, line: `curl -H "Authorization: Bearer ${secret}" https://api.example.com/v1/items` };
  }),
  ctx('x-api-key-header', 'api-key-header', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `X-API-Key: ${secret}` };
  }),
  ctx('mysql-cli-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `mysql -h db.internal -u root -p${secret} app < dump.sql` };
  }),
  ctx('mysqldump-quoted-password', 'cli-password', (r) => {
    const secret = `${r.str(ALNUM, 8)} ${r.str(ALNUM, 4)}`;
    return { secret, line: `mysqldump -uroot -p'${secret}' --all-databases > all.sql` };
  }),
  ctx('pgpassword-env', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `PGPASSWORD=${secret} psql -h db -U app -c 'select 1'` };
  }),
  ctx('sshpass-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `sshpass -p '${secret}' ssh deploy@10.0.0.5` };
  }),
  ctx('cli-password-flag', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `./manage.py createsuperuser --password=${secret} --noinput` };
  }),
  ctx('curl-user-password', 'curl-user', (r) => {
    const secret = password(r);
    return { secret, line: `curl -u admin:${secret} https://ci.example.com/api/json` };
  }),
  ctx('dotenv-password', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `DB_PASSWORD=${secret}` };
  }),
  ctx('dotenv-secret', 'env-secret', (r) => {
    const secret = r.str(HEX, 64);
    return { secret, line: `export SESSION_SECRET="${secret}"` };
  }),
  ctx('dotenv-key', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `ENCRYPTION_KEY=${secret}` };
  }),
  ctx('rails-secret-key-base', 'env-secret', (r) => {
    const secret = r.str(HEX, 128);
    return { secret, line: `SECRET_KEY_BASE=${secret}` };
  }),
  ctx('yaml-password', 'code-secret', (r) => {
    const secret = password(r);
    return { secret, line: `    password: ${secret}` };
  }),
  ctx('json-client-secret', 'code-secret', (r) => {
    const secret = r.str(B64URL, 40);
    return { secret, line: `  "client_secret": "${secret}",` };
  }),
  ctx('python-api-key', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `api_key = '${secret}'` };
  }),
  ctx('netrc-password', 'netrc-password', (r) => {
    const secret = password(r);
    return { secret, line: `machine api.example.com login deploy password ${secret}` };
  }),
  ctx('netrc-password-own-line', 'netrc-password', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `machine git.example.com\n  login ci-bot\n  password ${secret}` };
  }),
  ctx('docker-config-auth', 'docker-config-auth', (r) => {
    const secret = Buffer.from(`deploy:${password(r)}`).toString('base64');
    return { secret, line: `{"auths": {"ghcr.io": {"auth": "${secret}"}}}` };
  }),
  ctx('toml-secret-key', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 40);
    return { secret, line: `secret_key = "${secret}"` };
  }),
  ctx('set-cookie-session', 'cookie', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `< Set-Cookie: sessionid=${secret}; Path=/; HttpOnly; SameSite=Lax` };
  }),
  ctx('cookie-header', 'cookie', (r) => {
    const secret = r.str(HEX, 32);
    return { secret, line: `> Cookie: theme=dark; PHPSESSID=${secret}` };
  }),
  ctx('curl-cookie', 'cookie', (r) => {
    const secret = r.str(B64URL, 40);
    return { secret, line: `curl -b "session=${secret}" https://app.example.com/api/me` };
  }),
  ctx('connection-string-password', 'connection-string-password', (r) => {
    const secret = password(r);
    return { secret, line: `Server=tcp:sql.example.com,1433;Database=app;User Id=sa;Password=${secret};Encrypt=true;` };
  }),
  tok(
    'pinecone-api-key',
    'pinecone-api-key',
    (r) => `pcsk_${r.str(ALNUM, 6)}_${r.str(ALNUM, 63)}`,
    (s) => `pc = Pinecone(api_key="${s}")`,
  ),
  tok(
    'doppler-service-token',
    'doppler-token',
    (r) => `dp.st.${['dev', 'stg', 'prd', 'ci_cd'][r.int(4)]!}.${r.str(ALNUM, 43)}`,
    (s) => `DOPPLER_TOKEN=${s} doppler run -- npm start`,
  ),
  ctx('python-environ-index', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `os.environ["OPENAI_API_KEY"] = "${secret}"` };
  }),
  ctx('setenv-call', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `monkeypatch.setenv("ANTHROPIC_API_KEY", "${secret}")` };
  }),
  ctx('azure-subscription-key-header', 'api-key-header', (r) => {
    const secret = r.str(HEX, 32);
    return {
      secret,
      line: `curl -H "Ocp-Apim-Subscription-Key: ${secret}" https://westeurope.api.cognitive.microsoft.com/`,
    };
  }),
  ctx('wandb-login', 'wandb-api-key', (r) => {
    const secret = r.str(HEX, 40);
    return { secret, line: `wandb login --relogin ${secret}` };
  }),
  ctx('cli-password-flag-own-line', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `# args file for: manage --token-file x\n--password ${secret}` };
  }),
  ctx('docker-login-password-stdin', 'stdin-password', (r) => {
    const secret = password(r);
    return { secret, line: `echo "${secret}" | docker login ghcr.io -u deploy --password-stdin` };
  }),
  ctx('chpasswd-echo', 'stdin-password', (r) => {
    const secret = password(r);
    return { secret, line: `RUN useradd -m dev && echo 'dev:${secret}' | chpasswd` };
  }),
  ctx('registry-login-password', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `helm registry login registry.example.com -u deploy -p ${secret}` };
  }),
  ctx('keytool-storepass', 'cli-password', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `keytool -importkeystore -srckeystore cert.p12 -srcstoretype PKCS12 -srcstorepass ${secret} -destkeystore app.jks`,
    };
  }),
  ctx('openssl-passout', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:${secret}` };
  }),
  ctx('htpasswd-batch', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `htpasswd -nbB admin '${secret}' > nginx/.htpasswd` };
  }),
  ctx('ldap-bind-password', 'cli-password', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `ldapsearch -x -H ldap://ldap.example.com -D "cn=admin,dc=example,dc=com" -w ${secret} -b "dc=example,dc=com"`,
    };
  }),
  ctx('smbclient-user-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `smbclient //fs01/share -U deploy%${secret} -c 'ls'` };
  }),
  ctx('minio-alias-secret-key', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 40);
    return { secret, line: `mc alias set minio http://minio.internal:9000 minioadmin ${secret}` };
  }),
  ctx('pgpass-line', 'pgpass-password', (r) => {
    const secret = password(r);
    return { secret, line: `db.internal:5432:app:deploy:${secret}` };
  }),
  ctx('maven-settings-password', 'xml-secret', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `<server><id>releases</id><username>deploy</username><password>${secret}</password></server>`,
    };
  }),
  ctx('nuget-cleartext-password', 'xml-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `<add key="ClearTextPassword" value="${secret}" />` };
  }),
  ctx('mongosh-password', 'cli-password', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `mongosh "mongodb://db.internal:27017/app" -u admin -p ${secret} --authenticationDatabase admin`,
    };
  }),
  ctx('sqlcmd-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `sqlcmd -S localhost,1433 -U sa -P '${secret}' -Q "SELECT name FROM sys.databases"` };
  }),
  ctx('vault-login-token', 'cli-password', (r) => {
    const secret = `s.${r.str(ALNUM, 24)}`;
    return { secret, line: `vault login ${secret}` };
  }),
  ctx('rabbitmqctl-add-user', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `rabbitmqctl add_user deploy '${secret}'` };
  }),
  ctx('poetry-http-basic', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 20);
    return { secret, line: `poetry config http-basic.internal deploy ${secret}` };
  }),
  ctx('npm-config-set-auth-token', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 36);
    return { secret, line: `npm config set //npm.internal.example.com/:_authToken ${secret}` };
  }),
  ctx('bundle-config-credentials', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 30);
    return { secret, line: `bundle config set --global gems.internal.example.com deploy:${secret}` };
  }),
  ctx('aws-configure-set-secret', 'aws-secret-access-key', (r) => {
    const secret = r.str(B64, 40);
    return { secret, line: `aws configure set aws_secret_access_key ${secret} --profile ci` };
  }),
  ctx('sql-alter-user-password', 'sql-password', (r) => {
    const secret = password(r);
    return { secret, line: `psql -c "ALTER USER app WITH ENCRYPTED PASSWORD '${secret}';"` };
  }),
  ctx('sql-identified-by', 'sql-password', (r) => {
    const secret = password(r);
    return { secret, line: `CREATE USER 'app'@'%' IDENTIFIED BY '${secret}';` };
  }),
  ctx('plist-password', 'xml-secret', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `\t<key>APIToken</key>\n\t<string>${secret}</string>` };
  }),
  tok(
    'cloudflare-origin-ca-key',
    'cloudflare-origin-ca-key',
    (r) => `v1.0-${r.str(HEX, 24)}-${r.str(HEX, 146)}`,
    (s) => `curl -H "X-Auth-User-Service-Key: ${s}" https://api.cloudflare.com/client/v4/certificates`,
  ),
  tok(
    'openshift-token',
    'openshift-token',
    (r) => `sha256~${r.str(B64URL, 43)}`,
    (s) => `oc login --token=${s} --server=https://api.cluster.example.com:6443`,
  ),
  tok(
    'alibaba-access-key-id',
    'alibaba-access-key-id',
    (r) => `LTAI${r.str(ALNUM, 20)}`,
    (s) => `ALIBABA_CLOUD_ACCESS_KEY_ID=${s}`,
  ),
  tok(
    'jfrog-reference-token',
    'artifactory-token',
    (r) => `cmVmdGtu${r.str(ALNUM, 56)}`,
    (s) => `jf config add art --url https://example.jfrog.io --access-token ${s}`,
  ),
  tok(
    'sourcegraph-token',
    'sourcegraph-token',
    (r) => `sgp_${r.str(HEX, 16)}_${r.str(HEX, 40)}`,
    (s) => `SRC_ENDPOINT=https://sourcegraph.example.com SRC_ACCESS_TOKEN=${s} src search 'repo:x'`,
  ),
  tok(
    'prefect-api-key',
    'platform-token',
    (r) => `pnu_${r.str(ALNUM, 36)}`,
    (s) => `prefect cloud login -k ${s}`,
  ),
  tok(
    'infracost-api-key',
    'platform-token',
    (r) => `ico-${r.str(ALNUM, 32)}`,
    (s) => `infracost configure set api_key ${s}`,
  ),
  tok(
    'shippo-api-token',
    'platform-token',
    (r) => `shippo_live_${r.str(HEX, 40)}`,
    (s) => `shippo.config.api_key = "${s}"`,
  ),
  tok(
    'octopus-deploy-api-key',
    'octopus-deploy-api-key',
    (r) => `API-${r.str(UPPER_ALNUM, 26)}`,
    (s) => `octo list-projects --server https://octopus.example.com --apiKey ${s}`,
  ),
  tok(
    'dropbox-short-lived-token',
    'dropbox-token',
    (r) => `sl.u.${r.str(B64URL, 400)}`,
    (s) => `curl -X POST https://api.dropboxapi.com/2/files/list_folder -H "Authorization: Bearer ${s}"`,
  ),
  ctx('discord-bot-token', 'discord-bot-token', (r) => {
    const secret = `M${r.str(ALNUM, 25)}.${r.str(B64URL, 6)}.${r.str(B64URL, 38)}`;
    return { secret, line: `curl -H "Authorization: Bot ${secret}" https://discord.com/api/v10/users/@me` };
  }),
  ctx('php-define-password', 'env-secret', (r) => {
    const secret = `${r.str(ALNUM, 8)}(${r.str(ALNUM, 4)})[${r.str(ALNUM, 4)}]`;
    return { secret, line: `define( 'DB_PASSWORD', '${secret}' );` };
  }),
  ctx('quoted-password-with-brackets', 'code-secret', (r) => {
    const secret = `${r.str(ALNUM, 6)}{${r.str(ALNUM, 3)}}(${r.str(ALNUM, 5)})`;
    return { secret, line: `  "password": "${secret}",` };
  }),
  ctx('wireguard-preshared-key', 'code-secret', (r) => {
    const secret = `${r.str(B64, 43)}=`;
    return { secret, line: `PresharedKey = ${secret}` };
  }),
  ctx('wpa-psk', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `\tpsk="${secret}"` };
  }),
  ctx('openvpn-static-key', 'private-key', (r) => {
    const body = Array.from({ length: 16 }, () => r.str(HEX, 32));
    const secret = ['-----BEGIN OpenVPN Static key V1-----', ...body, '-----END OpenVPN Static key V1-----'].join('\n');
    return { secret, line: `<tls-auth>\n${secret}\n</tls-auth>`, needles: body };
  }),
  ctx('putty-private-key', 'private-key', (r) => {
    const secret = r.str(B64, 64);
    const line = [
      'PuTTY-User-Key-File-3: ssh-ed25519',
      'Encryption: none',
      'Comment: deploy@ci',
      'Public-Lines: 2',
      r.str(B64, 64),
      r.str(B64, 12),
      'Private-Lines: 1',
      secret,
      `Private-MAC: ${r.str(HEX, 64)}`,
    ].join('\n');
    return { secret, line };
  }),
  ctx('github-actions-add-mask', 'stdin-password', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `echo "::add-mask::${secret}"` };
  }),
  ctx('gh-secret-set-body', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `gh secret set DEPLOY_TOKEN --repo acme/app --body "${secret}"` };
  }),
  ctx('gcloud-secret-from-stdin', 'stdin-password', (r) => {
    const secret = password(r);
    return { secret, line: `echo -n "${secret}" | gcloud secrets create db-password --data-file=-` };
  }),
  ctx('aws-secretsmanager-secret-string', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `aws secretsmanager put-secret-value --secret-id prod/db --secret-string '${secret}'` };
  }),
  ctx('az-keyvault-secret-value', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `az keyvault secret set --vault-name kv-prod --name db-password --value '${secret}'` };
  }),
  ctx('kubernetes-dockerconfigjson', 'docker-config-auth', (r) => {
    const auth = Buffer.from(`deploy:${password(r)}`).toString('base64');
    const secret = Buffer.from(JSON.stringify({ auths: { 'ghcr.io': { auth } } })).toString('base64');
    return { secret, line: `  .dockerconfigjson: ${secret}` };
  }),
  ctx('kubernetes-secret-data', 'kubernetes-secret', (r) => {
    // Under a key that names no secret: only the Secret around it says what it is.
    const secret = Buffer.from(`postgres://app:${password(r)}@db:5432/app`).toString('base64');
    return { secret, line: `apiVersion: v1\nkind: Secret\ndata:\n  DATABASE_URL: ${secret}` };
  }),
  ctx('kubernetes-secret-string-data', 'kubernetes-secret', (r) => {
    const secret = `${r.str(ALNUM, 12)}-${r.str(ALNUM, 8)}`;
    return { secret, line: `kind: Secret\nstringData:\n  license: ${secret}` };
  }),
  ctx('requests-auth-tuple', 'code-secret', (r) => {
    const secret = password(r);
    return { secret, line: `r = requests.get(url, auth=('admin', '${secret}'), timeout=10)` };
  }),
  ctx('smtp-login', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `server.login("alerts@example.com", "${secret}")` };
  }),
  ctx('jwt-sign-secret', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `const token = jwt.sign({ sub: user.id }, '${secret}', { expiresIn: '1h' });` };
  }),
  ctx('nodemailer-pass', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `  auth: { user: 'alerts@example.com', pass: '${secret}' },` };
  }),
  ctx('quoted-password-escaped-quote', 'code-secret', (r) => {
    const secret = `${r.str(ALNUM, 6)}\\"${r.str(ALNUM, 8)}`;
    return { secret, line: `DATABASES["default"]["PASSWORD"] = password = "${secret}"` };
  }),
  ctx('ecs-environment-pair', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `        { "name": "DB_PASSWORD", "value": "${secret}" },` };
  }),
  ctx('postman-variable', 'named-secret', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `{"key": "api_token", "value": "${secret}", "type": "secret", "enabled": true}` };
  }),
  ctx('ssm-parameter', 'named-secret', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `{"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "${secret}", "Version": 3}}`,
    };
  }),
  ctx('cloudformation-parameter', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `[{"ParameterKey": "DBPassword", "ParameterValue": "${secret}"}]` };
  }),
  ctx('terraform-output-json', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `  "db_password": {"sensitive": true, "type": "string", "value": "${secret}"},` };
  }),
  ctx('kubernetes-env-list', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `        - name: DB_PASSWORD\n          value: "${secret}"` };
  }),
  ctx('terraform-variable-default', 'named-secret', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = "${secret}"\n}`,
    };
  }),
  ctx('httpie-auth', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `http --auth=deploy:'${secret}' POST https://api.example.com/deploy` };
  }),
  ctx('zip-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `zip -r -P '${secret}' backup.zip ./data` };
  }),
  ctx('7z-password', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `7z a -p${secret} -mhe=on backup.7z ./data` };
  }),
  ctx('gpg-passphrase', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `gpg --batch --yes --passphrase '${secret}' -c backup.tar` };
  }),
  ctx('sudo-stdin-password', 'stdin-password', (r) => {
    const secret = password(r);
    return { secret, line: `echo '${secret}' | sudo -S systemctl restart app` };
  }),
  ctx('windows-net-user', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `net user svc_backup ${secret} /add /y` };
  }),
  ctx('powershell-securestring', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `$pw = ConvertTo-SecureString '${secret}' -AsPlainText -Force` };
  }),
  ctx('har-cookie-header', 'cookie', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `            { "name": "Cookie", "value": "theme=dark; sessionid=${secret}" },` };
  }),
  ctx('har-session-cookie', 'cookie', (r) => {
    const secret = r.str(ALNUM, 32);
    return {
      secret,
      line: `{"cookies": [{"name": "connect.sid", "value": "${secret}", "path": "/", "httpOnly": true}]}`,
    };
  }),
  ctx('vercel-env-record', 'named-secret', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `{"type": "encrypted", "value": "${secret}", "target": ["production", "preview"], "key": "STRIPE_SECRET"}`,
    };
  }),
  ctx('private-key-head', 'private-key', (r) => {
    // `head -6 id_rsa`: the BEGIN line and five key lines, no END.
    const body = wrap64(r.bytes(1190)).slice(0, 5);
    const secret = ['-----BEGIN RSA PRIVATE KEY-----', ...body].join('\n');
    return { secret, line: secret, needles: body };
  }),
  ctx('private-key-tail', 'private-key', (r) => {
    // `tail -4 key.pem`: three key lines (the last one short and padded) and the END line, no BEGIN.
    const body = wrap64(r.bytes(1217)).slice(-3);
    const secret = [...body, '-----END PRIVATE KEY-----'].join('\n');
    return { secret, line: `$ tail -4 key.pem\n${secret}`, needles: body.filter((l) => l.length >= 16) };
  }),
  // Appended last: the fixed seed gives every earlier entry the same values as before.
  ctx('setx-two-words', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `setx OPENAI_API_KEY "${secret}"` };
  }),
  ctx('fish-set-gx', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `set -gx DB_PASSWORD '${secret}'` };
  }),
  ctx('powershell-set-item-env', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 20);
    return { secret, line: `Set-Item -Path Env:\\GH_PAT -Value '${secret}'` };
  }),
  ctx('openssl-enc-k', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `openssl enc -aes-256-cbc -salt -k '${secret}' -in backup.tar -out backup.tar.enc` };
  }),
  ctx('openssl-passwd', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `openssl passwd -6 -salt ${r.str(ALNUM, 8)} '${secret}'` };
  }),
  ctx('fly-secrets-set', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 28);
    return { secret, line: `fly secrets set LICENSE=${secret} --app shop` };
  }),
  ctx('ssm-secure-string', 'cli-password', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `aws ssm put-parameter --name /shop/db --type SecureString --value '${secret}' --overwrite`,
    };
  }),
  ctx('dotnet-user-secrets', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `dotnet user-secrets set "Payments:ApiKey" "${secret}" --project src/Shop` };
  }),
  ctx('sqlplus-logon', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 14);
    return { secret, line: `sqlplus -S app_owner/${secret}@//db.internal:1521/ORCLPDB1 @migrate.sql` };
  }),
  ctx('ssh-keygen-passphrase', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `ssh-keygen -t ed25519 -C deploy -N '${secret}' -f ~/.ssh/deploy_ed25519` };
  }),
  ctx('aws-configure-prompt', 'aws-secret-access-key', (r) => {
    const secret = r.str(B64, 40);
    return { secret, line: `AWS Secret Access Key [****************${r.str(ALNUM, 4)}]: ${secret}` };
  }),
  ctx('redis-prompt-auth', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `127.0.0.1:6379> AUTH default ${secret}` };
  }),
  ctx('smtp-auth-plain', 'sasl-plain', (r) => {
    const secret = Buffer.from(`\0${r.str(LOWER_ALNUM, 8)}@example.com\0${password(r)}`).toString('base64');
    return { secret, line: `send: 'AUTH PLAIN ${secret}\\r\\n'` };
  }),
  ctx('smtp-auth-login', 'sasl-login', (r) => {
    const secret = Buffer.from(password(r)).toString('base64');
    return { secret, line: `<~  334 UGFzc3dvcmQ6\n ~> ${secret}\n<~  235 2.7.0 Authentication successful` };
  }),
  ctx('imap-login', 'mail-password', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `> A002 LOGIN ${r.str(LOWER_ALNUM, 8)} ${secret}` };
  }),
  ctx('pop3-user-pass', 'mail-password', (r) => {
    const secret = password(r);
    return { secret, line: `> USER ${r.str(LOWER_ALNUM, 8)}\n< +OK\n> PASS ${secret}\n< +OK Logged in.` };
  }),
  ctx('pulumi-config-secret', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `pulumi config set --secret dbPassword ${secret}` };
  }),
  ctx('expect-send', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `expect "*assword:*"\nsend "${secret}\\r"\nexpect "$ "` };
  }),
  ctx('redis-requirepass', 'cli-password', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `requirepass ${secret}` };
  }),
  ctx('plink-pw', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `plink -batch -ssh -pw '${secret}' deploy@10.0.0.7 uptime` };
  }),
  ctx('mongo-create-user', 'code-secret', (r) => {
    const secret = r.str(ALNUM, 20);
    return { secret, line: `db.createUser({ user: "app", pwd: "${secret}", roles: ["readWrite"] })` };
  }),
  ctx('dockerfile-env-legacy', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `ENV DB_PASSWORD ${secret}` };
  }),
  ctx('json-escaped-url-password', 'url-password', (r) => {
    const secret = r.str(ALNUM, 16);
    return { secret, line: `{"remote":"https:\\/\\/deploy:${secret}@git.example.com\\/app.git"}` };
  }),
  ctx('xfreerdp-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `xfreerdp /v:10.0.0.5 /u:admin /p:${secret} /cert:ignore` };
  }),
  ctx('psexec-password', 'cli-password', (r) => {
    const secret = password(r);
    return { secret, line: `psexec \\\\fileserver -u CORP\\admin -p ${secret} cmd /c whoami` };
  }),
  ctx('dotenv-quoted-passphrase', 'env-secret', (r) => {
    const secret = [6, 5, 7, 6].map((n) => r.str(LETTERS, n)).join(' ');
    return { secret, line: `DB_PASSWORD="${secret}"` };
  }),
  ctx('code-passphrase', 'code-secret', (r) => {
    const secret = [7, 6, 5].map((n) => r.str(LETTERS, n)).join(' ');
    return { secret, line: `conn = connect(user="app", password="${secret}")` };
  }),
  ctx('shell-export-word', 'env-secret', (r) => {
    const secret = r.str(LETTERS, 8);
    return { secret, line: `export SMTP_PASS=${secret}` };
  }),
  ctx('sshpass-env', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `SSHPASS=${secret} sshpass -e ssh deploy@10.0.0.7 uptime` };
  }),
  // A key's body without its BEGIN and END lines (`sed -n '2,27p' key.pem`), or its DER in base64 on one
  // line (`openssl pkey -outform DER | base64 -w0`): known by the DER's first bytes.
  ctx('rsa-key-body-headerless', 'private-key', (r) => derKey(r, '308204a40201000282010100', 1180, true)),
  ctx('pkcs8-key-der-base64', 'private-key', (r) =>
    derKey(r, '308204bd020100300d06092a864886f70d0101010500048204a7', 1190, false),
  ),
  ctx('ec-key-body-headerless', 'private-key', (r) => derKey(r, '30770201010420', 112, true)),
  ctx('ed25519-key-der-base64', 'private-key', (r) => derKey(r, '302e020100300506032b657004220420', 32, false)),
  ctx('openssh-key-body-headerless', 'private-key', (r) => {
    const body = wrap64(Buffer.concat([Buffer.from('openssh-key-v1\0'), r.bytes(400)])).map((l) => l.slice(0, 70));
    return { secret: body.join('\n'), line: body.join('\n'), needles: body.filter((l) => l.length >= 16) };
  }),
  ctx('url-password-with-slash', 'url-password', (r) => {
    const secret = `${r.str(ALNUM, 4)}/${r.str(ALNUM, 14)}`;
    return { secret, line: `DATABASE_URL=postgres://app:${secret}@db:5432/app` };
  }),
  ctx('azure-devops-pat-url-user', 'url-password', (r) => {
    const secret = r.str('abcdefghijklmnopqrstuvwxyz234567', 52);
    return { secret, line: `origin\thttps://${secret}@dev.azure.com/org/proj/_git/repo (fetch)` };
  }),
  ctx('azure-devops-pat-basic', 'basic-auth', (r) => {
    const secret = Buffer.from(`:${r.str('abcdefghijklmnopqrstuvwxyz234567', 52)}`).toString('base64');
    return {
      secret,
      line: `git -c http.extraHeader="Authorization: Basic ${secret}" clone https://dev.azure.com/o/p/_git/r`,
    };
  }),
  ctx('curl-user-attached', 'curl-user', (r) => {
    const secret = password(r);
    return { secret, line: `curl -u${r.str(LOWER_ALNUM, 6)}:${secret} https://api.example.com/v1/items` };
  }),
  ctx('curl-user-empty-name', 'curl-user', (r) => {
    const secret = r.str(ALNUM, 24);
    return { secret, line: `curl -u :${secret} https://api.example.com/v1/items` };
  }),
  // The default a program falls back to when a secret-named variable is unset: written in the file.
  ctx('compose-env-default', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-${secret}}` };
  }),
  ctx('spring-placeholder-default', 'env-secret', (r) => {
    const secret = password(r);
    return { secret, line: `spring.datasource.password=\${DB_PASSWORD:${secret}}` };
  }),
  ctx('python-getenv-default', 'env-secret', (r) => {
    const secret = `django-insecure-${r.str(ALNUM, 40)}`;
    return { secret, line: `SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "${secret}")` };
  }),
  ctx('node-env-fallback', 'env-secret', (r) => {
    const secret = r.str(ALNUM, 32);
    return { secret, line: `const jwtSecret = process.env.JWT_SECRET || '${secret}';` };
  }),
  tok(
    'sonarqube-user-token',
    'sonar-token',
    (r) => `squ_${r.str(HEX, 40)}`,
    (s) => `sonar.token=${s}`,
  ),
  tok(
    'sonarcloud-analysis-token',
    'sonar-token',
    (r) => `sqa_${r.str(HEX, 40)}`,
    (s) => `  -Dsonar.login=${s} \\`,
  ),
  tok(
    'heroku-api-key-v2',
    'heroku-api-key',
    (r) => `HRKU-AA${r.str(ALNUM + '_-', 58)}`,
    (s) => `  "key": "${s}"`,
  ),
  tok(
    'circleci-personal-token',
    'platform-token',
    (r) => `CCIPAT_${r.str(ALNUM, 22)}_${r.str(HEX, 40)}`,
    (s) => `circleci setup --token ${s} --host https://circleci.com`,
  ),
  tok(
    'plaid-access-token',
    'platform-token',
    (r) => `access-production-${r.str(HEX, 8)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 12)}`,
    (s) => `{"access_token": "${s}", "item_id": "M5eVJqLnv3tbzdNZ"}`,
  ),
  tok(
    'aws-bedrock-api-key',
    'aws-bedrock-api-key',
    (r) => `ABSKQmVkcm9ja0FQSUtleS${r.str(B64, 110)}`,
    (s) => `AWS_BEARER_TOKEN_BEDROCK=${s}`,
  ),
  ctx('composer-github-oauth', 'composer-auth', (r) => {
    const secret = r.str(HEX, 40);
    return { secret, line: `    "github-oauth": {\n        "github.com": "${secret}"\n    }` };
  }),
  ctx('yarnrc-npm-auth-ident', 'npmrc-auth', (r) => {
    const secret = `${r.str(LOWER_ALNUM, 6)}:${password(r)}`;
    return { secret, line: `    npmAuthIdent: "${secret}"` };
  }),
  ctx('netlify-env-values', 'named-secret', (r) => {
    const secret = r.str(ALNUM, 24);
    return {
      secret,
      line: `{"key": "STRIPE_SECRET_KEY", "scopes": ["builds", "functions"], "values": [{"id": "${r.str(HEX, 8)}", "value": "${secret}", "context": "production"}]}`,
    };
  }),
  ctx('kubernetes-env-value-first', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `        - value: "${secret}"\n          name: DB_PASSWORD` };
  }),
  ctx('yaml-flow-env-pair', 'named-secret', (r) => {
    const secret = password(r);
    return { secret, line: `    env: [{name: PORT, value: "8080"}, {name: DB_PASSWORD, value: "${secret}"}]` };
  }),
  ctx('yaml-plain-scalar-next-line', 'code-secret', (r) => {
    const secret = password(r);
    return { secret, line: `database:\n  host: db.internal\n  password:\n    ${secret}\n  port: 5432` };
  }),
  ctx('url-password-with-blanks', 'url-password', (r) => {
    const secret = `${r.str(ALNUM, 6)} ${r.str(ALNUM, 6)} ${r.int(90) + 10}`;
    return { secret, line: `DATABASE_URL=postgres://app:${secret}@db.internal:5432/app` };
  }),
  ctx('azure-function-key', 'azure-function-key', (r) => {
    const secret = `${r.str(B64URL, 54)}==`;
    return { secret, line: `curl "https://orders-api.azurewebsites.net/api/CreateOrder?code=${secret}"` };
  }),
  ctx('zapier-catch-hook', 'zapier-webhook', (r) => {
    const secret = `${r.int(9000000) + 1000000}/${r.str(LOWER_ALNUM, 7)}`;
    return { secret, line: `ZAPIER_HOOK_URL=https://hooks.zapier.com/hooks/catch/${secret}/` };
  }),
  ctx('ifttt-webhook-key', 'ifttt-webhook', (r) => {
    const secret = r.str(B64URL, 22);
    return { secret, line: `requests.post("https://maker.ifttt.com/trigger/build_failed/with/key/${secret}")` };
  }),
  ctx('outlook-connector-webhook', 'teams-webhook', (r) => {
    const guid = (): string => `${r.str(HEX, 8)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 4)}-${r.str(HEX, 12)}`;
    const secret = `${guid()}@${guid()}/IncomingWebhook/${r.str(HEX, 32)}/${guid()}`;
    return { secret, line: `"webhookUrl": "https://outlook.office.com/webhook/${secret}"` };
  }),
  ctx('url-passphrase-five-words', 'url-password', (r) => {
    const secret = Array.from({ length: 5 }, () => r.str(LOWER_ALNUM, 5)).join(' ');
    return { secret, line: `REDIS_URL="rediss://default:${secret}@cache.internal:6380/0"` };
  }),
  ctx('template-literal-block-scalar', 'code-secret', (r) => {
    const secret = password(r);
    return { secret, line: `const values = \`apiKey: |\n  ${secret}\n\`;\nawait helm.install(values);` };
  }),
  ctx('doppler-secrets-json', 'named-secret', (r) => {
    const secret = password(r);
    return {
      secret,
      line: `{"BILLING_CONFIG":{"computed":"${secret}","computedVisibility":"unmasked","note":"","raw":"${secret}"}}`,
    };
  }),
  tok(
    'render-api-key',
    'platform-token',
    (r) => `rnd_${r.str(ALNUM, 32)}`,
    (s) => `export RENDER_API_KEY=${s}`,
  ),
  // Mapbox: `sk.`, a base64url JSON naming the account (`{"u":…,"a":…}`), a dot, a random signature.
  tok(
    'mapbox-secret-token',
    'mapbox-secret-token',
    (r) => {
      const claims = base64url(JSON.stringify({ u: `dev-${r.str(LOWER_ALNUM, 6)}`, a: `cl${r.str(LOWER_ALNUM, 23)}` }));
      return `sk.${claims}.${r.str(B64URL, 22)}`;
    },
    (s) => `MAPBOX_DOWNLOADS_TOKEN=${s}`,
  ),
  // Terraform state marks an attribute sensitive beside it, whatever its name: a state file's instance
  // (`cat terraform.tfstate`, which Terraform writes indented) holding `random_password`'s `result`.
  ctx('terraform-state-sensitive-attribute', 'terraform-sensitive', (r) => {
    const secret = password(r);
    const instance = {
      schema_version: 3,
      attributes: { id: 'none', length: 16, result: secret },
      sensitive_attributes: [[{ type: 'get_attr', value: 'result' }]],
    };
    return { secret, line: JSON.stringify(instance, null, 2) };
  }),
  ctx('terraform-show-json-sensitive-value', 'terraform-sensitive', (r) => {
    // `terraform show -json` prints one line: a resource's values beside the map marking the sensitive ones.
    const secret = password(r);
    const resource = {
      address: 'random_password.db',
      mode: 'managed',
      type: 'random_password',
      name: 'db',
      schema_version: 3,
      values: { id: 'none', length: 16, result: secret },
      sensitive_values: { result: true },
    };
    return {
      secret,
      line: JSON.stringify({ format_version: '1.0', values: { root_module: { resources: [resource] } } }),
    };
  }),
  ctx('kubernetes-secret-json-line', 'kubernetes-secret', (r) => {
    // `kubectl get secret -o json | jq -c`: one line, under a key that names no secret.
    const secret = Buffer.from(`postgres://app:${password(r)}@db:5432/app`).toString('base64');
    const manifest = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { DATABASE_URL: secret } };
    return { secret, line: JSON.stringify(manifest) };
  }),
];
