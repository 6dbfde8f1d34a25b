// ui/vendor/uplot holds exactly the files of the uPlot that package-lock.json
// pins: `npm ci` has checked the tarball against the lock's integrity, so
// byte-equal files here are that release (the daemon's build embeds them
// without needing Node).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const vendored = new URL('../../ui/vendor/uplot/', import.meta.url);
const installed = new URL('./node_modules/uplot/', import.meta.url);

test('the lock pins uplot by version and integrity, as package.json asks', () => {
  const lock = JSON.parse(readFileSync(new URL('./package-lock.json', import.meta.url)));
  const wanted = JSON.parse(readFileSync(new URL('./package.json', import.meta.url))).devDependencies.uplot;
  const entry = lock.packages['node_modules/uplot'];
  assert.equal(entry.version, wanted);
  assert.match(entry.integrity, /^sha512-/);
  assert.equal(JSON.parse(readFileSync(new URL('package.json', installed))).version, wanted);
});

for (const [mine, theirs] of [
  ['uPlot.esm.js', 'dist/uPlot.esm.js'],
  ['uPlot.min.css', 'dist/uPlot.min.css'],
  ['LICENSE', 'LICENSE'],
]) {
  test(`ui/vendor/uplot/${mine} is the pinned package's ${theirs}`, () => {
    assert.ok(readFileSync(new URL(mine, vendored)).equals(readFileSync(new URL(theirs, installed))),
      `ui/vendor/uplot/${mine} differs from uplot's ${theirs}: copy it again from tests/ui/node_modules/uplot`);
  });
}
