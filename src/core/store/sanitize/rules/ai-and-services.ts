// Prefixed tokens of AI providers and developer services, and JWTs (key blocks: private-keys.ts).
import { hasDigitAndLetter, type SecretRule } from './types';

export const SERVICE_RULES: readonly SecretRule[] = [
  // AI providers
  {
    id: 'anthropic-api-key',
    title: 'Anthropic keys and tokens (sk-ant-api03-, sk-ant-admin01-, sk-ant-oat01-, sk-ant-ort01-, …)',
    keywords: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9])sk-ant-[a-z]{2,8}\d{2}-[\w-]{32,}/g,
  },
  {
    id: 'openai-api-key',
    title: 'OpenAI keys (sk-proj-, sk-svcacct-, sk-admin-, sk-None-, legacy sk-…T3BlbkFJ…)',
    keywords: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-none-', 'sk-service-', 't3blbkfj'],
    pattern:
      /(?<![A-Za-z0-9])sk-(?:(?:proj|svcacct|admin|None|service)-[\w-]{20,}|[A-Za-z0-9]{16,}T3BlbkFJ[\w-]{16,})/g,
  },
  {
    id: 'openrouter-api-key',
    title: 'OpenRouter API key (sk-or-v1-…)',
    keywords: ['sk-or-'],
    pattern: /(?<![A-Za-z0-9])sk-or-v\d-[0-9a-f]{64}(?![0-9a-fA-F])/g,
  },
  {
    // DeepSeek, Moonshot, DashScope and older OpenAI keys: `sk-` and a long random run.
    id: 'sk-api-key',
    title: 'Other `sk-` API keys (sk- and 32+ random characters: DeepSeek, older OpenAI, …)',
    keywords: ['sk-'],
    pattern: /\bsk-[A-Za-z0-9]{32,}(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'huggingface-token',
    title: 'Hugging Face token (hf_…, api_org_…)',
    keywords: ['hf_', 'api_org_'],
    pattern: /\b(?:hf|api_org)_[A-Za-z0-9]{30,40}(?![A-Za-z0-9])/g,
    entropy: 3.5,
  },
  {
    id: 'groq-api-key',
    title: 'Groq API key (gsk_…)',
    keywords: ['gsk_'],
    pattern: /(?<![A-Za-z0-9])gsk_[A-Za-z0-9]{48,}/g,
  },
  {
    id: 'replicate-token',
    title: 'Replicate API token (r8_…)',
    keywords: ['r8_'],
    pattern: /\br8_[A-Za-z0-9]{37,}/g,
  },
  {
    id: 'xai-api-key',
    title: 'xAI API key (xai-…)',
    keywords: ['xai-'],
    pattern: /(?<![A-Za-z0-9])xai-[A-Za-z0-9]{70,}/g,
  },
  {
    id: 'perplexity-api-key',
    title: 'Perplexity API key (pplx-…)',
    keywords: ['pplx-'],
    pattern: /(?<![A-Za-z0-9])pplx-[A-Za-z0-9]{40,}/g,
  },
  {
    id: 'pinecone-api-key',
    title: 'Pinecone API key (pcsk_…)',
    keywords: ['pcsk_'],
    pattern: /\bpcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,}/g,
    accept: hasDigitAndLetter,
  },
  {
    // The key has no prefix: found where it is given, `wandb login <key>` or `wandb.login(key="<key>")`.
    id: 'wandb-api-key',
    title: 'Weights & Biases API key (wandb login …, wandb.login(key=…))',
    keywords: ['wandb'],
    pattern:
      /\bwandb(?:[ \t]+login(?:[ \t]+--?[a-z][\w-]*)*[ \t]+|\.login\([^)\n]{0,1024}?\bkey[ \t]*=[ \t]*["'])(?<secret>[\w-]{40,})/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'langsmith-api-key',
    title: 'LangSmith API key (lsv2_pt_, lsv2_sk_)',
    keywords: ['lsv2_'],
    pattern: /(?<![A-Za-z0-9])lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}(?![0-9a-fA-F])/g,
  },

  {
    id: 'langfuse-secret-key',
    title: 'Langfuse secret key (sk-lf-…)',
    keywords: ['sk-lf-'],
    pattern: /(?<![A-Za-z0-9])sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-fA-F])/g,
  },
  {
    id: 'tavily-api-key',
    title: 'Tavily API key (tvly-…, tvly-dev-…)',
    keywords: ['tvly-'],
    pattern: /(?<![A-Za-z0-9])tvly-(?:[a-z]{2,8}-)?[A-Za-z0-9]{32,}(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'firecrawl-api-key',
    title: 'Firecrawl API key (fc-…)',
    keywords: ['fc-'],
    pattern: /\bfc-[0-9a-f]{32}(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'nvidia-api-key',
    title: 'NVIDIA API key (nvapi-…)',
    keywords: ['nvapi-'],
    pattern: /(?<![A-Za-z0-9])nvapi-[\w-]{64,}/g,
    entropy: 3.5,
  },
  {
    id: 'elevenlabs-api-key',
    title: 'ElevenLabs API key (sk_ and 48 hex digits)',
    keywords: ['sk_'],
    pattern: /\bsk_[0-9a-f]{48}(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },

  // Developer services
  {
    id: 'linear-api-key',
    title: 'Linear API key (lin_api_…)',
    keywords: ['lin_api_'],
    pattern: /(?<![A-Za-z0-9])lin_api_(?:[A-Za-z0-9]{40}(?![A-Za-z0-9])|(?=[A-Za-z]{0,39}\d)[A-Za-z0-9]{40})/g,
  },
  {
    id: 'notion-token',
    title: 'Notion integration token (ntn_…, secret_…)',
    keywords: ['ntn_', 'secret_'],
    pattern: /\b(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'supabase-token',
    title: 'Supabase access and secret keys (sbp_…, sb_secret_…)',
    keywords: ['sbp_', 'sb_secret_'],
    pattern: /(?<![A-Za-z0-9])(?:sbp_[0-9a-f]{40}(?![0-9a-fA-F])|sb_secret_[\w-]{30,}(?![\w-]))/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'figma-token',
    title: 'Figma personal access token (figd_…)',
    keywords: ['figd_'],
    pattern: /(?<![A-Za-z0-9])figd_[\w-]{40,}/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'sentry-token',
    title: 'Sentry auth tokens (sntrys_, sntryu_)',
    keywords: ['sntrys_', 'sntryu_'],
    pattern: /(?<![A-Za-z0-9])sntry[su]_[\w+/=]{40,}/g,
  },
  {
    id: 'grafana-token',
    title: 'Grafana service-account and cloud tokens (glsa_, glc_)',
    keywords: ['glsa_', 'glc_'],
    pattern: /(?<![A-Za-z0-9])(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,3})/g,
  },
  {
    id: 'postman-api-key',
    title: 'Postman API key (PMAK-…)',
    keywords: ['pmak-'],
    pattern: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}(?![0-9a-fA-F])/gi,
  },
  {
    id: 'newrelic-key',
    title: 'New Relic keys (NRAK-, NRII-, NRJS-)',
    keywords: ['nrak-', 'nrii-', 'nrjs-'],
    pattern: /(?<![A-Za-z0-9])NR(?:AK|II|JS)-[A-Za-z0-9-]{19,32}(?![A-Za-z0-9])/g,
  },
  {
    id: 'dynatrace-token',
    title: 'Dynatrace API token (dt0c01.…)',
    keywords: ['dt0c01.'],
    pattern: /\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b/g,
  },
  {
    id: '1password-token',
    title: '1Password service-account token (ops_eyJ…) and secret key (A3-…)',
    keywords: ['ops_eyj', 'a3-'],
    pattern:
      /\b(?:ops_eyJ[A-Za-z0-9+/]{100,}={0,3}|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})/g,
  },
  {
    id: 'age-secret-key',
    title: 'age encryption secret key (AGE-SECRET-KEY-1…)',
    keywords: ['age-secret-key-1'],
    pattern: /AGE-SECRET-KEY-1[0-9A-Z]{58}/g,
  },
  {
    id: 'mapbox-secret-token',
    title: 'Mapbox secret token (sk.eyJ…)',
    keywords: ['sk.eyj'],
    pattern: /(?<![A-Za-z0-9])sk\.eyJ[\w-]{50,}\.[\w-]{20,}/g,
  },

  // Formats, not vendors
  {
    // A header and payload of JSON: `{"` is `eyJ`, and a pretty-printed one (`{ "`, `{\n`, `{\r\n`)
    // `eyAi`, `ewog`/`ewoi`/`ewoJ`, `ew0K`. An encrypted token (JWE, a session cookie) has a JSON header, then four
    // parts (the key part empty for `"alg":"dir"`).
    id: 'jwt',
    title: 'JSON Web Token (eyJ….eyJ….…) and JSON Web Encryption (eyJ……….….…)',
    keywords: ['eyj', 'eyai', 'ewog', 'ewoi', 'ewoj', 'ew0k'],
    exactKeywords: false,
    pattern:
      /(?<![A-Za-z0-9])(?:eyJ|eyAi|ewo[giJ]|ew0K)[\w-]{8,}={0,2}\.(?:(?:eyJ|eyAi|ewo[giJ]|ew0K)[\w-]{8,}={0,2}\.[\w-]*|[\w-]*\.[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})/g,
  },
];
