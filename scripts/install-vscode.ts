// Installs the test VS Code (code-server) offline into its cache folder; a no-op when it is already there.
import { installCodeServer } from './lib/code-server';

console.log(`Test VS Code ready: ${installCodeServer()}`);
