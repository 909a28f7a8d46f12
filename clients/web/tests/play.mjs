// The /play client in real Chromium: for each ruleset, one browser context per seat creates,
// joins and plays a whole game through the page only (clicking the board's spaces, cards and
// dice, move buttons, submitting move forms; some move of every game is a click on the board),
// audits the lobby and the table at the start, in mid-game and at the end with axe-core (no
// serious or critical WCAG 2 A/AA violation), checks that every context follows the game live,
// that no seat's page shows another seat's hidden information, and that the finished game's
// seed verifies in the browser. With --shots, the table of every game is photographed at its
// start, in mid-game and at its end, on the desktop and on the phone. The last seat plays on a
// phone-sized page (390×844): no page may be wider than its screen, and
// the moves and the log never show JSON or internal names (snake_case). The first time a seat's
// move may be taken back, the seat clicks "Take back your last move" (a button apart from the
// moves, shown even out of turn): the log says so, strikes the move through, and the board is
// as before the move. Once finished, the replay slider draws the board at the deal and after
// the next entries (each with its log headline), and every seat presses "Rematch": the first
// creates the linked game, the others join it ("Rematch created — join"), and it starts with
// the seats turned one place.
//
//   node tests/play.mjs --base http://127.0.0.1:8080 [--ruleset tulpenfieber|controls] [--shots dir] [--seed 7]
//
// Debian's Chromium (/usr/bin/chromium) through playwright-core: nothing is downloaded.
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * axe-core's browser script (npm, pinned by the lockfile), evaluated in a page to audit it:
 * through the DevTools protocol, as the page's Content-Security-Policy (default-src 'self')
 * refuses a script tag, and must keep refusing one.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

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
 * of its face (`side_need`, a list of numbers in the form) ends it in a fraction of that. The
 * test checks that the created game carries them. Black Thursday's standard tower (2 tiles
 * wide, 12 high) took about 200 moves and 140 s at a table of three; a custom building of 2 × 2
 * tiles (`layout`: "Custom", then one row of x and y per tile) keeps two columns, companies to
 * reveal and trading, and ends in about a third of the moves. Tulip Bubble ends when someone
 * claims the Black Tulip with more than 120 guilders and no loans: when forms started at a
 * random bid, someone's ƒ1,000,000 bid ended a game in about 25 moves; bids that start at the
 * minimum took some 250 moves and 100 s; a threshold of 15 (`black_tulip_threshold`, a
 * number in the form) lets a player claim at the first Black Tulip window, and games took 25
 * to 60 moves. Tulipmania's games took 65 to 80 moves and 30 to 46 s; a limit of 10 turns
 * (`max_turns`, a number in the form) still reaches its end of game.
 */
const OPTIONS = {
  "tulipmania-1637": { max_turns: 10 },
  tulpenfieber: { side_need: [1, 1, 1, 1, 1] },
  "tulip-bubble": { black_tulip_threshold: 15 },
  "black-thursday": { layout: { custom: [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 0, y: 2 }, { x: 2, y: 2 }] } },
};

/** Sets one option through its form controls, as a person would: no JSON typed. */
async function setOption(page, name, value) {
  const scope = page.locator('[data-testid="options"]');
  if (typeof value === "number") {
    await scope.locator(`input[name="${name}"]`).fill(String(value));
  } else if (Array.isArray(value) && value.every((item) => typeof item === "number")) {
    await scope.locator(`[name="${name}"]`).fill(value.join(", "));
  } else if (value && typeof value === "object" && Array.isArray(value.custom)) {
    await scope.locator(`select[name="${name}"]`).selectOption({ label: "Custom" });
    const list = scope.locator('fieldset.list[data-name="custom"]');
    for (const [index, point] of value.custom.entries()) {
      await list.locator('[data-testid="add-row"]').click();
      const row = list.locator("li.row").nth(index);
      await row.locator('[name="x"]').fill(String(point.x));
      await row.locator('[name="y"]').fill(String(point.y));
    }
  } else {
    fail(`no way to set option ${name} in the form`);
  }
}

/** Rulesets where a seat's move is always soon undoable (nothing hidden): undo must be seen. */
const UNDO_EXPECTED = new Set(["tulpenfieber"]);

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
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Per page, the event streams it opened and the long-polls it sent. */
const followed = new WeakMap();

async function seatPage(label, problems, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`${label}: page error: ${error.message}`));
  // How the page follows its game: by the event stream, long-polls only where streams fail.
  const follow = { streams: 0, polls: 0 };
  followed.set(page, follow);
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (/^\/v1\/games\/[^/]+\/events$/.test(url.pathname)) follow.streams += 1;
    if (url.searchParams.has("after_version")) follow.polls += 1;
  });
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
/** Waits until the page has drawn (moves, log and all) at least the version it shows. */
const drawn = (page, what) =>
  waitFor(async () => {
    const [version, done] = await Promise.all([attr(page, "data-version"), attr(page, "data-drawn")]);
    return version !== null && done === version;
  }, FOLLOW_MS, `${what} to be drawn`);

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
  // The last seat plays on a phone.
  for (let seat = 0; seat < seats; seat++) players.push(await seatPage(`${ruleset} seat ${seat}`, problems, seat === seats - 1 ? PHONE : DESKTOP));
  const phone = players[seats - 1].page;
  const host = players[0].page;

  // The lobby: read the card, choose the game and the table size, create.
  await host.goto(`${base}/play`);
  const card = host.locator(`[data-testid="ruleset-card"][data-ruleset="${ruleset}"]`);
  await card.waitFor();
  if (!(await card.textContent())?.trim()) fail(`${ruleset}: empty ruleset card`);
  if (lobbyShot) {
    await host.screenshot({ path: lobbyShot, fullPage: false });
    await accessible("the lobby", host);
  }
  await host.selectOption('[data-testid="ruleset-select"]', ruleset);
  await host.fill('[data-testid="seats-input"]', String(seats));
  const options = OPTIONS[ruleset] ?? {};
  if (Object.keys(options).length > 0) {
    await host.click('[data-testid="options"] summary');
    for (const [name, value] of Object.entries(options)) await setOption(host, name, value);
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
  /** Moves played by clicking the board itself (a space, a card, a die). */
  let boardClicks = 0;
  // The table at the start, for the screenshots, and audited for accessibility.
  await drawn(host, `${ruleset}: the host's page`);
  await drawn(phone, `${ruleset}: the phone's page`);
  if (shots) {
    await host.screenshot({ path: join(shots, `${ruleset}-start.png`), fullPage: false });
    await phoneShot(phone, join(shots, `${ruleset}-start-phone.png`));
  }
  await accessible(`${ruleset} at the start`, host);
  /** How the undo went: "not offered", or what the seat saw when it took a move back. */
  let undo = "not offered";
  /** Since when no page has shown its seat's turn (null while one does). */
  let idleSince = null;
  for (;;) {
    const statuses = await Promise.all(players.map(({ page }) => attr(page, "data-status")));
    if (statuses.every((status) => status === "finished")) break;
    if (moves > MAX_MOVES) fail(`${ruleset}: not finished after ${MAX_MOVES} moves (seed ${seed})`);
    const turns = [];
    for (const [seat, { page }] of players.entries()) {
      // A page sets its version first and its moves last: only a page drawn to the end says
      // whose turn it is (before that, its turn and its buttons may be the last version's).
      const [turn, version, done] = await Promise.all([attr(page, "data-your-turn"), attr(page, "data-version"), attr(page, "data-drawn")]);
      if (turn === "true" && version === done) turns.push(seat);
    }
    if (turns.length === 0) {
      idleSince ??= Date.now();
      if (Date.now() - idleSince > FOLLOW_MS) fail(`${ruleset}: no seat's page has shown its turn for ${FOLLOW_MS} ms (seed ${seed})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    idleSince = null;
    const seat = pick(turns);
    const { page } = players[seat];
    const before = await attr(page, "data-version");
    // The board before the move, to compare once it is taken back.
    const boardBefore = undo === "not offered" ? await page.locator('[data-testid="board"]').innerHTML() : "";
    const buttons = await page.locator('[data-testid="action"]').all();
    const forms = await page.locator('[data-testid="action-form"]').all();
    // The board's own spaces, cards and dice that play a move: a person clicks those first.
    const onBoard = await page.locator('[data-testid="board"] [data-testid="board-move"]').all();
    let choices = [...buttons.map((button) => ({ button })), ...forms.map((form) => ({ form }))];
    if (onBoard.length > 0 && random() < 0.6) choices = onBoard.map((button) => ({ button, board: true }));
    // A pick (several items at once) ticked on the board, then played from its form.
    // (Only a form with nothing else to fill in: a lot's buyer and price are the form's.)
    const ticks = await page.locator('[data-testid="board"] [data-testid="board-pick"]').all();
    const tag = ticks.length > 0 ? await ticks[0].getAttribute("data-tag") : null;
    const tickForm = page.locator(`[data-testid="action-form"][data-tag="${tag}"]`);
    if (tag && random() < 0.6 && (await tickForm.count()) === 1 && (await tickForm.locator("select, input[type=number], textarea").count()) === 0) {
      const mine = [];
      for (const tick of ticks) if ((await tick.getAttribute("data-tag")) === tag) mine.push(tick);
      const min = Number((await tickForm.locator("fieldset.choices").getAttribute("data-min")) ?? 0);
      const max = Math.min(Number((await tickForm.locator("fieldset.choices").getAttribute("data-max")) ?? 1), mine.length);
      const count = min + Math.floor(random() * (max - min + 1));
      choices = [{ form: tickForm, ticks: mine.sort(() => random() - 0.5).slice(0, count) }];
    }
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
      // The move's sentence (the button may carry the server's shorter label instead).
      const texts = await Promise.all(choices.map((choice) => (choice.button ? choice.button.getAttribute("data-text") : choice.form.textContent())));
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
    if (choice.board || choice.ticks) boardClicks += 1;
    if (choice.button) {
      await choice.button.click();
    } else if (choice.ticks) {
      // Each tick on the board ticks the form's box too.
      for (const tick of choice.ticks) {
        await tick.click();
        const value = await tick.getAttribute("data-value");
        const box = choice.form.locator(`input[type="checkbox"][data-value="${value.replace(/"/g, '\\"')}"]`);
        if (!(await box.isChecked())) fail(`${ruleset}: ticking ${value} on the board left its box in the form unticked`);
        if ((await tick.getAttribute("aria-checked")) !== "true") fail(`${ruleset}: ticking ${value} on the board did not mark it chosen`);
      }
      await choice.form.getByRole("button", { name: "Play" }).click();
    } else {
      await fillForm(choice.form);
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
      async () => (await Promise.all(players.map(({ page }) => attr(page, "data-drawn")))).every((seen) => Number(seen) >= Number(version)),
      FOLLOW_MS,
      `${ruleset}: every seat to follow version ${version}`,
    );
    if (undo === "not offered") {
      await drawn(page, `${ruleset}: seat ${seat}'s page`);
      if ((await page.locator('[data-testid="undo"]').count()) > 0) undo = await takeBack(ruleset, page, seat, boardBefore, players);
    }
    if (moves % 5 === 1) {
      privateSeen += await checkPrivate(ruleset, players);
      await checkWords(ruleset, players);
    }
    if (!shotTaken && moves >= 12) {
      if (shots) {
        await host.screenshot({ path: join(shots, `${ruleset}.png`), fullPage: false });
        await phoneShot(phone, join(shots, `${ruleset}-phone.png`));
      }
      await accessible(`${ruleset} in mid-game`, phone);
      shotTaken = true;
    }
  }
  privateSeen += await checkPrivate(ruleset, players);
  await checkWords(ruleset, players);
  if (shots && !shotTaken) {
    await host.screenshot({ path: join(shots, `${ruleset}.png`), fullPage: false });
    await phoneShot(phone, join(shots, `${ruleset}-phone.png`));
  }

  // The end: everyone sees the outcome, the log is in words, the seed verifies.
  for (const [seat, { page }] of players.entries()) {
    await page.locator('[data-testid="outcome"]').waitFor();
    const status = await page.locator('[data-testid="status"]').textContent();
    if (!/finished/i.test(status ?? "")) fail(`${ruleset}: seat ${seat}'s status is ${status}`);
    // One line per log entry, numbered from 1 in order.
    const entries = await page.locator('[data-testid="log"] li.entry').evaluateAll((items) => items.map((item) => Number(item.dataset.seq)));
    if (entries.length < moves) fail(`${ruleset}: seat ${seat}'s log has ${entries.length} entries for ${moves} moves`);
    if (entries.some((seq, index) => seq !== index)) fail(`${ruleset}: seat ${seat}'s log entries are not one per entry in order: ${entries.slice(0, 20)}`);
    const lines = await page.locator('[data-testid="log"] li.entry > .headline').allTextContents();
    if (lines.length !== entries.length) fail(`${ruleset}: seat ${seat}'s log has ${lines.length} headlines for ${entries.length} entries`);
    const bad = lines.find((line) => /[{}_\[\]"]/.test(line) || !line.trim());
    if (bad !== undefined) fail(`${ruleset}: a log line is not words: ${JSON.stringify(bad)}`);
    // The numbers of a long log are not clipped: the list leaves room for four digits.
    const room = await page.locator('[data-testid="log"] ol.log').evaluate((list) => parseFloat(getComputedStyle(list).paddingLeft) / parseFloat(getComputedStyle(list).fontSize));
    if (room < 2.8) fail(`${ruleset}: the log's numbers have ${room.toFixed(1)} em of room`);
  }
  if (boardClicks === 0) fail(`${ruleset}: no move was played by clicking the board`);
  await drawn(host, `${ruleset}: the host's finished page`);
  if (shots) {
    await host.screenshot({ path: join(shots, `${ruleset}-end.png`), fullPage: false });
    await phoneShot(phone, join(shots, `${ruleset}-end-phone.png`));
  }
  await accessible(`${ruleset} at the end`, host);
  for (const [seat, { page }] of players.entries()) {
    const follow = followed.get(page);
    if (!follow || follow.streams === 0) fail(`${ruleset}: seat ${seat}'s page never opened the game's event stream`);
    if (follow.polls > 0) fail(`${ruleset}: seat ${seat}'s page fell back to ${follow.polls} long-polls`);
  }
  await host.click('[data-testid="verify"]');
  await waitFor(async () => /✓|✗/.test((await host.locator('[data-testid="verify-result"]').textContent()) ?? ""), FOLLOW_MS, "the verification");
  const verdict = await host.locator('[data-testid="verify-result"]').textContent();
  if (!verdict?.includes("✓")) fail(`${ruleset}: the seed did not verify: ${verdict}`);
  if (undo === "not offered" && UNDO_EXPECTED.has(ruleset)) fail(`${ruleset}: no seat was ever offered to take a move back`);
  const steps = await replay(ruleset, players, shots && !replayShot ? join(shots, "replay.png") : undefined);
  if (shots) replayShot = true;
  await rematch(ruleset, players, id);
  if (problems.length > 0) fail(`${ruleset}: ${problems.join("\n")}`);
  for (const { context } of players) await context.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${ruleset}: ${seats} browsers, ${moves} moves through the page (${boardClicks} by clicking the board), ${refusals} refused, ${privateSeen} private elements seen; undo ${undo}; replay of ${steps} entries; rematch; ${seconds} s`);
  return privateSeen;
}

/** The undo screenshots taken (the first on a desktop page and on the phone), and the replay's. */
const undoShots = new Set();
let replayShot = false;

/**
 * The seat that just moved takes the move back with its undo button: the log gets an entry
 * saying so, the move's entry is struck through, and the board is what it was before the move.
 */
async function takeBack(ruleset, page, seat, boardBefore, players) {
  const button = page.locator('[data-testid="undo"]');
  const label = (await button.textContent())?.trim();
  if (label !== "Take back your last move") fail(`${ruleset}: the undo button says ${JSON.stringify(label)}`);
  // A secondary button, apart from the moves: never one of them.
  if ((await page.locator('[data-testid="action"][data-text*="took back"], .buttons [data-testid="undo"], [data-testid="action-form"] [data-testid="undo"]').count()) > 0) {
    fail(`${ruleset}: the undo button is among the moves`);
  }
  const yourTurn = (await attr(page, "data-your-turn")) === "true";
  const shot = (page.viewportSize()?.width ?? DESKTOP.width) < DESKTOP.width ? "undo-phone.png" : "undo.png";
  if (shots && !undoShots.has(shot)) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, shot), fullPage: false });
    undoShots.add(shot);
  }
  const moved = Number(await page.locator('[data-testid="log"] li.entry').last().getAttribute("data-seq"));
  const before = await attr(page, "data-version");
  await button.click();
  await waitFor(async () => (await attr(page, "data-version")) !== before || Boolean((await page.locator('[data-testid="error"]').textContent())?.trim()), FOLLOW_MS, `${ruleset}: the undo to land`);
  const error = (await page.locator('[data-testid="error"]').textContent())?.trim();
  if (error) fail(`${ruleset}: taking the move back was refused: ${error}`);
  await drawn(page, `${ruleset}: the page after the undo`);
  const last = page.locator('[data-testid="log"] li.entry').last();
  const headline = (await last.locator(".headline").textContent()) ?? "";
  if (!/took back their last move/.test(headline)) fail(`${ruleset}: the log's last line after the undo is ${JSON.stringify(headline)}`);
  if (Number(await last.getAttribute("data-seq")) !== moved + 1) fail(`${ruleset}: the undo is not the entry after the move`);
  if (!(await page.locator(`[data-testid="log"] li.entry[data-seq="${moved}"]`).evaluate((item) => item.classList.contains("undone")))) fail(`${ruleset}: the move taken back is not struck through in the log`);
  const boardAfter = await page.locator('[data-testid="board"]').innerHTML();
  if (boardAfter !== boardBefore) fail(`${ruleset}: the board after the undo is not the board before the move`);
  // Everyone follows the undo.
  const version = await attr(page, "data-version");
  await waitFor(
    async () => (await Promise.all(players.map(({ page }) => attr(page, "data-version")))).every((seen) => Number(seen) >= Number(version)),
    FOLLOW_MS,
    `${ruleset}: every seat to follow the undo`,
  );
  return `by seat ${seat} (${yourTurn ? "in" : "out of"} turn) of entry ${moved}`;
}

/**
 * The replay of the finished game: on the first seat's page, the slider at the deal shows
 * entry 0 (the board drawn from the history route, the caption the log's first line), next
 * and previous step through the entries; on the phone, the middle of the game, and the page
 * still fits. Returns the number of entries.
 */
async function replay(ruleset, players, shot) {
  const host = players[0].page;
  const phone = players[players.length - 1].page;
  const slider = host.locator('[data-testid="replay-slider"]');
  await slider.waitFor();
  const entries = await host.locator('[data-testid="log"] li.entry').count();
  const max = Number(await slider.getAttribute("max"));
  if (max !== entries - 1) fail(`${ruleset}: the replay runs to ${max}, the log to ${entries - 1}`);
  if (Number(await slider.inputValue()) !== max) fail(`${ruleset}: the replay does not start at the end`);
  const at = async (page, seq) => {
    await page.locator(`[data-testid="board"][data-seq="${seq}"]`).waitFor({ timeout: FOLLOW_MS });
    const caption = (await page.locator('[data-testid="replay-caption"]').textContent()) ?? "";
    const headline = (await page.locator(`[data-testid="log"] li.entry[data-seq="${seq}"] > .headline`).textContent()) ?? "";
    if (!headline || !caption.endsWith(headline)) fail(`${ruleset}: the replay at ${seq} says ${JSON.stringify(caption)}, the log ${JSON.stringify(headline)}`);
    if (!caption.includes(`entry ${seq + 1} of ${entries}`)) fail(`${ruleset}: the replay's caption at ${seq} is ${JSON.stringify(caption)}`);
    if ((await page.locator('[data-testid="board"]').innerText()).trim() === "") fail(`${ruleset}: the replay at ${seq} draws an empty board`);
  };
  await slider.fill("0");
  await at(host, 0);
  if (!(await host.locator('[data-testid="replay-prev"]').isDisabled())) fail(`${ruleset}: "previous" is enabled at the deal`);
  for (const seq of [1, 2]) {
    await host.click('[data-testid="replay-next"]');
    await at(host, seq);
  }
  await host.click('[data-testid="replay-prev"]');
  await at(host, 1);
  const middle = Math.floor(max / 2);
  await phone.locator('[data-testid="replay-slider"]').fill(String(middle));
  await at(phone, middle);
  await checkPrivate(ruleset, players);
  await checkWords(ruleset, players);
  if (shot) {
    await host.locator('[data-testid="replay-slider"]').fill(String(middle));
    await at(host, middle);
    await host.evaluate(() => document.querySelector('[data-testid="replay"]').scrollIntoView());
    await host.screenshot({ path: shot, fullPage: false });
  }
  // The end of the slider is the game as it ended: the live board again.
  await slider.fill(String(max));
  await host.locator('[data-testid="board"][data-seq=""]').waitFor({ timeout: FOLLOW_MS });
  return entries;
}

/**
 * Every seat presses "Rematch" on the finished game, one after the other: the first creates
 * the new game (the others' pages then say "Rematch created — join"), each lands on it in its
 * seat turned one place (old seat 1 is new seat 0), under its name, and the new game starts
 * once the last has joined.
 */
async function rematch(ruleset, players, oldId) {
  const seats = players.length;
  let newId;
  for (const [seat, { page }] of players.entries()) {
    const button = page.locator('[data-testid="rematch"]');
    if (seat > 0) await waitFor(async () => /Rematch created — join/.test((await button.textContent()) ?? ""), FOLLOW_MS, `${ruleset}: seat ${seat} to see the rematch`);
    else if ((await button.textContent())?.trim() !== "Rematch") fail(`${ruleset}: the rematch button says ${await button.textContent()}`);
    const name = /You are (.+)\./.exec((await page.locator(".game-header .you").textContent()) ?? "")?.[1];
    await button.click();
    const target = (seat + seats - 1) % seats;
    await page.locator(`[data-testid="game"][data-seat="${target}"]`).waitFor({ timeout: FOLLOW_MS });
    const here = new URL(page.url()).hash.replace("#/game/", "");
    if (here === oldId) fail(`${ruleset}: seat ${seat} stayed on the finished game`);
    newId ??= here;
    if (here !== newId) fail(`${ruleset}: seat ${seat} went to ${here}, not the rematch ${newId}`);
    const you = await page.locator(".game-header .you").textContent();
    if (you !== `You are ${name}.`) fail(`${ruleset}: seat ${seat} (${name}) is ${JSON.stringify(you)} in the rematch`);
    if (seat < seats - 1) await page.locator('[data-testid="rematch-waiting"]').waitFor({ timeout: FOLLOW_MS });
  }
  for (const [seat, { page }] of players.entries()) {
    await waitFor(async () => (await attr(page, "data-status")) === "active", FOLLOW_MS, `${ruleset}: the rematch to start for seat ${seat}`);
  }
  const envelope = await (await fetch(`${base}/v1/games/${newId}`)).json();
  if (envelope.rematch_of !== oldId) fail(`${ruleset}: the rematch's rematch_of is ${envelope.rematch_of}`);
}

/** The phone's screen from the top of the page: what a player sees first. */
async function phoneShot(page, path) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: false });
}

/**
 * Fills a move's form as a player would: picks among the choices offered (the form starts
 * with nothing chosen), marks as many boxes as the move asks, puts a map's whole sum on one
 * name, and sometimes raises an amount above its minimum. Random numbers come from --seed.
 */
/**
 * An axe-core audit of `page` as it stands (WCAG 2 A and AA rules): fails on any serious or
 * critical violation, naming the rule and the first elements it found.
 */
async function accessible(what, page) {
  if ((await page.evaluate(() => typeof globalThis.axe)) === "undefined") await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const result = await globalThis.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] }, resultTypes: ["violations"] });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.help}; at ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(" | ")}`);
  });
  if (found.length > 0) fail(`${what}: accessibility violations:\n${found.join("\n")}`);
}

async function fillForm(form) {
  const draws = Array.from({ length: 64 }, () => random());
  await form.evaluate((element, draws) => {
    let next = 0;
    const draw = () => draws[next++ % draws.length];
    const pickOf = (items) => items[Math.floor(draw() * items.length)];
    // Choosing a shape may show new fields: choose until nothing is left unchosen.
    for (let round = 0; round < 6; round++) {
      const open = [...element.querySelectorAll("select")].filter((select) => select.value === "");
      if (open.length === 0) break;
      for (const select of open) {
        const option = pickOf([...select.options].filter((option) => option.value !== "" && !option.disabled));
        if (!option) continue;
        select.value = option.value;
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
    for (const group of element.querySelectorAll("fieldset.choices")) {
      const boxes = [...group.querySelectorAll('input[type="checkbox"]')];
      const min = Number(group.dataset.min ?? 0);
      const max = Math.min(Number(group.dataset.max ?? boxes.length), boxes.length);
      const count = min + Math.floor(draw() * draw() * (max - min + 1));
      const order = boxes.map((box) => ({ box, key: draw() })).sort((a, b) => a.key - b.key);
      order.forEach(({ box }, index) => (box.checked = index < count));
    }
    for (const map of element.querySelectorAll("fieldset.map[data-sum]")) {
      const inputs = [...map.querySelectorAll("input")];
      for (const input of inputs) input.value = "";
      const input = pickOf(inputs);
      if (input) input.value = map.dataset.sum;
    }
    for (const input of element.querySelectorAll('input[type="number"]')) {
      if (input.closest("fieldset.map") || input.value === "" || draw() < 0.8) continue;
      const min = Number(input.min || input.value);
      const max = input.max === "" ? min + 20 : Math.min(Number(input.max), min + 20);
      input.value = String(min + Math.floor(draw() * (max - min + 1)));
    }
  }, draws);
}

/**
 * Every page fits its screen (the phone's too), and what a player reads to move (the board,
 * the moves, the log, the names of the board's moves) is words: no braces of JSON, no snake_case names, no 0-based seat numbers.
 */
async function checkWords(ruleset, players) {
  for (const [seat, { page }] of players.entries()) {
    const { scroll, width, text, wide } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      width: window.innerWidth,
      // The elements that stick out, to say what to fix.
      wide: [...document.querySelectorAll("body *")]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(-3)
        .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")} "${(element.textContent ?? "").slice(0, 40)}"`),
      text: [
        ...['[data-testid="board"]', '[data-testid="actions"]', '[data-testid="log"]'].map((selector) => document.querySelector(selector)?.innerText ?? ""),
        // What a screen reader says for the board's own moves.
        ...[...document.querySelectorAll('[data-testid="board-move"]')].map((element) => element.getAttribute("aria-label") ?? ""),
      ].join("\n"),
    }));
    if (scroll > width) fail(`${ruleset}: seat ${seat}'s page is ${scroll} px wide on a ${width}-px screen: ${wide.join("; ")}`);
    // JSON, snake_case, seat numbers, and card codes (Tulip Bubble's "WC2#3", Tulip Traders'
    // "K-OY") where words belong.
    const raw = /[{}]|\b[a-z]+(?:_[a-z0-9]+)+\b|\bseat \d|\w#\d|\b[LSPDK]-(?:R|Pk|O|Pu|Y)+\b/i.exec(text);
    if (raw) fail(`${ruleset}: seat ${seat}'s board, moves or log show ${JSON.stringify(raw[0])} in: ${JSON.stringify(text.slice(Math.max(0, raw.index - 80), raw.index + 80))}`);
  }
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

/**
 * The lobby's and a game's controls, on a phone: create a game with a move clock, take a seat,
 * give the other seats to bots, see the clock count down and "my games" say whose turn it is,
 * as the creator give a seat to a new player (who plays it in this browser), and resign it
 * (confirmed).
 */
async function controls() {
  const started = Date.now();
  const problems = [];
  const { context, page } = await seatPage("controls", problems, PHONE);
  const fits = async (where) => {
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    if (scroll > width) fail(`controls: the ${where} is ${scroll} px wide on a ${width}-px screen`);
  };
  await page.goto(`${base}/play`);
  await page.locator('[data-testid="ruleset-card"]').first().waitFor();
  await fits("lobby");
  if (shots) await page.screenshot({ path: join(shots, "lobby-phone.png"), fullPage: false });
  await page.selectOption('[data-testid="ruleset-select"]', "tulipmania-1637");
  await page.fill('[data-testid="seats-input"]', "3");
  await page.selectOption('[data-testid="clock-select"]', "PT1H");
  await page.click('[data-testid="create-game"]');
  await page.locator('[data-testid="join-link"]').first().waitFor();
  const link = await page.locator('[data-testid="join-link"][data-seat="0"]').getAttribute("href");
  const id = link.split("#/join/")[1].split("/")[0];
  const audit = await (await fetch(`${base}/v1/games/${id}/audit?limit=1`)).json();
  if (audit.clock?.per_move !== "PT1H" && JSON.stringify(audit).indexOf("PT1H") < 0) {
    const envelope = await (await fetch(`${base}/v1/games/${id}`)).json();
    if (envelope.clock?.options?.per_move !== "PT1H") fail(`controls: the game has no 1-hour move clock: ${JSON.stringify(envelope.clock)}`);
  }
  await page.goto(link);
  await page.fill('[data-testid="player-name"]', "Anna");
  await page.click('[data-testid="claim-seat"]');
  await page.locator('[data-testid="game"][data-seat="0"]').waitFor();
  for (const seat of [1, 2]) {
    await page.selectOption(`[data-testid="bot-kind"][data-seat="${seat}"]`, "strong");
    await page.click(`[data-testid="add-bot"][data-seat="${seat}"]`);
    await page.locator(`[data-testid="add-bot"][data-seat="${seat}"]`).waitFor({ state: "detached" });
  }
  await waitFor(async () => (await attr(page, "data-status")) === "active", FOLLOW_MS, "controls: the game to start with two bots");
  await page.locator('[data-testid="countdown"]').first().waitFor();
  const left = await page.locator('[data-testid="countdown"]').first().textContent();
  if (!/^(?:\d+ h \d+ min|\d+:\d\d) left$/.test(left ?? "")) fail(`controls: the clock says ${JSON.stringify(left)}`);
  await fits("game page");
  // The creator pauses every clock and starts them again; Anna goes on vacation and comes back.
  await page.click('[data-testid="pause"]');
  await page.locator('[data-testid="paused"]').waitFor();
  if (shots) await page.screenshot({ path: join(shots, "paused-phone.png"), fullPage: false });
  await page.click('[data-testid="resume"]');
  await page.locator('[data-testid="paused"]').waitFor({ state: "detached" });
  await page.click('[data-testid="vacation-start"]');
  await waitFor(async () => /on vacation/.test((await page.locator('[data-testid="players"]').textContent()) ?? ""), FOLLOW_MS, "controls: Anna on vacation");
  await page.click('[data-testid="vacation-end"]');
  await waitFor(async () => !/on vacation/.test((await page.locator('[data-testid="players"]').textContent()) ?? ""), FOLLOW_MS, "controls: Anna back");
  // The players list is drawn before the log: read the log once the whole page is drawn.
  await drawn(page, "controls: the page after the vacation");
  const notes = await page.locator('[data-testid="log"] li.entry > .headline').allTextContents();
  for (const line of ["The admin paused every clock.", "The admin started the clocks again.", "Anna went on vacation: their clock stands still.", "Anna is back from vacation: their clock runs again."]) {
    if (!notes.includes(line)) fail(`controls: the log does not say ${JSON.stringify(line)}: ${JSON.stringify(notes.slice(-6))}`);
  }
  await page.goto(`${base}/play#/`);
  await waitFor(async () => /your turn|waiting for/.test((await page.locator('[data-testid="my-game-turn"]').first().textContent()) ?? ""), FOLLOW_MS, "controls: my games to say whose turn it is");
  await page.goto(`${base}/play#/game/${id}`);
  await page.fill('[data-testid="replace-name"]', "Bea");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.click('[data-testid="replace"]');
  await page.getByRole("button", { name: "Play Bea's seat in this browser" }).click({ timeout: 5000 }).catch(async (error) => fail(`controls: no new seat for Bea: ${await page.locator('[data-testid="error"]').textContent()} / ${await page.locator('[data-testid="controls"]').textContent()}`));
  await waitFor(async () => /You are Bea/.test((await page.locator(".game-header").textContent()) ?? ""), FOLLOW_MS, "controls: Bea to hold the seat");
  await page.locator('[data-testid="resign"]').waitFor();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.click('[data-testid="resign"]');
  await waitFor(async () => /resigned/.test((await page.locator('[data-testid="players"]').textContent()) ?? ""), FOLLOW_MS, "controls: the resignation");
  if (problems.length > 0) fail(`controls: ${problems.join("\n")}`);
  await context.close();
  console.log(`controls: clock, pause, vacation, bots, my games, resign and replace on a phone; ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const rulesets = only ? (only === "controls" ? [] : [only]) : Object.keys(SEATS);
if (shots) mkdirSync(shots, { recursive: true });
let failed = false;
const total = Date.now();
if (!only || only === "controls") {
  try {
    await controls();
  } catch (error) {
    failed = true;
    console.error(`FAILED controls: ${error instanceof Error ? error.message : error}`);
  }
}
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
