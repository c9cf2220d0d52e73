// The Node versions payctl is checked on: the machine's own node, and Node 22 and 24
// from the npm registry's `node` package, installed once into a cache folder
// ($PAYCTL_NODE_CACHE, default ~/.cache/payctl-node/<major>). Used by .ci/run and the
// benchmarks, which run on every version found there.
//   node bench/node-versions.mjs install 22 24   installs those missing, prints each one's node
//   node bench/node-versions.mjs list            prints "<major> <path to node>" for each found
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXTRA_MAJORS = ['22', '24'];
const cacheRoot = process.env.PAYCTL_NODE_CACHE || path.join(homedir(), '.cache', 'payctl-node');
const nodeOf = (major) => path.join(cacheRoot, major, 'node_modules', 'node', 'bin', 'node');
const majorOf = (version) => version.replace(/^v/, '').split('.')[0];

/** This node first, then each of 22 and 24 installed in the cache folder (a major this node already is counts once). */
export function nodeVersions() {
  const found = [{ major: majorOf(process.version), version: process.version, node: process.execPath }];
  for (const major of EXTRA_MAJORS) {
    if (found.some((entry) => entry.major === major) || !existsSync(nodeOf(major))) continue;
    found.push({ major, version: spawnSync(nodeOf(major), ['--version'], { encoding: 'utf8' }).stdout.trim(), node: nodeOf(major) });
  }
  return found;
}

/** Installs the latest release of a major into the cache folder, unless one is there already. */
function install(major) {
  if (existsSync(nodeOf(major))) return nodeOf(major);
  const result = spawnSync('npm', ['install', '--prefix', path.join(cacheRoot, major), '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${major}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0 || !existsSync(nodeOf(major))) throw new Error(`installing node@${major} into ${cacheRoot} failed`);
  return nodeOf(major);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...majors] = process.argv.slice(2);
  if (command === 'install') for (const major of majors) console.log(`${major} ${install(major)}`);
  else if (command === 'list') for (const { major, node } of nodeVersions()) console.log(`${major} ${node}`);
  else {
    console.error('usage: node bench/node-versions.mjs install MAJOR... | list');
    process.exit(2);
  }
}
