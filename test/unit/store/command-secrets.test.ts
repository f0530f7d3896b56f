// Secrets that no key names: given to a command (stdin, positional, a tool's own option) or placed by a
// file's layout (.pgpass, XML). Each redacts only the secret; the near misses stay as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/store/sanitize/secrets';
import { assertQuick } from '../../support/linear-time';

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
      `net use Z: \\\\fs\\share Nu-pw-4 /user:corp\\bob`,
      `net use Z: \\\\fs\\share [REDACTED:cli-password] /user:corp\\bob`,
    ],
    [`net use \\\\fs\\share /user:bob "Nu pw 5"`, `net use \\\\fs\\share /user:bob "[REDACTED:cli-password]"`],
    [`lftp -u bob,Lf-pw-6 sftp://files`, `lftp -u bob,[REDACTED:cli-password] sftp://files`],
    [
      `oc login -u dev -p Oc-pw-7 https://api.ocp:6443`,
      `oc login -u dev -p [REDACTED:cli-password] https://api.ocp:6443`,
    ],
    [
      `mc alias set s3 https://s3.example.com AKIDEXAMPLE wJalr-secret-9`,
      `mc alias set s3 https://s3.example.com AKIDEXAMPLE [REDACTED:cli-password]`,
    ],
    [`mongosh "mongodb://db" -u admin -p M0ngo-pw`, `mongosh "mongodb://db" -u admin -p [REDACTED:cli-password]`],
    [`sqlcmd -S db -U sa -P 'Sql-pw-1' -Q "SELECT 1"`, `sqlcmd -S db -U sa -P '[REDACTED:cli-password]' -Q "SELECT 1"`],
    [`twine upload -u __token__ -p Tw1ne-pw dist/*`, `twine upload -u __token__ -p [REDACTED:cli-password] dist/*`],
    [`vault login s.Abc123def456`, `vault login [REDACTED:cli-password]`],
    [`cargo login --registry my-reg Crg-t0ken`, `cargo login --registry my-reg [REDACTED:cli-password]`],
    [`rabbitmqctl add_user deploy Rbt-pw-1`, `rabbitmqctl add_user deploy [REDACTED:cli-password]`],
    [
      `poetry config http-basic.internal deploy P0etry-pw`,
      `poetry config http-basic.internal deploy [REDACTED:cli-password]`,
    ],
    [`poetry config pypi-token.pypi pypi-Ab12`, `poetry config pypi-token.pypi [REDACTED:cli-password]`],
    [
      `npm config set //npm.example.com/:_authToken Npm-t0ken`,
      `npm config set //npm.example.com/:_authToken [REDACTED:cli-password]`,
    ],
    [
      `bundle config set --global gems.example.com bob:Bndl-pw-1`,
      `bundle config set --global gems.example.com bob:[REDACTED:cli-password]`,
    ],
    [
      `aws configure set aws_session_token IQo-Jb3JpZ2 --profile ci`,
      `aws configure set aws_session_token [REDACTED:aws-secret-access-key] --profile ci`,
    ],
    [
      `ALTER ROLE app WITH LOGIN ENCRYPTED PASSWORD 'it''s-pw';`,
      `ALTER ROLE app WITH LOGIN ENCRYPTED PASSWORD '[REDACTED:sql-password]';`,
    ],
    [
      `CREATE USER 'app'@'%' IDENTIFIED BY 'Sq1-pw-1';`,
      `CREATE USER 'app'@'%' IDENTIFIED BY '[REDACTED:sql-password]';`,
    ],
    [
      `SET PASSWORD FOR 'app'@'localhost' = 'Sq1-pw-2';`,
      `SET PASSWORD FOR 'app'@'localhost' = '[REDACTED:sql-password]';`,
    ],
    [
      `echo -n "Gc-pw-1" | gcloud secrets create db --data-file=-`,
      `echo -n "[REDACTED:stdin-password]" | gcloud secrets create db --data-file=-`,
    ],
    [`echo Gh-s3cret | gh secret set TOKEN`, `echo [REDACTED:stdin-password] | gh secret set TOKEN`],
    [
      `npx wrangler secret put API_KEY <<< "Wr-s3cret"`,
      `npx wrangler secret put API_KEY <<< "[REDACTED:stdin-password]"`,
    ],
    [`gh secret set TOKEN --body "Gh-b0dy"`, `gh secret set TOKEN --body "[REDACTED:cli-password]"`],
    [
      `aws secretsmanager create-secret --name x --secret-string "{\\"password\\":\\"Sm-pw-1\\"}"`,
      `aws secretsmanager create-secret --name x --secret-string "[REDACTED:cli-password]"`,
    ],
    [
      `az keyvault secret set --vault-name kv --name db --value Kv-pw-1`,
      `az keyvault secret set --vault-name kv --name db --value [REDACTED:cli-password]`,
    ],
    [`echo "::add-mask::Ma5ked-value"`, `echo "::add-mask::[REDACTED:stdin-password]"`],
    [`unzip -P Z1p-pw-9 a.zip`, `unzip -P [REDACTED:cli-password] a.zip`],
    [`zip -r -P 'Z1p pw' out.zip dir`, `zip -r -P '[REDACTED:cli-password]' out.zip dir`],
    [`7z a -pSeven-Zip9 out.7z dir`, `7z a -p[REDACTED:cli-password] out.7z dir`],
    [`gpg --batch --passphrase Gpg-pass9 -d f.gpg`, `gpg --batch --passphrase [REDACTED:cli-password] -d f.gpg`],
    [`http -a alice:Htt-pie9 https://api.x`, `http -a alice:[REDACTED:cli-password] https://api.x`],
    [`http --auth=alice:Htt-pie8 GET api.x`, `http --auth=alice:[REDACTED:cli-password] GET api.x`],
    [`echo 'Sud0-pw-9' | sudo -S apt-get update`, `echo '[REDACTED:stdin-password]' | sudo -S apt-get update`],
    [`sudo -kS true <<< "Sud0-pw-8"`, `sudo -kS true <<< "[REDACTED:stdin-password]"`],
    [`net user admin W1n-pw-9! /add`, `net user admin [REDACTED:cli-password] /add`],
    [
      `$pw = ConvertTo-SecureString "Ps-pw-9!" -AsPlainText -Force`,
      `$pw = ConvertTo-SecureString "[REDACTED:cli-password]" -AsPlainText -Force`,
    ],
    // A quoted `-var` keeps its closing quote.
    [`terraform apply -var 'db_password=Tf-var-9'`, `terraform apply -var 'db_password=[REDACTED:code-secret]'`],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
});

test("every literal of a Kubernetes Secret made by command goes, whatever its key's name; a ConfigMap's stay", async () => {
  assert.equal(
    await clean(
      `kubectl create secret generic app --from-literal=license=ABCD-EFGH-IJKL --from-literal "pin=1234 5678" -n prod`,
    ),
    `kubectl create secret generic app --from-literal=license=[REDACTED:cli-password] --from-literal "pin=[REDACTED:cli-password]" -n prod`,
  );
  assert.equal(
    await clean(`oc create secret generic app --from-literal='motd=hello there' --from-literal=token=$TOKEN`),
    `oc create secret generic app --from-literal='motd=[REDACTED:cli-password]' --from-literal=token=$TOKEN`,
  );
  const configMap = 'kubectl create configmap app --from-literal=mode=production && echo secret';
  assert.equal(await clean(configMap), configMap);
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
    // A property list's value is the element after its key, often on the next line.
    [
      '<key>APIToken</key>\n\t<string>Pl1st-t0k</string>',
      '<key>APIToken</key>\n\t<string>[REDACTED:xml-secret]</string>',
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
    '7z x -p archive.7z',
    '7z x archive.7z -o/tmp/out',
    'gpg --passphrase-file pw.txt -d f.gpg',
    'gpg --batch --passphrase "$GPG_PASS" -d f.gpg',
    'http -a alice https://api.x.com',
    'http GET https://api.x.com Authorization:token',
    'python -m http.server 8080',
    'net user admin /active:yes',
    'net user admin *',
    'net use',
    'net use Z: \\\\fs\\share /persistent:yes',
    'net use * \\\\fs\\share * /user:bob',
    'net use Z: \\\\fs\\share %PW% /user:bob',
    'lftp -u bob sftp://files',
    'lftp -u bob,$LFTP_PW sftp://files',
    'pass = True',
    'pass = ${RCLONE_PASS}',
    '    pass',
    'echo hello | sudo tee /etc/x',
    '$s = ConvertTo-SecureString $plain -AsPlainText -Force',
    'helm install app ./chart -n prod',
    'daemon:*:19000:0:99999:7:::',
    'root:x:0:0:root:/root:/bin/bash',
    'db.internal:7777:app:app:pw-elsewhere',
    '<maxTokens>100000</maxTokens>',
    '<passphrase>${env.GPG_PASSPHRASE}</passphrase>',
    '<privateKey>/home/bob/.ssh/id_rsa</privateKey>',
    '<add key="Username" value="bob" />',
    '<key>TokenLifetime</key><string>3600s</string>',
    'vault login -method=userpass username=bob',
    'cargo login --registry my-reg',
    'poetry config http-basic.internal deploy',
    'npm config set registry https://registry.example.com/',
    'aws configure set region eu-west-1 --profile ci',
    'mongod --port 27017 --dbpath /data',
    'mongosh -u admin -p --host db',
    'rabbitmqctl list_users',
    'SELECT * FROM users WHERE password = $1;',
    'ALTER ROLE app PASSWORD NULL;',
    "CREATE USER app PASSWORD '${APP_PASSWORD}';",
    'echo "$TOKEN" | gh secret set TOKEN',
    'gh secret list --repo acme/app',
    'echo "::add-mask::${{ secrets.TOKEN }}"',
    'aws secretsmanager get-secret-value --secret-id prod/db',
    'az keyvault secret show --vault-name kv --name db',
    "define('WP_DEBUG', true);",
    'api_key: "{api_key}"',
    'password = "%(password)s"',
    "setApiKey: 'contextDesk.setApiKey',",
    'password: "(see the docs below)"',
  ];
  for (const line of lines) assert.equal(await clean(line), line, line);
});

test('a quoted secret may hold brackets; unquoted, brackets make it code', async () => {
  // The engine hands rules a quoted value without its quotes; the rule is told it was quoted.
  assert.equal(await clean('DB_PASSWORD="p@ss(word)1"'), 'DB_PASSWORD="[REDACTED:env-secret]"');
  assert.equal(await clean('  "password": "x{y}z[1]",'), '  "password": "[REDACTED:code-secret]",');
  assert.equal(
    await clean("define('SECURE_AUTH_KEY', 'kD8#f9(oP5)aS0');"),
    "define('SECURE_AUTH_KEY', '[REDACTED:env-secret]');",
  );
  for (const line of ['password = getPassword(user)', 'const token = tokens[0];', 'API_KEY=readKey()'])
    assert.equal(await clean(line), line, line);
});

test('key files inside JSON strings: a PuTTY key and an OpenVPN static key, colour codes inside a line', async () => {
  const ppk = 'Private-Lines: 2\r\nAAAAIGFiY2Rl\u001b[33mZmdoaWprbG1u\r\nb3BxcnN0dXZ3eHl6MDEy\r\nPrivate-MAC: 0123';
  const out = await clean(JSON.stringify({ content: ppk }));
  assert.ok(!/AAAAIGFiY2Rl|ZmdoaWprbG1u|b3BxcnN0dXZ3/.test(out), out);
  assert.ok(JSON.parse(out), 'still JSON');
  assert.match(out, /Private-MAC: 0123/);
  const ovpn =
    '-----BEGIN OpenVPN Static key V1-----\n0123456789abcdef0123456789abcdef\n-----END OpenVPN Static key V1-----';
  assert.equal(await clean(ovpn), '[REDACTED:private-key]');
});

test('secrets passed to well-known calls by position, and variables that stay', async () => {
  assert.equal(
    await clean("requests.get(u, auth=('admin', 'Rq-pw-1'))"),
    "requests.get(u, auth=('admin', '[REDACTED:code-secret]'))",
  );
  assert.equal(await clean('HTTPBasicAuth("admin", "Ba-pw-1")'), 'HTTPBasicAuth("admin", "[REDACTED:code-secret]")');
  assert.equal(await clean("ftp.login('deploy', 'Ftp-pw-1')"), "ftp.login('deploy', '[REDACTED:code-secret]')");
  assert.equal(
    await clean("jwt.encode(payload, 'Jw-s3cret', algorithm='HS256')"),
    "jwt.encode(payload, '[REDACTED:code-secret]', algorithm='HS256')",
  );
  assert.equal(
    await clean("auth: { user: 'me', pass: 'Nm-pw-1' }"),
    "auth: { user: 'me', pass: '[REDACTED:code-secret]' }",
  );
  // rclone's config: its `pass` is only obscured.
  const rclone = '[nas]\ntype = sftp\nhost = nas.lan\nuser = bob\npass = 4Jd9kLmQz7XwP2vRs8TnYb3HcFg\n';
  assert.equal(await clean(rclone), rclone.replace('4Jd9kLmQz7XwP2vRs8TnYb3HcFg', '[REDACTED:code-secret]'));
  for (const line of [
    "auth=('x', getpass())",
    'server.login(user, password)',
    'jwt.sign(payload, process.env.JWT_SECRET)',
    "  pass: ''",
    'auth = ("user", "")',
  ])
    assert.equal(await clean(line), line, line);
});

test('a quoted secret with an escaped quote inside is redacted whole', async () => {
  assert.equal(await clean('password = "ab\\"cd9Xyz12"'), 'password = "[REDACTED:code-secret]"');
  assert.equal(await clean("api_key = 'it\\'s-9Xyz12'"), "api_key = '[REDACTED:code-secret]'");
  assert.equal(await clean('DB_PASSWORD="ab\\"cd9Xyz12" # set'), 'DB_PASSWORD="[REDACTED:env-secret]" # set');
});

test('secret-named variables set by a command as two words: setx, fish, csh, launchctl, PowerShell, Netlify', async () => {
  const cases: [string, string][] = [
    [`setx API_TOKEN "Sx-t0ken-1"`, `setx API_TOKEN "[REDACTED:env-secret]"`],
    [`SETX DB_PASSWORD Sx-pw-2 /M`, `SETX DB_PASSWORD [REDACTED:env-secret] /M`],
    [`set -gx OPENAI_API_KEY Fi-key-3`, `set -gx OPENAI_API_KEY [REDACTED:env-secret]`],
    [`set --export --universal GH_PAT Fi-pat-4`, `set --export --universal GH_PAT [REDACTED:env-secret]`],
    [`setenv DB_PASSWORD 'Cs-pw-5'`, `setenv DB_PASSWORD '[REDACTED:env-secret]'`],
    [`launchctl setenv NPM_TOKEN Lc-t0k-6`, `launchctl setenv NPM_TOKEN [REDACTED:env-secret]`],
    [
      `Set-Item -Path Env:\\DB_PASSWORD -Value 'Ps-pw-7'`,
      `Set-Item -Path Env:\\DB_PASSWORD -Value '[REDACTED:env-secret]'`,
    ],
    [`si env:API_KEY Ps-key-8`, `si env:API_KEY [REDACTED:env-secret]`],
    [
      `[Environment]::SetEnvironmentVariable("API_SECRET", "Ps-sec-9", "User")`,
      `[Environment]::SetEnvironmentVariable("API_SECRET", "[REDACTED:env-secret]", "User")`,
    ],
    [`netlify env:set STRIPE_SECRET Nl-sec-1`, `netlify env:set STRIPE_SECRET [REDACTED:env-secret]`],
    [`os.Setenv("SECRET_KEY_BASE", "Go-skb-2")`, `os.Setenv("SECRET_KEY_BASE", "[REDACTED:env-secret]")`],
    [`os.Setenv("DB_PASSWORD_PROD", "Go-pw-3")`, `os.Setenv("DB_PASSWORD_PROD", "[REDACTED:env-secret]")`],
    [`define( 'AUTH_SALT', 'Wp-salt-4' );`, `define( 'AUTH_SALT', '[REDACTED:env-secret]' );`],
    // Names in any case: Windows' are not case-sensitive, fish's and Go's are written as users like.
    [`setx OpenAI_Key Sx-key-5 /M`, `setx OpenAI_Key [REDACTED:env-secret] /M`],
    [`setx db_password Sx-pw-6`, `setx db_password [REDACTED:env-secret]`],
    [`set -gx openai_api_key Fi-key-7`, `set -gx openai_api_key [REDACTED:env-secret]`],
    [
      `[System.Environment]::SetEnvironmentVariable('GitHub_Token', 'Ps-tok-8', 'User')`,
      `[System.Environment]::SetEnvironmentVariable('GitHub_Token', '[REDACTED:env-secret]', 'User')`,
    ],
    [`$env:DbPassword = 'Ps-pw-9'`, `$env:DbPassword = '[REDACTED:code-secret]'`],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
  // Other names, prose, variables, stand-ins, bash's `set -x` and fish's erase stay.
  for (const line of [
    'set -x',
    'set -x API_KEY',
    'set -e API_KEY',
    'set -gx PATH $PATH ~/bin',
    'set -gx API_TOKEN (cat ~/.tok)',
    'Set API_KEY to your key in the settings.',
    'You can set API_KEY in the settings.',
    'setx API_TOKEN %OTHER%',
    'setx API_KEY "<your-key>"',
    'setenv DB_PASSWORD $pw',
    'launchctl setenv JAVA_HOME /usr/lib/jvm',
    'Set-Item -Path env:API_KEY -Value $key',
    'Set-Item env:PATH C:\\bin',
    'netlify env:set API_TOKEN',
    'os.Setenv("PATH", "/usr/local/bin")',
    'os.Setenv("KEYCLOAK_URL", "https://kc.local")',
    'os.Setenv("TOKEN_URL", "https://id.example.com/token")',
    'os.Setenv("DB_PASSWORD_FILE", "/run/secrets/db")',
    'setx Path "%Path%;C:\\tools"',
    'setx keyboard_layout us',
    'setx Tokenizer_Dir C:\\tok',
    'os.Setenv("Token_Url", "https://id.example.com/token")',
    'os.Setenv("API_KEY_ID", "ab12cd34")',
    'os.Setenv("KEY_VAULT_NAME", "kv-prod-1")',
  ])
    assert.equal(await clean(line), line, line);
});

test("secrets given to openssl and to secret stores' own commands", async () => {
  const cases: [string, string][] = [
    [
      `openssl enc -aes-256-cbc -k Os-pw-1 -in a -out b`,
      `openssl enc -aes-256-cbc -k [REDACTED:cli-password] -in a -out b`,
    ],
    [
      `openssl enc -aes-128-cbc -K 00112233445566778899aabbccddeeff -iv 01`,
      `openssl enc -aes-128-cbc -K [REDACTED:cli-password] -iv 01`,
    ],
    [`openssl dgst -sha256 -hmac Hm-key-2 body.json`, `openssl dgst -sha256 -hmac [REDACTED:cli-password] body.json`],
    [`openssl passwd -6 -salt abc Op-pw-3`, `openssl passwd -6 -salt abc [REDACTED:cli-password]`],
    [`mkpasswd --method=sha-512 Mk-pw-4 > hash`, `mkpasswd --method=sha-512 [REDACTED:cli-password] > hash`],
    [
      `fly secrets set LICENSE=Fl-lic-5 DATABASE_URL='Fl-url-6'`,
      `fly secrets set LICENSE=[REDACTED:cli-password] DATABASE_URL='[REDACTED:cli-password]'`,
    ],
    [
      `supabase secrets set STRIPE=Sb-val-7 --env-file x`,
      `supabase secrets set STRIPE=[REDACTED:cli-password] --env-file x`,
    ],
    [`doppler secrets set LICENSE Dp-val-8`, `doppler secrets set LICENSE [REDACTED:cli-password]`],
    [
      `aws ssm put-parameter --name /app/db --value Ss-val-9 --type SecureString`,
      `aws ssm put-parameter --name /app/db --value [REDACTED:cli-password] --type SecureString`,
    ],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
  for (const line of [
    'curl -k https://example.com',
    'openssl s_client -connect host:443 -servername host',
    'openssl passwd -stdin < pw.txt',
    'openssl passwd -in pw.txt',
    'use openssl passwd to hash it',
    'mkpasswd -s < pw',
    'openssl enc -aes-256-cbc -k "$PASS" -in a',
    'fly secrets set FOO=$FOO',
    'fly secrets list',
    'doppler secrets set API_KEY',
    'aws ssm put-parameter --name /app/mode --value production --type String',
  ])
    assert.equal(await clean(line), line, line);
});

test('secrets of database, broker, Wi-Fi, SSH and cloud storage commands, and of prompts that echo them', async () => {
  const cases: [string, string][] = [
    [
      `dotnet user-secrets set "Stripe:ApiKey" "Dn-us-1"`,
      `dotnet user-secrets set "Stripe:ApiKey" "[REDACTED:cli-password]"`,
    ],
    [`sqlplus scott/Or-pw-2@orcl`, `sqlplus scott/[REDACTED:cli-password]@orcl`],
    [`sqlplus -S system/"Or@pw 3"@//db:1521/XE`, `sqlplus -S system/"[REDACTED:cli-password]"@//db:1521/XE`],
    [`expdp userid=system/Or-pw-4@db schemas=hr`, `expdp userid=system/[REDACTED:cli-password]@db schemas=hr`],
    [`rman target sys/Or-pw-5@prod`, `rman target sys/[REDACTED:cli-password]@prod`],
    [`SQL> conn scott/Or-pw-6`, `SQL> conn scott/[REDACTED:cli-password]`],
    [`CONNECT sys/Or-pw-7 AS SYSDBA`, `CONNECT sys/[REDACTED:cli-password] AS SYSDBA`],
    [
      `ssh-keygen -p -P Sk-old-8 -N 'Sk new 9' -f ~/.ssh/id`,
      `ssh-keygen -p -P [REDACTED:cli-password] -N '[REDACTED:cli-password]' -f ~/.ssh/id`,
    ],
    [
      `mosquitto_pub -h broker -u dev -P Mq-pw-1 -t t -m hi`,
      `mosquitto_pub -h broker -u dev -P [REDACTED:cli-password] -t t -m hi`,
    ],
    [`redis-cli -h cache AUTH default Rd-pw-2`, `redis-cli -h cache AUTH default [REDACTED:cli-password]`],
    [`127.0.0.1:6379> AUTH Rd-pw-3`, `127.0.0.1:6379> AUTH [REDACTED:cli-password]`],
    [`etcdctl --user root:Et-pw-4 get /`, `etcdctl --user root:[REDACTED:cli-password] get /`],
    [
      `nmcli device wifi connect Home password 'Wi-pw-5'`,
      `nmcli device wifi connect Home password '[REDACTED:cli-password]'`,
    ],
    [`wpa_passphrase Home Wp-pw-6 > wpa.conf`, `wpa_passphrase Home [REDACTED:cli-password] > wpa.conf`],
    [
      `iwctl --passphrase Iw-pw-7 station wlan0 connect Home`,
      `iwctl --passphrase [REDACTED:cli-password] station wlan0 connect Home`,
    ],
    [
      `rclone config create s3r s3 provider AWS secret_access_key Rc-sk-8 pass=Rc-pw-9`,
      `rclone config create s3r s3 provider AWS secret_access_key [REDACTED:cli-password] pass=[REDACTED:cli-password]`,
    ],
    [
      `az storage blob list --account-name acct --account-key "Az+key/1=="`,
      `az storage blob list --account-name acct --account-key "[REDACTED:cli-password]"`,
    ],
    [`curl -U bob:Px-pw-1 https://x`, `curl -U bob:[REDACTED:curl-user] https://x`],
    [`curl --oauth2-bearer Oa-t0k-2 https://x`, `curl --oauth2-bearer [REDACTED:cli-password] https://x`],
    [
      `AWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
      `AWS Secret Access Key [None]: [REDACTED:aws-secret-access-key]`,
    ],
  ];
  for (const [line, want] of cases) assert.equal(await clean(line), want, line);
  for (const line of [
    'connect src/main',
    'You can connect db/app to the service.',
    'sqlplus / as sysdba',
    'sqlplus /nolog @setup.sql',
    'rman target /',
    'ssh-keygen -t ed25519 -N "" -f key',
    'ssh-keygen -P "$OLD" -N "$NEW" -f key',
    'dotnet user-secrets list',
    'dotnet user-secrets set "Key" "$VALUE"',
    'rclone config create r s3 provider AWS env_auth true',
    'nmcli connection up home',
    'etcdctl --user root get /',
    'redis-cli --user bob --askpass',
    '127.0.0.1:6379> GET auth',
    'curl -U bob https://x',
    'AWS Secret Access Key [****************EKEY]:',
    'mosquitto_pub -h b -P "$PW" -t t',
    'gpg --passphrase-file pw.txt -c f',
  ])
    assert.equal(await clean(line), line, line);
});

// Options were read two ways each (`--x` as `--x` or as `-` and `-x`): 28 of them after `bundle config`
// took 16 s, each two more four times as long; a tool output could hold the extension host for hours.
test('a command with many options, or a long word after a logon or a secret store, is read in linear time', async () => {
  const started = performance.now();
  const commands = ['vault login', 'cargo login', 'rabbitmqctl', 'poetry config', 'composer config', 'bundle config'];
  const more = ['npm config set', 'aws configure set', 'dotnet user-secrets set', 'doppler secrets set'];
  for (const command of [...commands, ...more])
    for (const option of [' --x', ' --x=1', ' -x'])
      assert.equal(typeof (await redactSecrets(`${command}${option.repeat(60)} |`)).text, 'string', command);
  const n = 100_000;
  for (const line of [
    // A logon's password that never reaches `@` was tried at every shorter length, each time looking back
    // for the prompt: quadratic, a minute for this one.
    `conn a/${'b'.repeat(4 * n)}`,
    `SQL> connect a/${'b'.repeat(4 * n)} x`,
    `ssh-keygen ${'a'.repeat(1000)}${' -Nx'.repeat(n / 4)}`,
    `fly secrets set ${'a'.repeat(1000)}${' a='.repeat(n / 3)}`,
    `rclone config create${' key '.repeat(n / 5)}`,
    `127.0.0.1:6379> AUTH${' a'.repeat(n / 2)}`,
    // Each blank of a run could start Redis's prompt, and each read the run to its end.
    `redis-cli: a${' '.repeat(4 * n)}b`,
    `openssl passwd${' -salt'.repeat(n / 6)}`,
    `setx ${'A_'.repeat(n / 2)}`,
  ])
    assert.equal(typeof (await redactSecrets(line)).text, 'string');
  assertQuick(started);
});
