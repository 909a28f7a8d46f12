// A front-end on another origin, in real Chromium (issue 54): a page served from a second
// origin (another port) calls the API the way docs/api.md tells a browser to: it creates a
// game, claims the seats, reads a game's event stream and notes the last event id, makes moves
// with If-Match (from the ETag it reads) and an Idempotency-Key, then resumes the stream with
// `Last-Event-ID` and must receive every log entry after its cursor, then the game at the
// version it left. Each of those headers crosses origins only if CORS allows it (before the
// fix, the resumed stream's preflight failed: "Failed to fetch").
//
//   node tests/cross-origin.mjs --base http://127.0.0.1:8080
//
// Debian's Chromium (/usr/bin/chromium) through playwright-core: nothing is downloaded.
import { chromium } from "playwright-core";
import { createServer } from "node:http";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const base = option("base", "http://127.0.0.1:8080").replace(/\/$/, "");
const MOVES = 6;

// The second origin: a blank page on another port of the loopback interface.
const page_server = createServer((_, response) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  response.end("<!doctype html><title>another origin</title><p>another origin</p>");
});
await new Promise((resolve) => page_server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${page_server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const page = await browser.newPage();
  if (process.env.DEBUG) page.on("console", (message) => console.log(`page: ${message.text()}`));
  page.on("pageerror", (error) => {
    console.error(`page error: ${error.message}`);
    failed = true;
  });
  await page.goto(origin);
  const result = await page.evaluate(
    async ({ base, moves }) => {
      const json = { "content-type": "application/json" };
      const call = async (path, init = {}) => {
        const response = await fetch(`${base}${path}`, init);
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
      };
      const created = await call("/v1/games", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ ruleset: "tulipmania-1637", seats: 3 }),
      });
      if (created.status !== 201) throw new Error(`create: ${created.status}`);
      const id = created.body.id;
      const tokens = [];
      for (let seat = 0; seat < 3; seat += 1) {
        const claimed = await call(`/v1/games/${id}/seats/${seat}`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ name: `seat ${seat}` }),
        });
        if (claimed.status !== 201) throw new Error(`claim ${seat}: ${claimed.status}`);
        tokens.push(claimed.body.player_token);
      }

      // Reads server-sent events from a fetch until `done` says it has enough.
      const read_events = async (headers, done) => {
        const controller = new AbortController();
        const response = await fetch(`${base}/v1/games/${id}/events`, { headers, signal: controller.signal });
        if (response.status !== 200) throw new Error(`events: ${response.status}`);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const events = [];
        let buffer = "";
        for (;;) {
          const { value, done: ended } = await reader.read();
          if (ended) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = { event: "message", data: "", id: undefined };
            for (const line of block.split("\n")) {
              const colon = line.indexOf(":");
              const field = colon < 0 ? line : line.slice(0, colon);
              const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
              if (field === "event") event.event = text;
              if (field === "data") event.data += text;
              if (field === "id") event.id = text;
            }
            if (event.data) events.push(event);
          }
          if (done(events)) {
            controller.abort();
            return events;
          }
        }
        return events;
      };

      // The snapshot, and its id: the cursor to resume from.
      const first = await read_events({}, (events) => events.some((event) => event.event === "game"));
      console.log(`snapshot ${first.map((event) => event.id).join(",")}`);
      const cursor = first.find((event) => event.event === "game").id;

      // Moves guarded by the ETag the page reads, each with an Idempotency-Key.
      let moved = 0;
      for (let step = 0; moved < moves && step < 200; step += 1) {
        const game = await call(`/v1/games/${id}`);
        const etag = game.headers.get("etag");
        if (!etag) throw new Error("the ETag header is not exposed to the page");
        const seat = game.body.to_act[0];
        const auth = { authorization: `Bearer ${tokens[seat]}` };
        const legal = await call(`/v1/games/${id}/legal-actions`, { headers: auth });
        const complete = legal.body.actions.filter((entry) => "action" in entry && entry.action.type !== "undo");
        for (const entry of complete) {
          const reply = await call(`/v1/games/${id}/actions`, {
            method: "POST",
            headers: { ...json, ...auth, "if-match": etag, "idempotency-key": `move-${step}-${entry.action.type}` },
            body: JSON.stringify({ action: entry.action }),
          });
          if (reply.status === 200) {
            moved += 1;
            break;
          }
          if (reply.status !== 422) throw new Error(`a move: ${reply.status} ${JSON.stringify(reply.body)}`);
        }
      }
      const now = await call(`/v1/games/${id}`);
      console.log(`moved ${moved}, now at v${now.body.version}`);
      if (moved < moves) throw new Error(`only ${moved} of ${moves} moves were accepted`);

      // Resume from the cursor: every entry after it, then the game at its version.
      const resumed = await read_events({ "last-event-id": cursor }, (events) =>
        events.some((event) => event.event === "game" && JSON.parse(event.data).version >= now.body.version),
      );
      const seqs = resumed.filter((event) => event.event === "log").map((event) => JSON.parse(event.data).seq);
      return {
        cursor,
        moved,
        seqs,
        version: now.body.version,
        last: JSON.parse(resumed.filter((event) => event.event === "game").at(-1).data).version,
      };
    },
    { base, moves: MOVES },
  );
  const [, log_len] = result.cursor.split("-").map(Number);
  const expected = [];
  for (let seq = log_len; seq < log_len + result.seqs.length; seq += 1) expected.push(seq);
  const ok =
    result.moved === MOVES &&
    result.seqs.length >= MOVES &&
    JSON.stringify(result.seqs) === JSON.stringify(expected) &&
    result.last === result.version;
  console.log(
    `cross-origin resume from ${result.cursor}: ${result.moved} moves, entries ${result.seqs.join(",")}, game at v${result.last} (now v${result.version})`,
  );
  if (!ok) {
    console.error("the resumed stream did not deliver every change after its cursor");
    failed = true;
  }
} catch (error) {
  console.error(`cross-origin: ${error.message}`);
  failed = true;
} finally {
  await browser.close();
  page_server.close();
}
process.exit(failed ? 1 : 0);
