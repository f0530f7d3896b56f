// What an approval reads from a command line (its commands, folder changes, store writes, loaded code,
// look-alike words) comes from the model: a hostile line must not hold the extension host. Each reading
// is linear in the line's length and never overflows the stack (a 400 KB line of `cd` and writes took
// 198 s when each write was resolved from every folder; a long `bash -c` code threw a RangeError).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storeWriteWarning } from '../../../src/core/agent/tools/store-writes';
import { folderChanges } from '../../../src/core/agent/tools/folder-changes';
import { lookAlikeWarning } from '../../../src/core/agent/tools/look-alike';
import { loadedCodeWarning } from '../../../src/core/agent/tools/loaded-code';
import { makeCommands, readRules, recipesRun } from '../../../src/core/agent/tools/make-recipes';
import { settingsThatRun } from '../../../src/core/agent/tools/git-repository';
import { repositoryBins } from '../../../src/core/agent/tools/repository-bins';
import { buildSystem, pythonBuilds } from '../../../src/core/agent/tools/python-build';
import { composeCommands, composeSettings } from '../../../src/core/agent/tools/compose-files';
import { hookCommands, hooksPathOf, lineHooks } from '../../../src/core/agent/tools/git-hooks';
import { generateLines, toolchainCommands } from '../../../src/core/agent/tools/repository-code';
import { assertLinearGrowth } from '../../support/linear-growth';

/** The smaller size; each shape is also read at 4 times it (400 KB). */
const N = 100_000;
const LINES: Record<string, (n: number) => string> = {
  'cd and writes': (n) => 'echo a; cd b && ls > x | cat\n'.repeat(n / 28),
  'distinct folders': (n) => Array.from({ length: n / 16 }, (_, i) => `cd d${i}; echo > f${i}`).join(';'),
  'bash -c code': (n) => `bash -c "${'bash -c \\"'.repeat(4)}${'x;'.repeat(n / 2)}"`,
  'find -exec': (n) => `find . ${'-exec cp x .context-desk/y '.repeat(n / 30)}`,
  'here-documents': (n) => 'python3 - <<EOF;'.repeat(n / 16),
  aliases: (n) => `alias ${'a=b '.repeat(n / 4)}`,
  'prompt code': (n) => `PS1="${'$(x)'.repeat(n / 4)}"`,
  'nested substitutions': (n) => '$('.repeat(n / 2),
  'git options': (n) => `git ${'-c core.pager=x '.repeat(n / 17)}status`,
  'prefix options': (n) => `${'sudo -u r xargs -I {} env -S x '.repeat(n / 32)}rm .context-desk/h`,
  'here-strings': (n) => "bash <<< 'cd x; rm .context-desk/h';".repeat(n / 36),
  'env -S words': (n) => `env -S x ${'-S y '.repeat(n / 5)}`,
  'git -C folders': (n) => `git ${'-C a '.repeat(n / 5)}init; env ${'-C b '.repeat(n / 5)}rm x`,
  'shells fed input': (n) => `echo .context-desk | sh ${'-s '.repeat(n / 6)};`,
  'xargs writers': (n) => 'echo .context-desk | xargs rm;'.repeat(n / 32),
  exports: (n) => `export ${'LD_PRELOAD '.repeat(n / 11)}`,
  'git clean folders': (n) => `git ${'-C a '.repeat(n / 5)}clean -fdx`,
  'contents copies': (n) => `cp -a ${'x/. '.repeat(n / 4)}.`,
  'listers feeding xargs': (n) => `find . ${'| xargs rm -i '.repeat(n / 14)}`,
  'make options': (n) => `make ${'-C a -f b -Ec '.repeat(n / 16)}x`,
  'sed scripts': (n) => `sed -e '${'1,/a/ s/a/b/g;'.repeat(n / 14)}' ${'-e //// '.repeat(n / 16)}x`,
  'archives and modes': (n) => `${'tar -x -C . -C a; chmod -R 0 . a; '.repeat(n / 36)}`,
  'runner options': (n) => `ssh ${"-o '     ' ".repeat(n / 12)}host; tar ${'-o -x '.repeat(n / 6)}`,
  'deleted globs': (n) => `rm -rf ${'*a*a*a*a*b?[x] '.repeat(n / 15)}`,
  'package runners': (n) => `${'npx -y a; yarn b; pnpm exec c; '.repeat(n / 32)}npm x ${'-- '.repeat(n / 3)}`,
  'compose files': (n) =>
    `docker compose ${'-f a --file=b -p x '.repeat(n / 19)}up; ${'docker-compose up;'.repeat(n / 18)}${'export COMPOSE_FILE=a; '.repeat(n / 23)}`,
  'git hook commands': (n) =>
    `git ${'-C a -c x '.repeat(n / 10)}commit ${'-m x '.repeat(n / 5)}; ${'git push;'.repeat(n / 9)}`,
  'hooks a line installs': (n) =>
    `${'git config core.hooksPath h; GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=x cp a h/ '.repeat(n / 92)}git -c core.hooksPath=x commit; ${'export GIT_DIR=x; git --git-dir=y '.repeat(n / 36)}commit`,
  'toolchain commands': (n) =>
    `${'go generate ./...; cargo +x t; ./gradlew a; '.repeat(n / 46)}mvn ${'-q '.repeat(n / 3)}`,
  'pip installs': (n) => `pip install ${'-r x ./a/b '.repeat(n / 11)}; pip install ${'/'.repeat(n / 2)}:`,
};

for (const [name, line] of Object.entries(LINES))
  test(`an approval reads a line of ${name} in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(line, N, (text) => {
      storeWriteWarning(text, '/w', '/w/.context-desk');
      folderChanges(text);
      lookAlikeWarning(text);
      loadedCodeWarning(text);
      makeCommands(text);
      repositoryBins(text);
      pythonBuilds(text);
      composeCommands(text);
      hookCommands(text);
      lineHooks(text);
      toolchainCommands(text);
    });
  });

/** Makefiles a hostile repository can ship, read for what `make` runs. */
const MAKEFILES: Record<string, (n: number) => string> = {
  'continued lines': (n) => `x:\n\t${'a \\\n'.repeat(n / 4)}b\n`,
  'a chain of targets': (n) => Array.from({ length: n / 16 }, (_, i) => `t${i}: t${i + 1}\n\tx\n`).join(''),
  'many recipe lines': (n) => `x:\n${'\techo a\n'.repeat(n / 8)}`,
  'many prerequisites': (n) => `x: ${'y '.repeat(n / 2)}\n`,
  'many targets of many prerequisites': (n) => {
    const words = Array.from({ length: n / 16 }, (_, i) => `w${i}`).join(' ');
    return `${words}: ${words}\n\techo x\n`;
  },
  'includes and shell lines': (n) => `${'include a b\nX := $(shell y)\n'.repeat(n / 30)}`,
  'spaces and colons': (n) => `${' '.repeat(n / 2)}${':'.repeat(n / 2)}`,
};
for (const [name, text] of Object.entries(MAKEFILES))
  test(`a Makefile of ${name} is read in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(text, N, (t) => recipesRun(readRules(t), ['t0', 'x', 'w0']));
  });

/** git configs a shipped repository can hold, read for settings that run programs. */
const CONFIGS: Record<string, (n: number) => string> = {
  'an unclosed header of spaces': (n) => `[a${' '.repeat(n)}`,
  'a long key': (n) => `[diff]\n${'x.'.repeat(n / 2)} = 1\n`,
  'many sections': (n) => '[a "b"]\nk = 1\n'.repeat(n / 14),
  'many hooks paths': (n) => '[core]\nhooksPath = "x"\n'.repeat(n / 25),
  'many includes': (n) => '[includeIf "gitdir:~/x/"]\npath = ~/.x\n'.repeat(n / 36),
};
for (const [name, text] of Object.entries(CONFIGS))
  test(`a git config of ${name} is read in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(text, N, settingsThatRun);
    assertLinearGrowth(text, N, hooksPathOf);
  });

/** pyproject.toml files a hostile repository can ship, read for the build backend they name. */
const PYPROJECTS: Record<string, (n: number) => string> = {
  'a long backend list': (n) => `[build-system]\nbackend-path = [${' '.repeat(n)}x`,
  'many tables': (n) => '[build-system]\nbuild-backend = "x"\n'.repeat(n / 34),
  'a line of spaces': (n) => `[build-system]\nbuild-backend =${' '.repeat(n)}]`,
};
for (const [name, text] of Object.entries(PYPROJECTS))
  test(`a pyproject.toml of ${name} is read in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(text, N, buildSystem);
  });

/** Compose files a hostile repository can ship, read for host mounts and privileged containers. */
const COMPOSE: Record<string, (n: number) => string> = {
  'many volumes': (n) => '      - /x:/y\n'.repeat(n / 14),
  'a volume of spaces': (n) => `- "${' '.repeat(n)}`,
  'a source of quotes': (n) => `source: ${'"'.repeat(n)}x`,
  'many settings': (n) => 'privileged: true\npid: host\n'.repeat(n / 27),
  // Read as YAML: anchors, aliases and merge keys resolved, keys not checked for repeats.
  'many services': (n) =>
    `services:\n${Array.from({ length: n / 40 }, (_, i) => `  s${i}: {volumes: [/x:/y]}\n`).join('')}`,
  'many aliases': (n) => `x: &a {privileged: true}\nservices:\n  s:\n${'    <<: *a\n'.repeat(n / 11)}`,
  'many merges of one anchor': (n) => `x: &a [1]\ny: [${'*a,'.repeat(n / 3)}]\n`,
  'deep flow nesting': (n) => `${'['.repeat(n / 2)}${']'.repeat(n / 2)}`,
  'deep block nesting': (n) => Array.from({ length: n / 400 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
  'many documents': (n) => 'services: {s: {privileged: true}}\n---\n'.repeat(n / 38),
  'many includes and extends': (n) =>
    `include: [${'a.yml,'.repeat(n / 12)}]\nservices:\n${'  s: {extends: {file: b, service: s}}\n'.repeat(n / 40)}`,
  'a long plain scalar': (n) => `services:\n  s:\n    volumes:\n      - ${'/a'.repeat(n / 2)}:/b\n`,
};
for (const [name, text] of Object.entries(COMPOSE))
  test(`a compose file of ${name} is read in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(text, N, composeSettings);
  });

/** Go files a hostile repository can ship, read for the commands `go generate` runs. */
const GO_FILES: Record<string, (n: number) => string> = {
  'many generate lines': (n) => '//go:generate sh -c x\n'.repeat(n / 22),
  'one long line': (n) => `//go:generate ${'x'.repeat(n)}`,
  'many newlines': (n) => '\n'.repeat(n),
};
for (const [name, text] of Object.entries(GO_FILES))
  test(`a Go file of ${name} is read in time linear in its length (100 KB and 400 KB)`, () => {
    assertLinearGrowth(text, N, generateLines);
  });

test('a find with many -exec names each write into the store once it reads them', () => {
  assert.match(
    storeWriteWarning(LINES['find -exec']!(4 * N), '/w', '/w/.context-desk') ?? '',
    /writes into the Context Desk/,
  );
});
