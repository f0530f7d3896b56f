// One store writer: no file under src/ but the store writer (src/core/store/store-writer.ts and its parts,
// used by it alone) and the listed writers that never write under a store may call a node:fs (or
// vscode.workspace.fs) API that creates, writes, appends, renames or deletes. A new write path that
// bypasses the writer fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { findFiles } from '../../../scripts/lib/files';

const WRITER = 'src/core/store/store-writer.ts';
/** The writer's parts that call fs write APIs, each one idea; only the writer (and its parts) import them. */
const WRITER_PARTS: Record<string, string> = {
  'src/core/store/writer-folders.ts': 'the folder walk and link checks; opens files through a pinned folder',
  'src/core/store/writer-files.ts': 'atomic replacement, exclusive creation and renames of whole files',
  'src/core/store/writer-deletes.ts': 'deletions of files, empty folders and folder trees',
};
/** Files that write, but never under a store root, and why. Adding one here is a reviewed decision. */
const NOT_STORE_WRITERS: Record<string, string> = {
  'src/cli/output-path.ts': 'writes the --plot SVG file the user names (no link on the way; renamed into place)',
  'src/cli/replay/dump.ts': 'writes the --dump-contexts folder the user names (O_NOFOLLOW, redacted)',
  'src/core/agent/tools/pinned-file.ts':
    "edit_file's write to a workspace file the path guard checked (which refuses the store), through a handle checked to be that file",
};

const FS_MODULES = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises']);
const WRITE_APIS = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'rename',
  'renameSync',
  'unlink',
  'unlinkSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'truncate',
  'truncateSync',
  'write',
  'writeSync',
  'writev',
  'ftruncate',
]);
const OPEN_APIS = new Set(['open', 'openSync']);
/** open() flags that never create, truncate or write: a flags expression of only these reads. */
const READ_ONLY_FLAGS = new Set(['O_RDONLY', 'O_NONBLOCK', 'O_NOFOLLOW', 'O_NOATIME', 'O_CLOEXEC', 'O_NOCTTY']);
/** vscode.workspace.fs methods that change files. */
const VSCODE_FS_WRITES = new Set(['writeFile', 'createDirectory', 'delete', 'rename', 'copy']);

/** Calls of fs write APIs in one source file, as `line: text`. */
export function writeCalls(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const namespaces = new Set<string>(); // `import * as fs`, `import { promises as fsp }`, `import fs from`
  const direct = new Map<string, string>(); // local name -> fs export name
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!FS_MODULES.has(st.moduleSpecifier.text)) continue;
    const clause = st.importClause;
    if (!clause) continue;
    if (clause.name) namespaces.add(clause.name.text);
    const b = clause.namedBindings;
    if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
    if (b && ts.isNamedImports(b))
      for (const el of b.elements) {
        const imported = (el.propertyName ?? el.name).text;
        if (imported === 'promises') namespaces.add(el.name.text);
        else direct.set(el.name.text, imported);
      }
  }
  const found: string[] = [];
  const report = (node: ts.Node): void => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${file}:${line + 1}: ${node.getText().slice(0, 120)}`);
  };
  const isWriteOpen = (call: ts.CallExpression): boolean => {
    const flags = call.arguments[1];
    // open(path), open(path, 'r') and open(path, O_RDONLY | O_NONBLOCK ...) read; anything else may write.
    if (flags === undefined || (ts.isStringLiteral(flags) && flags.text === 'r')) return false;
    return !readsOnly(flags);
  };
  // A flags expression of read-only flags joined by `|`, each maybe in parentheses and maybe `?? 0` (a
  // flag some platforms lack, such as O_NONBLOCK on Windows).
  const readsOnly = (flags: ts.Expression): boolean => {
    if (ts.isParenthesizedExpression(flags)) return readsOnly(flags.expression);
    if (ts.isBinaryExpression(flags)) {
      const op = flags.operatorToken.kind;
      if (op === ts.SyntaxKind.BarToken) return readsOnly(flags.left) && readsOnly(flags.right);
      if (op === ts.SyntaxKind.QuestionQuestionToken)
        return readsOnly(flags.left) && ts.isNumericLiteral(flags.right) && flags.right.text === '0';
      return false;
    }
    const name = ts.isPropertyAccessExpression(flags) ? flags.name.text : ts.isIdentifier(flags) ? flags.text : '';
    return READ_ONLY_FLAGS.has(name);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      let name: string | undefined;
      if (ts.isIdentifier(callee) && direct.has(callee.text)) name = direct.get(callee.text);
      if (ts.isPropertyAccessExpression(callee)) {
        const target = callee.expression.getText();
        const method = callee.name.text;
        const base = target.replace(/\.promises$/, '');
        if (namespaces.has(target) || namespaces.has(base)) name = method;
        if (/(^|\.)workspace\.fs$/.test(target) && VSCODE_FS_WRITES.has(method)) report(node);
      }
      if (name && (WRITE_APIS.has(name) || (OPEN_APIS.has(name) && isWriteOpen(node)))) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

test('only the store writer (and the listed non-store writers) call fs write APIs under src/', () => {
  const offenders = findFiles('src', '.ts')
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f !== WRITER && !(f in WRITER_PARTS) && !(f in NOT_STORE_WRITERS))
    .flatMap((f) => writeCalls(f, readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, [], 'write through src/core/store/store-writer.ts (StoreWriter) instead');
});

/** The relative module names a source file imports (static imports and re-exports). */
function importsOf(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((st) =>
    (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
    st.moduleSpecifier &&
    ts.isStringLiteral(st.moduleSpecifier)
      ? [st.moduleSpecifier.text]
      : [],
  );
}

test("the writer's parts are used by the writer alone, and each of them does write", () => {
  const parts = new Set(Object.keys(WRITER_PARTS));
  const users = findFiles('src', '.ts')
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f !== WRITER && !parts.has(f))
    .flatMap((f) =>
      importsOf(f, readFileSync(f, 'utf8'))
        .filter((m) => m.startsWith('.'))
        .map((m) => path.posix.join(path.posix.dirname(f), m) + '.ts')
        .filter((m) => parts.has(m))
        .map((m) => `${f} imports ${m}`),
    );
  assert.deepEqual(users, [], 'call StoreWriter (src/core/store/store-writer.ts) instead');
  // Listed because they write: a part that no longer does leaves the list.
  for (const part of parts) assert.ok(writeCalls(part, readFileSync(part, 'utf8')).length > 0, part);
});

test('the scan finds every form of write call (so the rule above cannot pass by missing them)', () => {
  const probe = `
    import { promises as fsp, createWriteStream } from 'node:fs';
    import * as fs from 'fs';
    import { rename as mv, open, readFile } from 'node:fs/promises';
    import * as vscode from 'vscode';
    await fsp.writeFile('a', 'b');
    fs.promises.unlink('a');
    fs.mkdirSync('d');
    createWriteStream('x');
    await mv('a', 'b');
    await open('f', 'a');
    await open('f', 'r');
    await open('f', constants.O_RDONLY | constants.O_NONBLOCK);
    await open('f', constants.O_RDONLY | constants.O_CREAT);
    await open('f', constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    await open('f', constants.O_RDONLY | (constants.O_CREAT ?? 0));
    await open('f', flags);
    await readFile('f');
    await vscode.workspace.fs.createDirectory(uri);
  `;
  const found = writeCalls('probe.ts', probe).map((l) => l.replace(/^probe\.ts:\d+: /, ''));
  assert.deepEqual(found, [
    "fsp.writeFile('a', 'b')",
    "fs.promises.unlink('a')",
    "fs.mkdirSync('d')",
    "createWriteStream('x')",
    "mv('a', 'b')",
    "open('f', 'a')",
    "open('f', constants.O_RDONLY | constants.O_CREAT)",
    "open('f', constants.O_RDONLY | (constants.O_CREAT ?? 0))",
    "open('f', flags)",
    'vscode.workspace.fs.createDirectory(uri)',
  ]);
  // The writer itself does write: the scan sees it (it is exempt, not invisible).
  const writer = [WRITER, ...Object.keys(WRITER_PARTS)].flatMap((f) => writeCalls(f, readFileSync(f, 'utf8')));
  assert.ok(writer.length > 5);
});
