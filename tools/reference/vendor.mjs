// Copies the Redoc standalone bundle (and its licenses) from the locked npm package into
// shared/api/assets/, where `include_bytes!` embeds it in every binary that serves /docs.
//
//   node vendor.mjs           copy (after `npm ci`, or after bumping redoc in package.json)
//   node vendor.mjs --check   fail unless the committed files are byte-identical to the
//                             locked package's files (run by .ci/reference)
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const assets = join(here, '..', '..', 'shared', 'api', 'assets');
const pkg = join(here, 'node_modules', 'redoc');
const files = [
  ['bundles/redoc.standalone.js', 'redoc.standalone.js'],
  ['bundles/redoc.standalone.js.LICENSE.txt', 'redoc.standalone.js.LICENSE.txt'],
  ['LICENSE', 'redoc.LICENSE'],
];

const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'));
const locked = lock.packages['node_modules/redoc'].version;
const installed = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
if (installed !== locked) {
  console.error(`node_modules has redoc ${installed} but the lock says ${locked}: run npm ci`);
  process.exit(1);
}

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const check = process.argv.includes('--check');
let stale = 0;
for (const [from, to] of files) {
  const source = join(pkg, from);
  const target = join(assets, to);
  if (check) {
    const same = existsSync(target) && readFileSync(target).equals(readFileSync(source));
    console.log(`${same ? 'ok   ' : 'STALE'} shared/api/assets/${to} (redoc ${locked} ${from}, sha256 ${sha256(source).slice(0, 16)})`);
    if (!same) stale += 1;
  } else {
    copyFileSync(source, target);
    console.log(`copied redoc ${locked} ${from} -> shared/api/assets/${to}`);
  }
}
if (stale > 0) {
  console.error('the vendored Redoc differs from the locked package: run `npm ci && node vendor.mjs` in tools/reference and commit');
  process.exit(1);
}
