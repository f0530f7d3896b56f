// Commands whose whole output is a secret (gh auth token, echo $API_KEY): recognised from the command
// line, and their output redacted line by line in terminal logs and in the agent's run_command output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ContextStore } from '../../../src/core/store/context-store';
import { TerminalLogWriter } from '../../../src/core/store/terminal-log';
import { ToolOutputStore } from '../../../src/core/store/tool-outputs';
import { PRINTED_SECRET, secretPrinter, wholeOutputRedactor } from '../../../src/core/store/sanitize/printed-secrets';
import { createTokenizer } from '../../../src/core/tokens/tokenizer';
import { assertQuick } from '../../support/linear-time';
import { tempDir } from './helpers';

test('commands that print a secret are recognised, in lists and pipelines, after sudo, env and assignments', () => {
  const printers = [
    'gh auth token',
    'aws ecr get-login-password --region eu-west-1',
    'aws --profile prod secretsmanager get-secret-value --secret-id db --query SecretString --output text',
    'aws ssm get-parameter --name /app/db --with-decryption --query Parameter.Value --output text',
    'aws sts assume-role --role-arn arn:aws:iam::1:role/x --role-session-name s',
    'gcloud auth print-access-token',
    'gcloud secrets versions access latest --secret=db-password',
    'az account get-access-token --query accessToken -o tsv',
    'az keyvault secret show --vault-name v --name db --query value -o tsv',
    'vault kv get -field=password secret/db',
    'VAULT_ADDR=https://vault:8200 vault read -field=token auth/x',
    'op read op://Private/db/password',
    'bw get password github',
    'security find-generic-password -s github -w',
    'pass show work/db',
    "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d",
    'kubectl -n prod get secrets db --output=go-template={{.data.password}}',
    'kubectl create token ci-bot',
    'doppler secrets get DB_PASSWORD --plain',
    'heroku config:get DATABASE_URL -a app',
    'echo $OPENAI_API_KEY',
    'printf "%s" "${GITHUB_TOKEN}"',
    'printenv DB_PASSWORD',
    'terraform output -raw db_password',
    'sudo -E env gh auth token',
    'npm ci && gh auth token',
    'cd app; echo "$STRIPE_KEY"',
    'cat token.txt',
    'cat ~/.github_token',
    'cat /run/secrets/db_password',
    'cat /var/run/secrets/kubernetes.io/serviceaccount/token',
    'cat config/master.key',
    'base64 -w0 openai-api-key.txt',
    'Get-Content .\\secrets\\api_key.txt',
    'tail -n1 ~/.pgpass',
    'echo $env:OPENAI_API_KEY',
    'Write-Output $env:GITHUB_TOKEN',
    '$env:ANTHROPIC_API_KEY',
    'echo %OPENAI_API_KEY%',
    'Get-Content env:OPENAI_API_KEY',
    'aws configure get aws_secret_access_key --profile prod',
    'aws iam create-access-key --user-name bob --output text',
    'az storage account keys list -g rg -n store1',
    'az cosmosdb keys list --name db1 --resource-group rg',
    'az cognitiveservices account keys list -n openai1 -g rg',
    'secret-tool lookup service github',
    'lpass show --password github',
    'infisical secrets get DB_PASSWORD --plain',
    'fly auth token',
    // Run in a container, on a host or in a shell: printed all the same.
    'docker exec -it -u root db printenv DB_PASSWORD',
    'docker compose exec api printenv API_KEY',
    'kubectl exec -n prod deploy/api -- printenv STRIPE_SECRET_KEY',
    'kubectl exec pod -c app -- cat /var/run/secrets/kubernetes.io/serviceaccount/token',
    "ssh deploy@host 'cat ~/.github_token'",
    'podman exec db cat /run/secrets/pg_password',
    "bash -lc 'gh auth token'",
    'sh -c "vault kv get -field=password secret/db"',
  ];
  for (const c of printers) assert.ok(secretPrinter(c), c);
  const others = [
    'npm test',
    'gh auth status',
    'gh pr list',
    'aws s3 ls',
    'aws ecr describe-repositories',
    'aws iam list-access-keys',
    'az storage account list',
    'aws ssm get-parameter --name /app/region',
    'kubectl get secrets',
    'kubectl get secret db -o yaml',
    'echo $PWD $HOME $PATH',
    'echo "token: ok"',
    'printenv',
    'pass ls',
    'terraform output -raw bucket_name',
    'curl -H "Authorization: Bearer $(gh auth token)" https://api.github.com/user',
    'gh auth status --show-token=false',
    // Files named for secrets that hold more than one (the rules read their names), and look-alikes.
    'cat /etc/passwd',
    'cat secrets.yaml',
    'cat .env',
    'cat src/token.ts',
    'cat tokenizer.txt',
    'cat tokens.txt',
    'head -n 5 token_counts.csv',
    'cat pattern.txt',
    'grep -c x token.txt',
    'echo $env:PATH',
    '$env:PATH',
    'echo %PATH%',
    'Write-Output hello',
    'aws configure get region',
    'lpass ls',
    'docker exec db psql -U app',
    'docker exec -e TOKEN=x db ls',
    'kubectl exec pod -- env',
    'ssh -i token.txt host uptime',
    "bash -c 'npm test'",
  ];
  for (const c of others) assert.equal(secretPrinter(c), undefined, c);
});

test('a secret picked out by its name anywhere in a pipeline makes a printer; searching and listing do not', () => {
  const printers = [
    "kubectl get secret db -o json | jq -r '.data.password' | base64 -d",
    "kubectl get secret db -o yaml | grep password | awk '{print $2}' | base64 --decode",
    'kubectl get secret db -o yaml | grep tls.crt | cut -d: -f2 | base64 -d',
    'jq -r .db.password config/secrets.json',
    "jq -r '.data | .password' secret.json",
    'jq -r \'.data["db-password"]\' secret.json',
    'cat creds.json | jq .access_token',
    "yq '.spring.datasource.password' application.yml",
    'yq e .auth.apiKey config.yaml',
    'grep DB_PASSWORD .env | cut -d= -f2',
    "cat .env | grep SECRET | cut -d '=' -f 2-",
    'printenv | grep -i pass | cut -d= -f2',
    "grep -oP '(?<=API_TOKEN=).*' .env",
    "awk -F= '/DB_PASSWORD/{print $2}' .env",
    "sed -n 's/^GITHUB_TOKEN=//p' .env",
    'node -e "console.log(process.env.DB_PASSWORD)"',
    'node -p \'process.env["STRIPE_SECRET_KEY"]\'',
    'python3 -c \'import os; print(os.environ["API_TOKEN"])\'',
    'python -c "import os; print(os.getenv(\'DB_PASS\'))"',
    'ruby -e \'puts ENV["GITHUB_TOKEN"]\'',
    "python -c \"import keyring; print(keyring.get_password('svc','bob'))\"",
    'sops -d --extract \'["db"]["password"]\' secrets.enc.yaml',
    'gpg -d token.gpg',
    'gpg --decrypt ~/.secrets/api_key.txt.asc',
    'age -d -i key.txt secret.age',
    'terraform output db_password',
    'pulumi config get dbPassword',
    'pulumi config get app:apiToken --stack prod',
    'pulumi stack output dbPassword --show-secrets',
    'kubectl view-secret db password',
    'cat deploy/.htpasswd',
  ];
  for (const c of printers) assert.ok(secretPrinter(c), c);
  const others = [
    'grep -r password src/',
    'grep -rn token src | head -20',
    'grep -rl password src | xargs sed -i s/a/b/',
    'grep -rn password src | cut -d: -f1 | sort -u',
    "grep -rn secret . | awk -F: '{print $1}'",
    'grep -c token log.txt',
    'printenv | grep -i pass',
    "jq '.scripts.test' package.json",
    "jq -r '.token_type, .expires_in' resp.json",
    'jq \'.[] | select(.name == "password")\' list.json',
    "jq -r '.[].key' pairs.json",
    "yq '.spec.template.spec.containers[0].env' deploy.yaml",
    'node -e "console.log(process.env.PATH)"',
    'python3 -c \'import os; print(os.environ["HOME"])\'',
    'sops -d secrets.enc.yaml',
    'gpg -d backup.tar.gpg | tar x',
    'terraform output bucket_name',
    'terraform output',
    'pulumi config get aws:region',
    'pulumi stack output url',
    'kubectl get secret db -o yaml',
    'base64 -d image.b64 > out.png',
  ];
  for (const c of others) assert.equal(secretPrinter(c), undefined, c);
});

test('the redactor marks every line with text once, whatever the pieces; blank lines and line count stay', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', ' ', '\n', 'ö', 'x\r', '\t'), { maxLength: 60 }),
      fc.nat(),
      (parts, seed) => {
        const text = parts.join('');
        const whole = wholeOutputRedactor()(text);
        // The same text cut at arbitrary places.
        const r = wholeOutputRedactor();
        let cut = '';
        for (let i = 0, s = seed; i < text.length;) {
          const n = 1 + (s % 5);
          s = (s * 7 + 3) % 101;
          cut += r(text.slice(i, i + n));
          i += n;
        }
        assert.equal(cut, whole);
        const lines = text.split('\n');
        assert.deepEqual(
          whole.split('\n'),
          lines.map((l) => (l.trim() === '' ? '' : PRINTED_SECRET)),
        );
      },
    ),
  );
});

test('a long hostile command line is classified in linear time', () => {
  const started = performance.now();
  const units = ['aws ssm get-parameter ', 'kubectl get secret ', 'echo $A', 'sudo ', 'A=b ', 'vault read ', ' ;'];
  for (const unit of [...units, 'docker exec ', 'ssh a ', 'bash -c ', 'kubectl exec '])
    secretPrinter(unit.repeat((16 * 1024) / unit.length));
  assertQuick(started);
});

test('a terminal log keeps no line of what gh auth token printed, and says why; other commands are untouched', async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const w = await TerminalLogWriter.open(store, { terminalName: 'bash', terminalId: 'p1' });
  const token = 'gho_' + 'Z9'.repeat(18);
  const a = await w.begin({ command: 'gh auth token' });
  for (const piece of [token.slice(0, 7), token.slice(7), '\r\n', 'second line\r\n']) await a.push(piece);
  await a.end({ exitCode: 0 });
  const password = 'q7-Hunter-2-plain';
  const b = await w.begin({ command: "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d" });
  await b.push(password);
  await b.end({ exitCode: 0 });
  const c = await w.begin({ command: 'echo hello' });
  await c.push('hello\r\n');
  await c.end({ exitCode: 0 });
  await w.close();
  const text = await fsp.readFile(w.path, 'utf8');
  assert.ok(!text.includes(token.slice(4, 20)) && !text.includes(password), text);
  assert.match(text, /note: the output is not kept: gh auth token prints a secret/);
  assert.match(
    text,
    new RegExp(
      `\\$ gh auth token\\n[^\\n]*note:[^\\n]*\\n\\[REDACTED:printed-secret\\]\\n\\[REDACTED:printed-secret\\]\\n`,
    ),
  );
  assert.match(text, /kubectl printing a Secret through a template prints a secret/);
  assert.match(text, /\$ echo hello\nhello\n/);
});

test("the agent's run_command output of such a command is stored and shown redacted whole", async (t) => {
  const ws = await tempDir(t);
  const store = await ContextStore.open({ root: path.join(ws, '.context-desk'), workspaceRoot: ws });
  const outputs = new ToolOutputStore(store, createTokenizer('o200k'), { thresholdChars: 40 });
  async function* chunks(): AsyncIterable<string> {
    yield 'AKIA-looking-no: ';
    yield 'plain-password-42\n';
    yield 'x'.repeat(100) + '\n';
  }
  const stored = await outputs.storeStream(chunks(), {
    session: 's',
    turn: 1,
    tool: 'run_command',
    secretOutput: true,
  });
  assert.ok(!stored.text.includes('plain-password-42'));
  const file = await fsp.readFile(path.join(ws, stored.storedAt!), 'utf8');
  assert.equal(file, `${PRINTED_SECRET}\n${PRINTED_SECRET}\n`);
  const plain = await outputs.store('plain-password-42', { session: 's', turn: 2, tool: 'run_command' });
  assert.equal(plain.text, 'plain-password-42', 'without the hint a bare value stays: it has no shape to find');
});
