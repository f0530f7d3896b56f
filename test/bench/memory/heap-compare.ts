// Compares two V8 heap snapshots (e.g. the memory benchmark's baseline.heapsnapshot and
// extension.heapsnapshot) by what the objects are: self size summed per kind and name, largest
// differences first, then the largest single objects of the second. For finding what stays at rest.
// Usage: npx tsx test/bench/memory/heap-compare.ts base.heapsnapshot other.heapsnapshot [rows]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  size: number;
  count: number;
}

function load(file: string): { groups: Map<string, Group>; biggest: [string, number][] } {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const groups = new Map<string, Group>();
  const biggest: [string, number][] = [];
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + iType]!]!;
    const raw = s.strings[s.nodes[i + iName]!] ?? '';
    const size = s.nodes[i + iSize]!;
    // Strings are grouped together (their text is their name); other kinds by their constructor or name.
    const name = /string/.test(type) ? '' : raw.slice(0, 80);
    const key = `${type} ${name}`;
    const g = groups.get(key) ?? { size: 0, count: 0 };
    g.size += size;
    g.count++;
    groups.set(key, g);
    if (size >= 64 * 1024) biggest.push([`${type} ${JSON.stringify(raw.slice(0, 100))}`, size]);
  }
  biggest.sort((a, b) => b[1] - a[1]);
  return { groups, biggest };
}

const [baseFile, otherFile, rowsArg] = process.argv.slice(2);
if (!baseFile || !otherFile) throw new Error('usage: heap-compare.ts base.heapsnapshot other.heapsnapshot [rows]');
const rows = Number(rowsArg ?? 40);
const base = load(baseFile);
const other = load(otherFile);
const kb = (n: number): string => (n / 1024).toFixed(0).padStart(8);
const total = (m: Map<string, Group>): number => [...m.values()].reduce((a, g) => a + g.size, 0);
console.log(`total: ${kb(total(base.groups))} KB -> ${kb(total(other.groups))} KB`);
const keys = new Set([...base.groups.keys(), ...other.groups.keys()]);
const diffs = [...keys].map((k) => {
  const a = base.groups.get(k) ?? { size: 0, count: 0 };
  const b = other.groups.get(k) ?? { size: 0, count: 0 };
  return { k, d: b.size - a.size, n: b.count - a.count };
});
diffs.sort((x, y) => y.d - x.d);
console.log('largest additions (KB, objects):');
for (const x of diffs.slice(0, rows)) console.log(`${kb(x.d)} ${String(x.n).padStart(8)}  ${x.k}`);
console.log('largest single objects in the second:');
for (const [k, size] of other.biggest.slice(0, rows)) console.log(`${kb(size)}  ${k}`);
