/**
 * Plays one random game of every ruleset the server offers, through the typed client only.
 *
 *   tsx src/play.ts http://127.0.0.1:PORT        (or BEURS_URL=…; BEURS_PLAY_SEED=1637)
 *
 * For each ruleset in GET /v1/rulesets: create a game with the fewest seats it allows
 * without options, claim every seat, then until the game is finished: for each seat the game
 * waits on, read its legal actions, pick an entry at random (seeded) and submit it with
 * If-Match and an Idempotency-Key. `{action}` entries are submitted as they are (a refusal is
 * a failure); `{label, schema}` entries are sampled (src/sample.ts), checked against the entry's
 * schema and against the contract's request body (an Ajv guard: the only way the sample gets
 * the body's type), and a 422 only moves on to another sample or entry. Finally the audit is
 * read page by page and checked against the moves made. Any other status is a failure.
 */
import createClient from "openapi-fetch";
import { Contract, type CreateBody, type SubmitBody, loadDocument } from "./contract.js";
import { type Json, isObject } from "./json.js";
import { Rng } from "./rng.js";
import { Sampler, Unsatisfiable } from "./sample.js";
import type { paths } from "./schema.js";

class Failure extends Error {}

function fail(message: string): never {
  throw new Failure(message);
}

const SAMPLES_PER_SCHEMA_ENTRY = 40;
const MAX_MOVES = 20_000;
const AUDIT_PAGE = 100;

const baseUrl = process.argv[2] ?? process.env["BEURS_URL"] ?? fail("usage: play.ts <base url> (or BEURS_URL)");
const seed = Number(process.env["BEURS_PLAY_SEED"] ?? "1637");
const verbose = process.env["BEURS_PLAY_VERBOSE"] === "1";

const contract = new Contract(loadDocument(process.env["BEURS_OPENAPI"]));
const isSubmitBody = contract.requestBody<SubmitBody>("/v1/games/{id}/actions", "post");
const isCreateGame = contract.requestBody<CreateBody>("/v1/games", "post");
const client = createClient<paths>({ baseUrl });

const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });

/** The status text and problem of a refused request, for messages. */
function explain(response: Response, error: unknown): string {
  if (isObject(error)) {
    const code = typeof error["code"] === "string" ? error["code"] : "?";
    const detail = typeof error["detail"] === "string" ? error["detail"] : JSON.stringify(error);
    return `${String(response.status)} ${code}: ${detail}`;
  }
  return `${String(response.status)} ${JSON.stringify(error)}`;
}

/** A legal-action entry as the contract describes it in prose today. */
type Entry =
  | { kind: "action"; action: unknown }
  | { kind: "schema"; label: string; schema: unknown };

function readEntry(raw: unknown): Entry {
  if (!isObject(raw)) fail(`a legal-action entry is not an object: ${JSON.stringify(raw)}`);
  if ("action" in raw) return { kind: "action", action: raw["action"] };
  if ("schema" in raw) {
    const label = typeof raw["label"] === "string" ? raw["label"] : "";
    return { kind: "schema", label, schema: raw["schema"] };
  }
  return fail(`a legal-action entry is neither {action} nor {label, schema}: ${JSON.stringify(raw)}`);
}

interface Stats {
  moves: number;
  refusals: number;
  samplerMisses: number;
  looseSamples: number;
  schemaEntries: number;
  lastSeq: number;
}

interface Seat {
  seat: number;
  token: string;
}

async function createGame(ruleset: string, minSeats: number, maxSeats: number): Promise<{ id: string; adminToken: string; seats: number }> {
  // The fewest seats allowed without options: min_seats, unless the server refuses it
  // without options (bad-seat-count), then the next count up.
  for (let seats = minSeats; seats <= maxSeats; seats++) {
    // RulesetInfo.id is a plain string while CreateGame.ruleset is one of the ids: the guard
    // (the contract's own CreateGame schema) is what makes the pair a CreateGame.
    const body: unknown = { ruleset, seats };
    if (!isCreateGame(body)) return fail(`{ruleset: ${ruleset}, seats: ${String(seats)}} is not a CreateGame: ${contract.ajv.errorsText(isCreateGame.errors)}`);
    const { data, error, response } = await client.POST("/v1/games", { body });
    if (data !== undefined) {
      if (response.status !== 201) fail(`create ${ruleset}: status ${String(response.status)}`);
      if (seats !== minSeats) {
        console.log(`  note: ${ruleset} advertises min_seats ${String(minSeats)} but needs ${String(seats)} without options`);
      }
      return { id: data.id, adminToken: data.admin_token, seats };
    }
    if (response.status === 422 && isObject(error) && error["code"] === "bad-seat-count") continue;
    fail(`create ${ruleset} with ${String(seats)} seats: ${explain(response, error)}`);
  }
  return fail(`create ${ruleset}: no seat count between ${String(minSeats)} and ${String(maxSeats)} works without options`);
}

async function claimSeats(gameId: string, count: number, rng: Rng): Promise<Seat[]> {
  const seats: Seat[] = [];
  for (let seat = 0; seat < count; seat++) {
    const { data, error, response } = await client.POST("/v1/games/{id}/seats/{seat}", {
      params: { path: { id: gameId, seat } },
      body: { name: `player ${String(seat)}`, entropy: `play.ts ${String(rng.int(0, 1e9))}` },
    });
    if (data === undefined) fail(`claim seat ${String(seat)}: ${explain(response, error)}`);
    if (response.status !== 201 || data.seat !== seat) fail(`claim seat ${String(seat)}: status ${String(response.status)}, seat ${String(data.seat)}`);
    const expected = seat === count - 1 ? "active" : "open";
    if (data.status !== expected) fail(`after claiming seat ${String(seat)} of ${String(count)} the game is ${data.status}, not ${expected}`);
    seats.push({ seat, token: data.player_token });
  }
  return seats;
}

/**
 * One seat's move: the legal actions at the current version, tried in a random order until
 * the server accepts one. Returns false when the seat has nothing to do.
 */
async function moveOnce(gameId: string, who: Seat, rng: Rng, stats: Stats, keyPrefix: string): Promise<{ status: string } | false> {
  const { data: legal, error, response } = await client.GET("/v1/games/{id}/legal-actions", {
    params: { path: { id: gameId } },
    headers: bearer(who.token),
  });
  if (legal === undefined) return fail(`legal actions of seat ${String(who.seat)}: ${explain(response, error)}`);
  if (legal.seat !== who.seat) fail(`legal actions answered for seat ${String(legal.seat)}, asked as ${String(who.seat)}`);
  if (legal.actions.length === 0) return false;

  const entries = rng.shuffle(legal.actions.map((raw): Entry => readEntry(raw)));
  for (const entry of entries) {
    if (entry.kind === "action") {
      const body: unknown = { action: entry.action };
      if (!isSubmitBody(body)) {
        return fail(`a ready {action} entry does not match the contract's SubmitAction: ${JSON.stringify(entry.action)}: ${contract.ajv.errorsText(isSubmitBody.errors)}`);
      }
      const result = await submit(gameId, who, body, legal.version, stats, keyPrefix);
      if (result === "refused") return fail(`a ready {action} entry was refused: ${JSON.stringify(entry.action)}`);
      return result;
    }

    stats.schemaEntries++;
    if (!isObject(entry.schema)) return fail(`entry ${entry.label}: its schema is not an object`);
    const validate = contract.entrySchema(entry.schema);
    const sampler = new Sampler(rng, entry.schema, { external: (ref) => contract.resolveInDocument(ref) });
    for (let attempt = 0; attempt < SAMPLES_PER_SCHEMA_ENTRY; attempt++) {
      let action: Json;
      try {
        action = sampler.sample();
      } catch (e) {
        if (e instanceof Unsatisfiable) {
          stats.samplerMisses++;
          if (verbose) console.log(`  sampler: ${entry.label}: ${e.message}`);
          continue;
        }
        throw e;
      }
      if (!validate(action)) {
        stats.samplerMisses++;
        if (verbose) console.log(`  sample of ${entry.label} fails its own schema: ${contract.ajv.errorsText(validate.errors)}`);
        continue;
      }
      const body: unknown = { action };
      if (!isSubmitBody(body)) {
        // The entry's schema is looser than the action type (today: no `required`).
        stats.looseSamples++;
        if (verbose) console.log(`  sample of ${entry.label} fits the entry but is not a SubmitAction: ${JSON.stringify(action)}`);
        continue;
      }
      const result = await submit(gameId, who, body, legal.version, stats, keyPrefix);
      if (result !== "refused") return result;
    }
  }
  return fail(`seat ${String(who.seat)}: no legal-action entry was accepted (${String(entries.length)} entries)`);
}

async function submit(
  gameId: string,
  who: Seat,
  body: SubmitBody,
  version: number,
  stats: Stats,
  keyPrefix: string,
): Promise<{ status: string } | "refused"> {
  const key = `${keyPrefix}-${String(stats.moves)}-${String(stats.refusals)}`;
  const { data, error, response } = await client.POST("/v1/games/{id}/actions", {
    params: { path: { id: gameId }, header: { "if-match": `"${String(version)}"`, "idempotency-key": key } },
    headers: bearer(who.token),
    body,
  });
  if (data === undefined) {
    if (response.status === 422) {
      stats.refusals++;
      if (verbose) console.log(`  refused: ${explain(response, error)} for ${JSON.stringify(body.action)}`);
      return "refused";
    }
    return fail(`seat ${String(who.seat)} submitting ${JSON.stringify(body.action)}: ${explain(response, error)}`);
  }
  if (response.status !== 200) fail(`submit: status ${String(response.status)}`);
  if (data.seq !== stats.lastSeq + 1) fail(`submit: seq ${String(data.seq)} after ${String(stats.lastSeq)}`);
  if (data.version <= version) fail(`submit: version ${String(data.version)} not after ${String(version)}`);
  stats.lastSeq = data.seq;
  stats.moves++;
  if (verbose) console.log(`  seat ${String(who.seat)}: ${JSON.stringify(body.action)} -> ${data.status}`);
  return { status: data.status };
}

async function checkAudit(gameId: string, stats: Stats, seatCount: number): Promise<{ pages: number; reason: string }> {
  const seqs: number[] = [];
  const reasons = new Set<string>();
  let after: number | undefined;
  let pages = 0;
  for (;;) {
    const { data, error, response } = await client.GET("/v1/games/{id}/audit", {
      params: { path: { id: gameId }, query: after === undefined ? { limit: AUDIT_PAGE } : { after, limit: AUDIT_PAGE } },
    });
    if (data === undefined) return fail(`audit: ${explain(response, error)}`);
    pages++;
    if (data.status !== "finished") fail(`audit: status ${data.status}`);
    if (typeof data.server_secret !== "string") fail("audit: no server secret once finished");
    if (data.outcome === undefined || data.outcome === null) return fail("audit: no outcome once finished");
    reasons.add(data.outcome.reason);
    if (!Array.isArray(data.entropies) || data.entropies.length !== seatCount) fail("audit: not every seat's entropy");
    if (data.entries.length > AUDIT_PAGE) fail(`audit: ${String(data.entries.length)} entries on a page of ${String(AUDIT_PAGE)}`);
    for (const entry of data.entries) {
      if (typeof entry.state_hash !== "string") fail(`audit: entry ${String(entry.seq)} has no state hash`);
      if (entry.seq > 0 && entry.action === null) fail(`audit: entry ${String(entry.seq)} hides its action once finished`);
      seqs.push(entry.seq);
    }
    const next = data.next_after;
    if (next === undefined || next === null) break;
    if (data.entries.length === 0) fail("audit: an empty page with a next_after");
    after = next;
  }
  const expected = stats.lastSeq + 1;
  if (seqs.length !== expected || seqs.some((s, i) => s !== i)) {
    fail(`audit: ${String(seqs.length)} entries (${String(seqs[0])}..${String(seqs[seqs.length - 1])}), expected seq 0..${String(stats.lastSeq)}`);
  }
  if (reasons.size !== 1) fail(`audit: the pages disagree on the outcome (${[...reasons].join(", ")})`);
  return { pages, reason: [...reasons].join() };
}

async function playRuleset(ruleset: string, minSeats: number, maxSeats: number): Promise<void> {
  const started = Date.now();
  const rng = Rng.derive(seed, ruleset);
  const game = await createGame(ruleset, minSeats, maxSeats);
  const seats = await claimSeats(game.id, game.seats, rng);
  const stats: Stats = { moves: 0, refusals: 0, samplerMisses: 0, looseSamples: 0, schemaEntries: 0, lastSeq: 0 };
  const keyPrefix = `play-${String(seed)}-${game.id}`;

  let status = "active";
  while (status !== "finished") {
    if (stats.moves >= MAX_MOVES) fail(`${ruleset}: not finished after ${String(MAX_MOVES)} moves`);
    const { data: envelope, error, response } = await client.GET("/v1/games/{id}", {
      params: { path: { id: game.id } },
      headers: bearer(game.adminToken),
    });
    if (envelope === undefined) return fail(`get game: ${explain(response, error)}`);
    status = envelope.status;
    if (status === "finished") break;
    if (status !== "active") fail(`game status ${status}`);
    const waiting = [...new Set([...envelope.to_act, ...envelope.waiting_on])];
    if (waiting.length === 0) fail(`${ruleset}: active but no seat to act (version ${String(envelope.version)})`);
    let moved = false;
    for (const seatNo of rng.shuffle(waiting)) {
      const who = seats[seatNo] ?? fail(`to_act names seat ${String(seatNo)} of ${String(seats.length)}`);
      const result = await moveOnce(game.id, who, rng, stats, keyPrefix);
      if (result === false) continue;
      moved = true;
      status = result.status;
      break; // read the game again: the move may have changed who is waited on
    }
    if (!moved) fail(`${ruleset}: seats ${waiting.join(",")} are waited on but none has a legal action`);
  }
  const { pages, reason } = await checkAudit(game.id, stats, game.seats);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${ruleset}: ${String(game.seats)} seats, ${String(stats.moves)} moves, ${String(stats.refusals)} refusals (422), ` +
      `${String(stats.schemaEntries)} schema entries tried, ${String(stats.samplerMisses)} samples redrawn, ${String(stats.looseSamples)} fit the entry but not SubmitAction, ` +
      `audit ${String(stats.lastSeq + 1)} entries in ${String(pages)} pages, ended by ${reason}, ${seconds}s`,
  );
}

async function main(): Promise<void> {
  const { data, error, response } = await client.GET("/v1/rulesets");
  if (data === undefined) return fail(`rulesets: ${explain(response, error)}`);
  if (data.rulesets.length === 0) fail("no rulesets");
  const only = process.env["BEURS_PLAY_ONLY"];
  for (const r of data.rulesets) {
    if (only !== undefined && only !== r.id) continue;
    await playRuleset(r.id, r.min_seats, r.max_seats);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Failure ? `FAIL: ${e.message}` : e);
  process.exitCode = 1;
});
