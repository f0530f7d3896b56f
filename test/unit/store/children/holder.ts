// Child process for the rotation tests: opens a store file for appending (registering it as in use),
// prints `ready`, and keeps it open until killed. argv: storeRoot file
import { ContextStore } from '../../../../src/core/store/context-store';

async function main(): Promise<void> {
  const [root, file] = process.argv.slice(2);
  const store = await ContextStore.open({ root: root! });
  await store.writer.openAppend(file!);
  process.stdout.write('ready\n');
  setInterval(() => undefined, 1000);
}
void main();
