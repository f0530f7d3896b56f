// Prefixed tokens of hosting, CI and SaaS platforms (Cloudflare, OpenShift, Alibaba Cloud,
// Sourcegraph, Dropbox, Discord, …). Shapes from gitleaks' default rule set and trufflehog's detectors.
import { entropy, hasDigitAndLetter, type SecretRule } from './types';

const exact = (rule: Omit<SecretRule, 'exactKeywords'>): SecretRule => ({ ...rule, exactKeywords: true });

export const PLATFORM_RULES: readonly SecretRule[] = [
  {
    id: 'cloudflare-origin-ca-key',
    title: 'Cloudflare Origin CA key (v1.0-…)',
    keywords: ['v1.0-'],
    pattern: /\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![A-Za-z0-9])/g,
  },
  {
    id: 'openshift-token',
    title: 'OpenShift user and service-account tokens (sha256~…)',
    keywords: ['sha256~'],
    pattern: /(?<![A-Za-z0-9])sha256~[\w-]{43}(?![A-Za-z0-9])/g,
    accept: (s) => entropy(s) >= 3.5,
  },
  exact({
    id: 'alibaba-access-key-id',
    title: 'Alibaba Cloud AccessKey ID (LTAI…)',
    keywords: ['LTAI'],
    pattern: /(?<![A-Za-z0-9])LTAI(?:[A-Za-z0-9]{20}(?![A-Za-z0-9])|(?=[A-Za-z]{0,19}\d)[A-Za-z0-9]{20})/g,
    accept: hasDigitAndLetter,
  }),
  {
    id: 'sourcegraph-token',
    title: 'Sourcegraph access tokens (sgp_…)',
    keywords: ['sgp_'],
    pattern: /(?<![A-Za-z0-9])sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}(?![0-9a-fA-F])/g,
  },
  {
    id: 'platform-token',
    title:
      'Prefect (pnu_), Infracost (ico-), Scalingo (tk-us-), Shippo (shippo_live_/_test_), Typeform (tfp_) and ReadMe (rdme_) API tokens',
    keywords: ['pnu_', 'ico-', 'tk-us-', 'shippo_', 'tfp_', 'rdme_'],
    pattern:
      /(?<![A-Za-z0-9])(?:pnu_[A-Za-z0-9]{36}|ico-[A-Za-z0-9]{32}|tk-us-[\w-]{48}|shippo_(?:live|test)_[a-fA-F0-9]{40}|tfp_[\w.=-]{59}|rdme_[a-z0-9]{70})(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    // Render's API keys (trufflehog's detector) and Mapbox's secret tokens: `sk.` and a base64url JSON
    // header naming the user, then a signature (a public token, `pk.`, is meant to be shown).
    id: 'platform-token',
    title: 'Render API keys (rnd_…) and Mapbox secret tokens (sk.eyJ….…)',
    keywords: ['rnd_', 'sk.eyj'],
    pattern: /(?<![A-Za-z0-9])(?:rnd_[A-Za-z0-9]{32}|sk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,})(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  exact({
    id: 'octopus-deploy-api-key',
    title: 'Octopus Deploy API keys (API-…)',
    keywords: ['API-'],
    pattern: /\bAPI-[A-Z0-9]{26}(?![A-Za-z0-9])/g,
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
  {
    id: 'sonar-token',
    title: 'SonarQube / SonarCloud tokens (squ_ user, sqp_ project, sqa_ analysis)',
    keywords: ['squ_', 'sqp_', 'sqa_'],
    pattern: /(?<![A-Za-z0-9])sq[upa]_[a-f0-9]{40}(?![0-9a-fA-F])/g,
  },
  exact({
    id: 'aws-bedrock-api-key',
    title: 'Amazon Bedrock long-term API keys (ABSK + base64 of BedrockAPIKey-…)',
    keywords: ['ABSKQmVkcm9ja0FQSUtleS'],
    pattern: /(?<![A-Za-z0-9])ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{60,}={0,2}/g,
  }),
  exact({
    id: 'heroku-api-key',
    title: 'Heroku API keys (HRKU-AA…)',
    keywords: ['HRKU-'],
    pattern: /(?<![A-Za-z0-9])HRKU-AA[\w-]{58}(?![\w-])/g,
  }),
  {
    id: 'platform-token',
    title:
      'CI and developer-service tokens: CircleCI (CCIPAT_), Buildkite (bkua_), Netlify (nfp_), Docker org (dckr_oat_), Linear OAuth (lin_oauth_), Contentful (CFPAT-), Clojars (CLOJARS_), Frame.io (fio-u-), Defined Networking (dnkey-), Databricks OAuth (dose), HubSpot (pat-na1-)',
    keywords: [
      'ccipat_',
      'bkua_',
      'nfp_',
      'dckr_oat_',
      'lin_oauth_',
      'cfpat-',
      'clojars_',
      'fio-u-',
      'dnkey-',
      'dose',
      'pat-na1-',
      'pat-eu1-',
    ],
    pattern:
      /(?<![A-Za-z0-9])(?:CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}|bkua_[a-f0-9]{40}|nfp_[A-Za-z0-9_]{36}|dckr_oat_[\w-]{32}|lin_oauth_[a-f0-9]{64}|CFPAT-[\w-]{43}|CLOJARS_[a-z0-9]{60}|fio-u-[\w=-]{64}|dnkey-[\w=-]{26}-[\w=-]{52}|dose[a-f0-9]{32}|pat-(?:na|eu)1-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
  {
    id: 'platform-token',
    title:
      'Payment and commerce tokens: Plaid (access-production-…), Square (EAAA…), Duffel (duffel_live_), EasyPost (EZAK/EZTK), Flutterwave (FLWSECK-), Adobe client secrets (p8e-), Airtable (pat….), Harness (pat./sat.)',
    keywords: [
      'access-sandbox-',
      'access-development-',
      'access-production-',
      'eaaa',
      'duffel_',
      'ezak',
      'eztk',
      'flwseck',
      'p8e-',
      'pat',
      'sat.',
    ],
    pattern:
      /(?<![A-Za-z0-9])(?:access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}|(?<![\w+/=-])EAAA[\w-]{22,60}(?![\w+/=-])|duffel_(?:test|live)_[\w=-]{43}|EZ[AT]K[A-Za-z0-9]{54}|FLWSECK(?:_TEST)?-[a-h0-9]{32}-X|p8e-[A-Za-z0-9]{32}|pat[A-Za-z0-9]{14}\.[a-f0-9]{64}|(?:pat|sat)\.[\w-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20})(?![A-Za-z0-9])/g,
    accept: hasDigitAndLetter,
  },
];
