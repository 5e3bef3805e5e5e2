// Reads a V8 .cpuprofile (node --cpu-prof, see BENCH_PROFILE) and prints where the time went: the
// top functions by self time, and self time by package (node_modules/<name>, the repository's own
// files, Node internals). Usage: node scripts/node.mjs bench/profile-summary.ts <file> [top]
import { readFileSync } from 'node:fs';
import { must } from '@ces/testing';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

const file = process.argv[2];
const top = Number(process.argv[3] ?? '25');
if (!file) {
  process.stderr.write('usage: profile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const totalMs = (profile.endTime - profile.startTime) / 1000;
const totalHits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
const msPerHit = totalHits > 0 ? totalMs / totalHits : 0;

function packageOf(url: string): string {
  if (url === '') return '(native / VM)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return must(modules[1]);
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(apps\/[^/]+|packages\/[^/]+|bench)\//.exec(url);
  return own ? must(own[1]) : url;
}

function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^.*\/(node_modules|apps|packages|bench)\//, '$1/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) {
  for (const child of node.children ?? []) parentOf.set(child, node);
}

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
// Inclusive time: a sample counts once for every distinct function on its stack.
const inclusive = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const key = keyOf(node);
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  if (key.startsWith('(idle)')) continue;
  const pkg = packageOf(node.callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  const seen = new Set<string>();
  for (let at: ProfileNode | undefined = node; at; at = parentOf.get(at.id)) {
    const atKey = keyOf(at);
    if (seen.has(atKey)) continue;
    seen.add(atKey);
    inclusive.set(atKey, (inclusive.get(atKey) ?? 0) + hits);
  }
}

const idle = [...byFunction].filter(([key]) => key.startsWith('(idle)')).reduce((sum, [, hits]) => sum + hits, 0);
const busyHits = totalHits - idle;
const line = (hits: number, label: string) =>
  `${(hits * msPerHit).toFixed(0).padStart(7)} ms ${((hits / Math.max(1, busyHits)) * 100).toFixed(1).padStart(5)}%  ${label}`;

process.stdout.write(`${file}\n${totalMs.toFixed(0)} ms profiled, ${(busyHits * msPerHit).toFixed(0)} ms busy (percentages of busy time)\n\n`);
process.stdout.write('self time by package\n');
for (const [pkg, hits] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`${line(hits, pkg)}\n`);
process.stdout.write(`\ntop ${top} functions by self time\n`);
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${line(hits, key)}\n`);
process.stdout.write(`\ntop ${top} functions by inclusive time (the repository's own code and its libraries)\n`);
const interesting = [...inclusive].filter(([key]) => / (node_modules|apps|packages|bench)\//.test(key));
for (const [key, hits] of interesting.sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${line(hits, key)}\n`);
