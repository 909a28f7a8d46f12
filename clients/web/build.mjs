// Builds the /play client into shared/api/assets/play/ (index.html, play.js, play.css), which
// the beurs binary embeds. `node build.mjs --check` builds into memory and fails if the
// committed files differ: CI's proof that what is committed is what the source builds.
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "../../shared/api/assets/play");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [join(here, "src/main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  platform: "browser",
  legalComments: "none",
  charset: "utf8",
  sourcemap: false,
  write: false,
  logLevel: "warning",
});
const files = {
  "play.js": result.outputFiles[0].text,
  "play.css": readFileSync(join(here, "src/play.css"), "utf8"),
  "index.html": readFileSync(join(here, "src/index.html"), "utf8"),
};
let stale = [];
for (const [name, text] of Object.entries(files)) {
  const path = join(out, name);
  if (check) {
    let committed = null;
    try {
      committed = readFileSync(path, "utf8");
    } catch {}
    if (committed !== text) stale.push(name);
  } else {
    mkdirSync(out, { recursive: true });
    writeFileSync(path, text);
  }
}
if (stale.length > 0) {
  console.error(`shared/api/assets/play/ is not what clients/web builds (${stale.join(", ")}): run npm run build in clients/web and commit`);
  process.exit(1);
}
console.log(`${check ? "checked" : "built"} play.js (${(files["play.js"].length / 1024).toFixed(1)} KiB), play.css, index.html`);
