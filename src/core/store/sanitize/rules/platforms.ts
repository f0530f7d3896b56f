// Prefixed tokens of hosting, CI and SaaS platforms (Cloudflare, OpenShift, Alibaba Cloud,
// Sourcegraph, Dropbox, Discord, …). Shapes from gitleaks' default rule set and trufflehog's detectors.
import { entropy, hasDigitAndLetter, type SecretRule } from './types';

const exact = (rule: Omit<SecretRule, 'exactKeywords'>): SecretRule => ({ ...rule, exactKeywords: true });

export const PLATFORM_RULES: readonly SecretRule[] = [
  {
    id: 'cloudflare-origin-ca-key',
    title: 'Cloudflare Origin CA key (v1.0-…)',
    keywords: ['v1.0-'],
    pattern: /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b/g,
  },
  {
    id: 'openshift-token',
    title: 'OpenShift user and service-account tokens (sha256~…)',
    keywords: ['sha256~'],
    pattern: /\bsha256~[\w-]{43}(?![\w-])/g,
    accept: (s) => entropy(s) >= 3.5,
  },
  exact({
    id: 'alibaba-access-key-id',
    title: 'Alibaba Cloud AccessKey ID (LTAI…)',
    keywords: ['LTAI'],
    pattern: /\bLTAI[A-Za-z0-9]{20}\b/g,
    accept: hasDigitAndLetter,
  }),
  {
    id: 'sourcegraph-token',
    title: 'Sourcegraph access tokens (sgp_…)',
    keywords: ['sgp_'],
    pattern: /\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}\b/g,
  },
  {
    id: 'platform-token',
    title:
      'Prefect (pnu_), Infracost (ico-), Scalingo (tk-us-), Shippo (shippo_live_/_test_), Typeform (tfp_) and ReadMe (rdme_) API tokens',
    keywords: ['pnu_', 'ico-', 'tk-us-', 'shippo_', 'tfp_', 'rdme_'],
    pattern:
      /\b(?:pnu_[A-Za-z0-9]{36}|ico-[A-Za-z0-9]{32}|tk-us-[\w-]{48}|shippo_(?:live|test)_[a-fA-F0-9]{40}|tfp_[\w.=-]{59}|rdme_[a-z0-9]{70})(?![\w-])/g,
    accept: hasDigitAndLetter,
  },
  exact({
    id: 'octopus-deploy-api-key',
    title: 'Octopus Deploy API keys (API-…)',
    keywords: ['API-'],
    pattern: /\bAPI-[A-Z0-9]{26}\b/g,
    accept: hasDigitAndLetter,
  }),
  {
    id: 'dropbox-token',
    title: 'Dropbox short-lived access tokens (sl.…, sl.u.…)',
    keywords: ['sl.'],
    pattern: /\bsl\.(?:u\.)?[\w=-]{130,1400}/g,
    accept: (s) => entropy(s) >= 4,
  },
  {
    // No prefix: the user id in base64, a timestamp, an HMAC. Only where the line says Discord or Bot.
    id: 'discord-bot-token',
    title: 'Discord bot tokens (on a line naming discord or Bot)',
    keywords: ['discord', 'bot'],
    pattern: /\b[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}\b/g,
    accept: hasDigitAndLetter,
  },
];
