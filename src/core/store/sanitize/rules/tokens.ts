// Secrets recognisable by their own shape: a vendor prefix and a fixed alphabet and length.
// Facts (prefixes, lengths, alphabets) from gitleaks' default rule set and trufflehog's detectors.
// Patterns are lenient on length where formats have grown before: redacting a little more is safe.
// A distinctive prefix is matched after `(?<![A-Za-z0-9])`, not `\b`: glued to an identifier by `_`
// (`get_ghp_…`, `key_AKIA…`) a token is still one; short or common prefixes (SK, key-, dapi, hvs.) keep `\b`.
// A token ends where no letter or digit follows its body: `_OLD`, `-old` or `.bak` after it is a suffix
// (a spare key's name), also where the body's own alphabet has `_` or `-`. A fixed-length body after a
// distinctive prefix is taken even with a letter or digit glued on; where that body may be letters only,
// only if it has a digit (a long word after `AKIA` or `npm_` is no key); a hex body not if more hex
// follows (a longer hex run is a hash).
import { hasDigitAndLetter, type SecretRule } from './types';

const exact = (rule: Omit<SecretRule, 'exactKeywords'>): SecretRule => ({ ...rule, exactKeywords: true });

export const TOKEN_RULES: readonly SecretRule[] = [
  // Cloud
  exact({
    id: 'aws-access-key-id',
    title: 'AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T…, AGPA/AIDA/AROA/AIPA/ANPA/ANVA/APKA)',
    keywords: ['A3T', 'AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA'],
    pattern:
      /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)(?:[A-Z0-9]{16}(?![A-Za-z0-9])|(?=[A-Z]{0,15}\d)[A-Z0-9]{16})/g,
  }),
  exact({
    id: 'google-api-key',
    title: 'Google API key: GCP, Firebase, Google AI / Gemini (AIza…)',
    keywords: ['AIza'],
    pattern: /(?<![A-Za-z0-9])AIza(?:[\w-]{35}(?![A-Za-z0-9])|(?=[A-Za-z_-]{0,34}\d)[\w-]{35})/g,
  }),
  {
    id: 'google-oauth-secret',
    title: 'Google OAuth client secret (GOCSPX-…)',
    keywords: ['gocspx-'],
    pattern: /(?<![A-Za-z0-9])GOCSPX-[0-9A-Za-z_-]{24,}/g,
  },
  {
    id: 'google-oauth-token',
    title: 'Google OAuth access token (ya29.…) and refresh token (1//0…)',
    keywords: ['ya29.', '1//0'],
    pattern: /(?:\bya29\.|(?<![\w/])1\/\/0)[0-9A-Za-z_-]{30,}/g,
  },
  exact({
    id: 'azure-ad-client-secret',
    title: 'Azure AD / Entra client secret (…Q~…)',
    keywords: ['Q~'],
    pattern: /(?<![\w~.-])[\w~.]{3}\dQ~(?:[\w~.-]{31,34}(?![\w~.-])|[\w~.-]{34}(?![A-Za-z0-9]))/g,
    entropy: 3,
  }),
  exact({
    // Microsoft's identifiable keys carry a fixed signature at a fixed place (facts from Microsoft's
    // security-utilities): 64-byte keys at 76 of 88, 32-byte keys at 33 of 44, annotated keys (Azure
    // DevOps PATs among them) `JQQJ9` after 52 characters.
    id: 'azure-identifiable-key',
    title:
      'Azure identifiable keys: Storage (+ASt), Cosmos DB (ACDb), Service Bus (+ASb), Event Hubs (+AEh), Relay (+ARm), annotated keys and Azure DevOps PATs (JQQJ9)',
    keywords: ['+ASt', 'ACDb', '+ASb', '+AEh', '+ARm', 'JQQJ9'],
    pattern:
      /(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{76}(?:\+ASt|ACDb)[A-Za-z0-9+/]{5}[AQgw]==|[A-Za-z0-9+/]{33}\+A(?:Sb|Eh|Rm)[A-Za-z0-9+/]{5}=|[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?(?![A-Za-z0-9]))/g,
  }),
  {
    id: 'digitalocean-token',
    title: 'DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}(?![0-9a-fA-F])/g,
  },
  {
    id: 'databricks-token',
    title: 'Databricks token (dapi…)',
    keywords: ['dapi'],
    pattern: /\bdapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])/g,
  },
  {
    id: 'hashicorp-vault-token',
    title: 'HashiCorp Vault token (hvs., hvb., hvr.)',
    keywords: ['hvs.', 'hvb.', 'hvr.'],
    pattern: /\bhv[sbr]\.[\w-]{24,}/g,
  },
  {
    id: 'terraform-cloud-token',
    title: 'Terraform Cloud / HCP token (….atlasv1.…)',
    keywords: ['atlasv1'],
    pattern: /\b[a-z0-9]{14}\.atlasv1\.[\w=-]{60,}/gi,
  },
  {
    id: 'doppler-token',
    title: 'Doppler token (dp.pt., dp.st. with or without its config name, dp.sa., dp.ct., dp.scim., dp.audit.)',
    keywords: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    // A service token names its config: `dp.st.prd.<token>`.
    pattern: /\bdp\.(?:pt|st(?:\.[a-z0-9_-]{2,35}(?=\.[A-Za-z0-9]{40}))?|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/g,
  },
  {
    id: 'tailscale-key',
    title: 'Tailscale key (tskey-…)',
    keywords: ['tskey-'],
    pattern: /(?<![A-Za-z0-9])tskey-(?:auth|api|client|scim|webhook)-[\w-]{10,}/g,
  },
  {
    id: 'flyio-token',
    title: 'Fly.io token (fo1_, fm1a_/fm1r_, fm2_)',
    keywords: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    pattern: /\b(?:fo1_[\w-]{40,}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})/g,
  },
  {
    id: 'heroku-api-key',
    title: 'Heroku API key (HRKU-AA…)',
    keywords: ['hrku-'],
    pattern: /(?<![A-Za-z0-9])HRKU-AA[\w-]{58}/g,
  },
  {
    id: 'planetscale-token',
    title: 'PlanetScale token or password (pscale_tkn_, pscale_pw_, pscale_oauth_)',
    keywords: ['pscale_'],
    pattern: /(?<![A-Za-z0-9])pscale_(?:tkn|pw|oauth)_[\w=.-]{32,}/g,
  },

  // Forges
  exact({
    id: 'github-token',
    title: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_)',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9])/g,
  }),
  {
    id: 'github-token',
    title: 'GitHub fine-grained token (github_pat_…)',
    keywords: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9])github_pat_\w{50,255}/g,
  },
  {
    id: 'gitlab-token',
    title:
      'GitLab tokens (glpat-, gldt-, glrt-, glptt-, glcbt-, glft-, glimt-, glagent-, gloas-, glsoat-, glffct-, GR1348941)',
    keywords: [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'glcbt-',
      'glft-',
      'glimt-',
      'glagent-',
      'gloas-',
      'glsoat-',
      'glffct-',
      'gr1348941',
    ],
    pattern: /(?<![A-Za-z0-9])(?:gl(?:pat|dt|rt|ptt|cbt|ft|imt|agent|oas|soat|ffct)-|GR1348941)[\w.-]{20,300}/g,
  },
  {
    id: 'gitlab-session',
    title: 'GitLab session cookie (_gitlab_session=)',
    keywords: ['_gitlab_session='],
    pattern: /_gitlab_session=(?<secret>[0-9a-z]{32})/g,
  },
  exact({
    id: 'bitbucket-app-password',
    title: 'Bitbucket app password (ATBB…)',
    keywords: ['ATBB'],
    pattern: /(?<![A-Za-z0-9])ATBB[\w=.-]{28,}/g,
  }),
  exact({
    id: 'atlassian-token',
    title: 'Atlassian / Bitbucket API and access tokens (ATATT3…, ATCTT3…)',
    keywords: ['ATATT3', 'ATCTT3'],
    pattern: /(?<![A-Za-z0-9])AT[AC]TT3[\w+/=-]{100,}/g,
  }),

  // Chat and mail
  {
    id: 'slack-token',
    title: 'Slack tokens (xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-, xoxe-, xapp-)',
    keywords: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxe.', 'xapp-'],
    pattern: /(?<![A-Za-z0-9])(?:xox[abposre](?:\.xox[bp])?-|xapp-)[0-9A-Za-z-]{10,}/g,
  },
  {
    id: 'slack-webhook',
    title: 'Slack webhook URL (hooks.slack.com/services|workflows|triggers/…)',
    keywords: ['hooks.slack.com'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[\w+/-]{20,})/g,
  },
  {
    id: 'discord-webhook',
    title: 'Discord webhook URL',
    keywords: ['discord'],
    pattern: /discord(?:app)?\.com\/api\/webhooks\/(?<secret>\d+\/[\w-]{40,})/g,
  },
  {
    id: 'teams-webhook',
    title: 'Microsoft Teams incoming webhook URL',
    keywords: ['webhook.office.com'],
    pattern: /webhook\.office\.com\/webhookb2\/(?<secret>[^\s"'<>]{40,})/g,
  },
  {
    // Before Teams' webhook.office.com, its connectors (and Outlook's) posted to outlook.office.com.
    id: 'teams-webhook',
    title: 'Microsoft Teams / Outlook connector webhook URL on outlook.office(365).com',
    keywords: ['outlook.office'],
    pattern: /outlook\.office(?:365)?\.com\/webhook(?:b2)?\/(?<secret>[^\s"'<>]{40,})/gi,
  },
  {
    id: 'azure-function-key',
    title: 'Azure Functions key in a function URL (….azurewebsites.net/api/…?code=…)',
    keywords: ['azurewebsites.net'],
    pattern: /\.azurewebsites\.net\/[^\s"'<>?#]*\?(?:[^\s"'<>#]*&)?code=(?<secret>[\w%+/=-]{20,})/gi,
  },
  {
    id: 'zapier-webhook',
    title: 'Zapier catch hook URL (hooks.zapier.com/hooks/catch/<account>/<hook>/)',
    keywords: ['hooks.zapier.com'],
    pattern: /hooks\.zapier\.com\/hooks\/(?:catch|standard)\/(?<secret>\d+\/[A-Za-z0-9]{5,})/gi,
  },
  {
    id: 'ifttt-webhook',
    title: 'IFTTT Webhooks key (maker.ifttt.com/trigger/<event>/with/key/<key>, maker.ifttt.com/use/<key>)',
    keywords: ['maker.ifttt.com'],
    pattern: /maker\.ifttt\.com\/(?:trigger\/[^\s/"'<>]+\/(?:json\/)?with\/key|use)\/(?<secret>[\w-]{16,})/gi,
  },
  exact({
    id: 'sendgrid-api-key',
    title: 'SendGrid API key (SG.….…)',
    keywords: ['SG.'],
    pattern: /(?<![A-Za-z0-9])SG\.[\w-]{16,32}\.[\w-]{30,64}/g,
  }),
  exact({
    id: 'twilio-api-key',
    title: 'Twilio API key SID (SK + 32 hex)',
    keywords: ['SK'],
    pattern: /\bSK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g,
    entropy: 3,
  }),
  {
    id: 'mailgun-api-key',
    title: 'Mailgun API key (key-…)',
    keywords: ['key-'],
    pattern: /\bkey-[0-9a-f]{32}(?![A-Za-z0-9])/g,
    entropy: 3,
  },
  {
    id: 'mailchimp-api-key',
    title: 'Mailchimp API key (…-usNN)',
    keywords: ['-us'],
    pattern: /\b[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])/g,
    entropy: 3,
  },
  {
    id: 'brevo-api-key',
    title: 'Brevo / Sendinblue API key (xkeysib-…)',
    keywords: ['xkeysib-'],
    pattern: /(?<![A-Za-z0-9])xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}/g,
  },
  exact({
    id: 'telegram-bot-token',
    title: 'Telegram bot token (digits:AA…)',
    keywords: [':AA'],
    pattern: /(?<!\d)\d{8,10}:AA[\w-]{33}(?![A-Za-z0-9])/g,
  }),

  // Payments
  {
    id: 'stripe-key',
    title: 'Stripe secret and restricted keys (sk_live_, rk_live_, sk_test_, rk_test_, …_prod_)',
    keywords: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'],
    pattern: /(?<![A-Za-z0-9])[sr]k_(?:live|test|prod)_[0-9A-Za-z]{10,247}/g,
    // A word after the prefix (`is_sk_test_environment`) is no key: a key's random part has a digit or
    // both cases (all lowercase letters: 1 in 10^9 for 24 random characters).
    accept: (s) => /\d|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(s.slice(8)),
  },
  {
    id: 'stripe-webhook-secret',
    title: 'Stripe webhook signing secret (whsec_…)',
    keywords: ['whsec_'],
    pattern: /(?<![A-Za-z0-9])whsec_[0-9A-Za-z+/=]{24,}/g,
  },
  {
    id: 'square-token',
    title: 'Square access token and secret (sq0atp-, sq0csp-)',
    keywords: ['sq0atp-', 'sq0csp-'],
    pattern: /(?<![A-Za-z0-9])sq0(?:atp|csp)-[\w-]{22,60}/g,
  },
  {
    id: 'shopify-token',
    title: 'Shopify tokens (shpat_, shpca_, shppa_, shpss_)',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}(?![0-9a-fA-F])/g,
  },

  // Package registries
  {
    id: 'npm-token',
    title: 'npm access token (npm_…)',
    keywords: ['npm_'],
    pattern: /(?<![A-Za-z0-9])npm_(?:[0-9A-Za-z]{36}(?![0-9A-Za-z])|(?=[A-Za-z]{0,35}\d)[0-9A-Za-z]{36})/g,
  },
  {
    id: 'pypi-token',
    title: 'PyPI and TestPyPI upload token (pypi-AgE…)',
    keywords: ['pypi-age'],
    pattern: /(?<![A-Za-z0-9])pypi-AgE[\w-]{50,}/g,
  },
  {
    id: 'rubygems-token',
    title: 'RubyGems API key (rubygems_…)',
    keywords: ['rubygems_'],
    pattern: /(?<![A-Za-z0-9])rubygems_[a-f0-9]{48}(?![0-9a-fA-F])/g,
  },
  {
    id: 'nuget-api-key',
    title: 'NuGet API key (oy2…)',
    keywords: ['oy2'],
    pattern: /\boy2[a-z0-9]{43}\b/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'docker-hub-token',
    title: 'Docker Hub personal access token (dckr_pat_…)',
    keywords: ['dckr_pat_'],
    pattern: /(?<![A-Za-z0-9])dckr_pat_[\w-]{27,}/g,
  },
  exact({
    id: 'artifactory-token',
    title: 'JFrog Artifactory API keys (AKCp…) and reference tokens (cmVmdGtu…)',
    keywords: ['AKCp', 'cmVmdGtu'],
    pattern: /(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})/g,
  }),
  {
    id: 'pulumi-token',
    title: 'Pulumi access token (pul-…)',
    keywords: ['pul-'],
    pattern: /\bpul-[a-f0-9]{40}(?![A-Za-z0-9])/g,
  },
];
