// The /play client in real Chromium: for each ruleset, one browser context per seat creates,
// joins and plays a whole game through the page only (clicking move buttons, submitting move
// forms), checks that every context follows the game live, that no seat's page shows another
// seat's hidden information, and that the finished game's seed verifies in the browser.
//
//   node tests/play.mjs --base http://127.0.0.1:8080 [--ruleset tulpenfieber] [--shots dir] [--seed 7]
//
// Debian's Chromium (/usr/bin/chromium) through playwright-core: nothing is downloaded.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const base = option("base", "http://127.0.0.1:8080").replace(/\/$/, "");
const only = option("ruleset", undefined);
const shots = option("shots", undefined);
const seed = Number(option("seed", "1637"));
const MAX_MOVES = 3000;
const FOLLOW_MS = 15000;

/** Seats per ruleset: the fewest a table of two or more browsers plays by default. */
const SEATS = { "tulipmania-1637": 3, "tulip-bubble": 3, "tulip-traders": 3, tulpenfieber: 2, "black-thursday": 3 };

/**
 * Options set in the lobby's options form, per ruleset: rules options that shorten a game, so
 * that the suite fits CI's budget. Tulpenfieber's default field needs up to five matching dice
 * per space and a random table of two took about 2 minutes; every side space needing one die
 * of its face (`side_need`, a JSON field of the form) ends it in a fraction of that. The test
 * checks that the created game carries them. Black Thursday's standard tower (2 tiles wide, 12
 * high) took about 200 moves and 140 s at a table of three; a custom building of 2 × 2 tiles
 * (`layout`, a JSON field of the form) keeps two columns, companies to reveal and trading, and
 * ends in about a third of the moves.
 */
const OPTIONS = {
  tulpenfieber: { side_need: [1, 1, 1, 1, 1] },
  "black-thursday": { layout: { custom: [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 0, y: 2 }, { x: 2, y: 2 }] } },
};

/** Moves that make progress, which a person prefers to idling (rerolling, ending a turn). */
const PROGRESS = { tulpenfieber: /placed a tulip at row (\d)|claimed a wheelbarrow/ };

let state = seed >>> 0 || 1;
function random() {
  // xorshift32: reproducible choices for a given --seed.
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 2 ** 32;
}
const pick = (items) => items[Math.floor(random() * items.length)];

function fail(message) {
  throw new Error(message);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

/** A context with its page, failing the run on any page error or unexpected console error. */
async function seatPage(label, problems) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`${label}: page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // A refused move is an answer, not a fault: the browser still logs its 4xx status.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
    problems.push(`${label}: console error: ${message.text()}`);
  });
  return { context, page };
}

const game = (page) => page.locator('[data-testid="game"]');
const attr = (page, name) => game(page).getAttribute(name);

async function waitFor(predicate, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

async function playRuleset(ruleset, lobbyShot) {
  const started = Date.now();
  const problems = [];
  const seats = SEATS[ruleset];
  const players = [];
  for (let seat = 0; seat < seats; seat++) players.push(await seatPage(`${ruleset} seat ${seat}`, problems));
  const host = players[0].page;

  // The lobby: read the card, choose the game and the table size, create.
  await host.goto(`${base}/play`);
  const card = host.locator(`[data-testid="ruleset-card"][data-ruleset="${ruleset}"]`);
  await card.waitFor();
  if (!(await card.textContent())?.trim()) fail(`${ruleset}: empty ruleset card`);
  if (lobbyShot) await host.screenshot({ path: lobbyShot, fullPage: false });
  await host.selectOption('[data-testid="ruleset-select"]', ruleset);
  await host.fill('[data-testid="seats-input"]', String(seats));
  const options = OPTIONS[ruleset] ?? {};
  if (Object.keys(options).length > 0) {
    await host.click('[data-testid="options"] summary');
    for (const [name, value] of Object.entries(options)) {
      await host.fill(`[data-testid="options"] [name="${name}"]`, JSON.stringify(value));
    }
  }
  await host.click('[data-testid="create-game"]');
  await host.locator('[data-testid="join-link"]').first().waitFor();
  const links = [];
  for (let seat = 0; seat < seats; seat++) {
    links.push(await host.locator(`[data-testid="join-link"][data-seat="${seat}"]`).getAttribute("href"));
  }
  if (links.some((link) => !link || link.includes("bt_"))) fail(`${ruleset}: join links missing or carrying a token: ${links}`);
  // The game carries the options chosen in the form.
  const id = links[0].split("#/join/")[1]?.split("/")[0];
  const audit = await (await fetch(`${base}/v1/games/${id}/audit?limit=1`)).json();
  for (const [name, value] of Object.entries(options)) {
    if (JSON.stringify(audit.options?.[name]) !== JSON.stringify(value)) fail(`${ruleset}: option ${name} is ${JSON.stringify(audit.options?.[name])}, not ${JSON.stringify(value)}`);
  }

  // Every player opens their own link, types a name and takes the seat.
  const names = ["Anna", "Ben", "Cas", "Dirk", "Eva"];
  for (let seat = 0; seat < seats; seat++) {
    const { page } = players[seat];
    await page.goto(links[seat]);
    await page.fill('[data-testid="player-name"]', names[seat]);
    await page.click('[data-testid="claim-seat"]');
    await page.locator(`[data-testid="game"][data-seat="${seat}"]`).waitFor();
  }
  await waitFor(async () => (await attr(host, "data-status")) === "active", FOLLOW_MS, `${ruleset} to start`);

  let moves = 0;
  let stalls = 0;
  let refusals = 0;
  let privateSeen = 0;
  let shotTaken = false;
  for (;;) {
    const statuses = await Promise.all(players.map(({ page }) => attr(page, "data-status")));
    if (statuses.every((status) => status === "finished")) break;
    if (moves > MAX_MOVES) fail(`${ruleset}: not finished after ${MAX_MOVES} moves (seed ${seed})`);
    const turns = [];
    for (const [seat, { page }] of players.entries()) {
      if ((await attr(page, "data-your-turn")) === "true") turns.push(seat);
    }
    if (turns.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const seat = pick(turns);
    const { page } = players[seat];
    const before = await attr(page, "data-version");
    const buttons = await page.locator('[data-testid="action"]').all();
    const forms = await page.locator('[data-testid="action-form"]').all();
    let choices = [...buttons.map((button) => ({ button })), ...forms.map((form) => ({ form }))];
    if (choices.length === 0) {
      // The page is between renders: look again shortly.
      stalls += 1;
      if (stalls > 100) fail(`${ruleset}: seat ${seat}'s turn shows no move (version ${before})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    stalls = 0;
    // Players move on: where a ruleset has moves that make progress, a person mostly picks one.
    const keen = PROGRESS[ruleset];
    if (keen && random() < 0.9) {
      const texts = await Promise.all(choices.map((choice) => (choice.button ?? choice.form).textContent()));
      // The deepest row first: that is where the game is won.
      let best = -1;
      let progress = [];
      texts.forEach((text, index) => {
        const match = keen.exec(text ?? "");
        if (!match) return;
        const depth = Number(match[1] ?? 0);
        if (depth > best) {
          best = depth;
          progress = [];
        }
        if (depth === best) progress.push(choices[index]);
      });
      if (progress.length > 0) choices = progress;
    }
    const choice = pick(choices);
    if (choice.button) {
      await choice.button.click();
    } else {
      if (random() < 0.3) await choice.form.getByRole("button", { name: "Suggest" }).click();
      await choice.form.getByRole("button", { name: "Play" }).click();
    }
    let refused = false;
    await waitFor(
      async () => {
        if ((await attr(page, "data-version")) !== before) return true;
        const error = (await page.locator('[data-testid="error"]').textContent())?.trim();
        if (error) refused = true;
        return refused;
      },
      FOLLOW_MS,
      `${ruleset}: seat ${seat}'s move at version ${before} to land`,
    );
    if (refused) {
      refusals += 1;
      if (refusals > 200) fail(`${ruleset}: too many refused moves; last: ${await page.locator('[data-testid="error"]').textContent()}`);
      await waitFor(async () => !(await page.locator('[data-testid="error"]').textContent())?.trim() || (await attr(page, "data-version")) !== before, 2000, "the refused move's refresh").catch(() => {});
      continue;
    }
    moves += 1;
    // Everyone follows without reloading.
    const version = await attr(page, "data-version");
    await waitFor(
      async () => (await Promise.all(players.map(({ page }) => attr(page, "data-version")))).every((seen) => Number(seen) >= Number(version)),
      FOLLOW_MS,
      `${ruleset}: every seat to follow version ${version}`,
    );
    if (moves % 5 === 1) privateSeen += await checkPrivate(ruleset, players);
    if (!shotTaken && moves >= 12 && shots) {
      await host.screenshot({ path: join(shots, `${ruleset}.png`), fullPage: false });
      shotTaken = true;
    }
  }
  privateSeen += await checkPrivate(ruleset, players);
  if (shots && !shotTaken) await host.screenshot({ path: join(shots, `${ruleset}.png`), fullPage: false });

  // The end: everyone sees the outcome, the log is in words, the seed verifies.
  for (const [seat, { page }] of players.entries()) {
    await page.locator('[data-testid="outcome"]').waitFor();
    const status = await page.locator('[data-testid="status"]').textContent();
    if (!/finished/i.test(status ?? "")) fail(`${ruleset}: seat ${seat}'s status is ${status}`);
    const lines = await page.locator('[data-testid="log"] li').allTextContents();
    if (lines.length < moves) fail(`${ruleset}: seat ${seat}'s log has ${lines.length} sentences for ${moves} moves`);
    const bad = lines.find((line) => /[{}_\[\]"]/.test(line) || !line.trim());
    if (bad !== undefined) fail(`${ruleset}: a log line is not words: ${JSON.stringify(bad)}`);
  }
  await host.click('[data-testid="verify"]');
  await waitFor(async () => /✓|✗/.test((await host.locator('[data-testid="verify-result"]').textContent()) ?? ""), FOLLOW_MS, "the verification");
  const verdict = await host.locator('[data-testid="verify-result"]').textContent();
  if (!verdict?.includes("✓")) fail(`${ruleset}: the seed did not verify: ${verdict}`);
  if (problems.length > 0) fail(`${ruleset}: ${problems.join("\n")}`);
  for (const { context } of players) await context.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${ruleset}: ${seats} browsers, ${moves} moves through the page, ${refusals} refused, ${privateSeen} private elements seen; ${seconds} s`);
  return privateSeen;
}

/**
 * Each seat's page shows private elements of that seat only, and none in another seat's row
 * of a players table (where a leak of that seat's hidden information would show); returns
 * how many it saw.
 */
async function checkPrivate(ruleset, players) {
  let seen = 0;
  for (const [seat, { page }] of players.entries()) {
    const marks = await page
      .locator("[data-private-owner]")
      .evaluateAll((elements) => elements.map((element) => [element.getAttribute("data-private-owner"), element.getAttribute("data-private-seat"), element.textContent]));
    for (const [owner, row, text] of marks) {
      if (owner !== String(seat)) fail(`${ruleset}: seat ${seat}'s page shows private information of seat ${owner}: ${text}`);
      if (row !== null && row !== String(seat)) fail(`${ruleset}: seat ${seat}'s page shows hidden information in seat ${row}'s row: ${text}`);
    }
    seen += marks.length;
  }
  return seen;
}

const rulesets = only ? [only] : Object.keys(SEATS);
if (shots) mkdirSync(shots, { recursive: true });
let failed = false;
const total = Date.now();
for (const [index, ruleset] of rulesets.entries()) {
  try {
    await playRuleset(ruleset, index === 0 && shots ? join(shots, "lobby.png") : undefined);
  } catch (error) {
    failed = true;
    console.error(`FAILED ${ruleset} (seed ${seed}): ${error instanceof Error ? error.message : error}`);
  }
}
await browser.close();
console.log(`${rulesets.length} rulesets in ${((Date.now() - total) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
