// src/core/tsconfig.json resolves the module name 'vscode' to this file, so an import of vscode from the
// core fails to compile with the message below. The core takes VS Code collaborators as parameters.
const error: never = 'src/core must not import vscode: take VS Code collaborators as parameters';
export default error;
