// Text with no secret in it that looks like it might have one: hashes, ids, encoded data, minified and
// ordinary code, build and server logs. Generated from a fixed seed, plus real files already on disk:
// this project's own src/ and package-lock.json (MIT, this repository) and minified bundles of
// installed dependencies (dompurify: MPL-2.0 OR Apache-2.0; marked: MIT; lit: BSD-3-Clause), read at
// test time, never copied into the repository.
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { findFiles } from '../../scripts/lib/files';
import { B64, HEX, LOWER_ALNUM, Rng, wrap64 } from '../../scripts/secret-corpus/random';

export interface BenignSample {
  source: string;
  lines: string[];
}

const ROOT = path.join(__dirname, '../..');

function generated(rng: Rng): BenignSample[] {
  const sha = (): string => rng.str(HEX, 40);
  const uuid = (): string =>
    `${rng.str(HEX, 8)}-${rng.str(HEX, 4)}-4${rng.str(HEX, 3)}-a${rng.str(HEX, 3)}-${rng.str(HEX, 12)}`;
  const lines = (n: number, make: (i: number) => string): string[] => Array.from({ length: n }, (_, i) => make(i));
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), rng.bytes(3000)]);
  return [
    {
      source: 'git log, show and push output',
      lines: lines(
        3000,
        (i) =>
          [
            `commit ${sha()}`,
            `Merge: ${sha().slice(0, 7)} ${sha().slice(0, 7)}`,
            `${sha().slice(0, 7)} Fix token refresh when the session expires (#${1000 + i})`,
            `   ${sha().slice(0, 7)}..${sha().slice(0, 7)}  main -> main`,
            `index ${sha().slice(0, 7)}..${sha().slice(0, 7)} 100644`,
            `Change-Id: I${sha()}`,
          ][i % 6]!,
      ),
    },
    {
      source: 'ids and hashes in logs and JSON',
      lines: lines(
        3000,
        (i) =>
          [
            `2026-11-22T02:33:02.${i % 1000}Z INFO request_id=${uuid()} user=${rng.str(LOWER_ALNUM, 8)} status=200`,
            `  "id": "${uuid()}",`,
            `sha256:${rng.str(HEX, 64)}`,
            `"digest": "sha256:${rng.str(HEX, 64)}", "size": ${rng.int(1e7)}`,
            `etag: W/"${rng.str(HEX, 32)}"`,
            `trace_id=${rng.str(HEX, 32)} span_id=${rng.str(HEX, 16)}`,
            `x-request-id: ${randomUUID()}`,
          ][i % 7]!,
      ),
    },
    {
      source: 'long hex test vectors (NIST CAVP style, hash outputs)',
      lines: lines(
        2000,
        (i) =>
          [
            `COUNT = ${i}`,
            `KEY = ${rng.str(HEX, 64)}`,
            `IV = ${rng.str(HEX, 32)}`,
            `PLAINTEXT = ${rng.str(HEX, 64)}`,
            `CIPHERTEXT = ${rng.str(HEX, 64)}`,
            `    expect(sha512(input)).toBe('${rng.str(HEX, 128)}');`,
            `MD = ${rng.str(HEX, 128)}`,
          ][i % 7]!,
      ),
    },
    {
      source: 'base64 images and data URIs',
      lines: [
        ...png.toString('base64').match(/.{1,76}/g)!,
        ...lines(200, () => `<img src="data:image/png;base64,${rng.bytes(300).toString('base64')}">`),
        ...lines(200, () => `background: url(data:image/svg+xml;base64,${rng.bytes(200).toString('base64')});`),
        ...lines(200, () => `"icon": "${rng.str(B64, 120)}==",`),
      ],
    },
    {
      // Public: a certificate's or a public key's body without its armour stays readable.
      source: 'certificate and public key bodies without BEGIN lines',
      lines: lines(
        100,
        (i) =>
          [
            '308203773082025fa003020102', // a certificate
            '30820122300d06092a864886f70d01010105000382010f003082010a0282010100', // a public key (SPKI)
            '3082010a0282010100', // an RSA public key (PKCS#1)
            '3059301306072a8648ce3d020106082a8648ce3d03010703420004', // an EC public key
          ][i % 4]!,
      ).flatMap((prefix) => wrap64(Buffer.concat([Buffer.from(prefix, 'hex'), rng.bytes(600)]))),
    },
    {
      // Annotations name types (`secretKey: Uint8Array;`), constants hold routes: no secret in either.
      source: 'TypeScript declarations naming secrets by type',
      lines: [
        '  secretKey: Uint8Array;',
        '  privateKey: Uint8Array',
        'export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array;',
        'export function hmac(secret: Uint8Array, data: Uint8Array): Uint8Array {',
        '    constructor(message: string, parserState: Array<string>, token: CSSToken);',
        '    credential: Credential;',
        '    idToken: IdTokenEntity;',
        '  private token: OAuth2Token;',
        '  credentials: AWSCredentials;',
        '  password: SHA256Hash;',
        '    password: PBKDF2Params;',
        'export declare const SIGNIN_TOKEN = "/oauth2/v2.0/token";',
      ],
    },
    {
      source: 'build, test and server logs',
      lines: lines(
        6000,
        (i) =>
          [
            `npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.`,
            `added ${rng.int(900)} packages, and audited ${rng.int(900)} packages in ${rng.int(60)}s`,
            ` PASS  src/auth/token-store.test.ts (${rng.int(99)} ms)`,
            ` ✓ refreshes the access token before it expires (${rng.int(40)} ms)`,
            `#${i} [build 4/7] RUN npm ci --no-audit`,
            `#${i} sha256:${rng.str(HEX, 64)} ${rng.int(100)}MB / ${rng.int(100)}MB ${rng.int(9)}.${rng.int(9)}s done`,
            `10.0.${rng.int(255)}.${rng.int(255)} - - [22/Nov/2026:02:33:02 +0000] "GET /api/v1/items?page=${rng.int(50)}&sort=name&per_page=50 HTTP/1.1" 200 ${rng.int(99999)}`,
            `src/core/auth.ts(${rng.int(300)},${rng.int(80)}): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Token'.`,
            `    at Session.refresh (/app/node_modules/@acme/auth/dist/session.js:${rng.int(400)}:${rng.int(60)})`,
            `pod/api-${rng.str(LOWER_ALNUM, 10)}-${rng.str(LOWER_ALNUM, 5)}   1/1     Running   0          ${rng.int(48)}h`,
            `Collecting requests==2.${rng.int(32)}.0 (from -r requirements.txt (line ${rng.int(40)}))`,
            `warning: Password authentication is disabled; use an SSH key or a personal access token.`,
            `remote: Resolving deltas: 100% (${rng.int(900)}/${rng.int(900)}), completed with ${rng.int(50)} local objects.`,
            `[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/example/lib/1.${rng.int(9)}/lib-1.${rng.int(9)}.jar`,
            `DEBUG token usage: prompt_tokens=${rng.int(9000)} completion_tokens=${rng.int(900)} total_tokens=${rng.int(9900)}`,
          ][i % 15]!,
      ),
    },
  ];
}

function fileLines(source: string, file: string): BenignSample | undefined {
  if (!existsSync(file)) return undefined;
  return { source, lines: readFileSync(file, 'utf8').split('\n') };
}

/** The benign corpus: generated samples and real files (see the header for licences). */
export function benignCorpus(): BenignSample[] {
  const samples = generated(new Rng(0xbe9191));
  const code = findFiles(path.join(ROOT, 'src'), '.ts').flatMap((f) => readFileSync(f, 'utf8').split('\n'));
  samples.push({ source: "this project's TypeScript (src/)", lines: code });
  for (const [source, rel] of [
    ['package-lock.json (integrity hashes, registry URLs)', 'package-lock.json'],
    ['minified JS: dompurify', 'node_modules/dompurify/dist/purify.min.js'],
    ['minified JS: marked', 'node_modules/marked/lib/marked.umd.js'],
    ['JS: lit', 'node_modules/lit-html/lit-html.js'],
    ['JS: yaml', 'node_modules/yaml/dist/compose/composer.js'],
  ] as const) {
    const s = fileLines(source, path.join(ROOT, rel));
    if (s) samples.push(s);
  }
  return samples;
}
