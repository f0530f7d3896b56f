// Secrets that no key names: given to a command (stdin, positional, a tool's own option) or placed by a
// file's layout (.pgpass, XML). Each redacts only the secret; the near misses stay as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';

const clean = async (s: string): Promise<string> => (await redactSecrets(s)).text;

test('passwords given to commands are redacted, the command and user stay', async () => {
  const cases: [string, string][] = [
    [
      `echo "Hunter2-pass" | docker login ghcr.io -u bob --password-stdin`,
      `echo "[REDACTED:stdin-password]" | docker login ghcr.io -u bob --password-stdin`,
    ],
    [
      `printf '%s' 'Pr1ntf-pw' | sudo podman login -u bob --password-stdin quay.io`,
      `printf '%s' '[REDACTED:stdin-password]' | sudo podman login -u bob --password-stdin quay.io`,
    ],
    [
      `docker login -u bob --password-stdin <<< 'Here-str1ng'`,
      `docker login -u bob --password-stdin <<< '[REDACTED:stdin-password]'`,
    ],
    [`RUN echo 'root:Docker!9' | chpasswd`, `RUN echo 'root:[REDACTED:stdin-password]' | chpasswd`],
    [`echo s3cret-Pw | passwd --stdin deploy`, `echo [REDACTED:stdin-password] | passwd --stdin deploy`],
    [
      `az login --service-principal -u http://app -p Az-sp-9x --tenant t`,
      `az login --service-principal -u http://app -p [REDACTED:cli-password] --tenant t`,
    ],
    [
      `keytool -genkey -keystore ks.jks -storepass St0re-pw -keypass K3y-pw`,
      `keytool -genkey -keystore ks.jks -storepass [REDACTED:cli-password] -keypass [REDACTED:cli-password]`,
    ],
    [`openssl rsa -in k.pem -passin pass:0pen-ssl`, `openssl rsa -in k.pem -passin pass:[REDACTED:cli-password]`],
    [`htpasswd -b -c .htpasswd admin Ht-pw-1 > log`, `htpasswd -b -c .htpasswd admin [REDACTED:cli-password] > log`],
    [`htpasswd -nbB admin "Ht pw 2"`, `htpasswd -nbB admin "[REDACTED:cli-password]"`],
    [`ldapadd -x -D cn=admin -w Ld4p-pw -f a.ldif`, `ldapadd -x -D cn=admin -w [REDACTED:cli-password] -f a.ldif`],
    [`smbclient //fs/share -U bob%Smb-pw-3`, `smbclient //fs/share -U bob%[REDACTED:cli-password]`],
    [
      `mc alias set s3 https://s3.example.com AKIDEXAMPLE wJalr-secret-9`,
      `mc alias set s3 https://s3.example.com AKIDEXAMPLE [REDACTED:cli-password]`,
    ],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
});

test('passwords placed by a file layout are redacted: .pgpass lines, XML elements, <add key value>', async () => {
  const cases: [string, string][] = [
    ['localhost:5432:app:postgres:Pg-pw-1', 'localhost:5432:app:postgres:[REDACTED:pgpass-password]'],
    ['*:*:*:replicator:Pg-pw\\:2', '*:*:*:replicator:[REDACTED:pgpass-password]'],
    // Another port counts where the text names the file.
    [
      '$ cat ~/.pgpass\ndb.internal:7777:app:app:Pg-pw-3',
      '$ cat ~/.pgpass\ndb.internal:7777:app:app:[REDACTED:pgpass-password]',
    ],
    ['<password>Mvn-pw-1</password>', '<password>[REDACTED:xml-secret]</password>'],
    ['<ns:apiKey>k-1234abcd</ns:apiKey>', '<ns:apiKey>[REDACTED:xml-secret]</ns:apiKey>'],
    [
      '<add key="ClearTextPassword" value="Nu-get-1" />',
      '<add key="ClearTextPassword" value="[REDACTED:xml-secret]" />',
    ],
  ];
  for (const [text, want] of cases) assert.equal(await clean(text), want, text);
});

test('near misses stay: variables, prompts, files, other fields and numbers', async () => {
  const lines = [
    'echo $CR_PAT | docker login ghcr.io -u bob --password-stdin',
    'echo "${TOKEN}" | docker login -u bob --password-stdin',
    'aws ecr get-login-password | docker login --username AWS --password-stdin 1234.dkr.ecr.aws',
    'keytool -list -keystore ks.jks -storepass:env STOREPASS',
    'openssl rsa -in k.pem -passin env:KEYPASS',
    'openssl rsa -in k.pem -passin file:pass.txt',
    'htpasswd -c .htpasswd admin',
    'ldapsearch -x -D cn=admin -W -b dc=example',
    'mc alias set ALIAS URL ACCESS_KEY SECRET_KEY',
    'curl -k https://example.com',
    'helm install app ./chart -n prod',
    'daemon:*:19000:0:99999:7:::',
    'root:x:0:0:root:/root:/bin/bash',
    'db.internal:7777:app:app:pw-elsewhere',
    '<maxTokens>100000</maxTokens>',
    '<passphrase>${env.GPG_PASSPHRASE}</passphrase>',
    '<privateKey>/home/bob/.ssh/id_rsa</privateKey>',
    '<add key="Username" value="bob" />',
  ];
  for (const line of lines) assert.equal(await clean(line), line, line);
});
