// Child process for the durability tests: appends JSON records to a file through AppendOnlyFile.
// argv: file writerId count payloadBytes (count 0 = forever, until killed)
import { AppendOnlyFile } from '../../../../src/core/store/durable';

async function main(): Promise<void> {
  const [file, writer, countArg, sizeArg] = process.argv.slice(2);
  const count = Number(countArg);
  const payload = 'x'.repeat(Number(sizeArg));
  const f = await AppendOnlyFile.open(file!);
  process.stdout.write('ready\n');
  for (let i = 0; count === 0 || i < count; i++) await f.append(JSON.stringify({ writer, i, payload }) + '\n');
  await f.close();
}
void main();
