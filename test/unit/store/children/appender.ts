// Child process for the durability tests: appends JSON records to a file through the store writer
// (the file's folder is the store root). argv: file writerId count payloadBytes (count 0 = forever, until killed)
import * as path from 'node:path';
import { StoreWriter } from '../../../../src/core/store/store-writer';

async function main(): Promise<void> {
  const [file, writerId, countArg, sizeArg] = process.argv.slice(2);
  const count = Number(countArg);
  const payload = 'x'.repeat(Number(sizeArg));
  const writer = await StoreWriter.open(path.dirname(file!));
  const f = await writer.openAppend(file!);
  process.stdout.write('ready\n');
  for (let i = 0; count === 0 || i < count; i++)
    await f.append(JSON.stringify({ writer: writerId, i, payload }) + '\n');
  await f.close();
}
void main();
