/**
 * Beurs at /play: a lobby, join links, and a page per game that follows it live (long-poll),
 * draws the seat's view, offers every legal move and tells the log in words. Everything comes
 * from the public API; nothing here knows a game's rules.
 *
 * Routes (in the URL's fragment, which browsers never send to a server):
 *   #/                      the lobby
 *   #/game/<id>             a game, as this browser's seat (or as a spectator)
 *   #/join/<id>/<seat>      claim a seat: the link a game's creator shares
 */
import { api, ApiFailure, bearer, failure, type Envelope, type JsonSchema, type RulesetInfo } from "./api";
import { renderBoard } from "./boards";
import { h, replace } from "./dom";
import { sample, schemaFields, words } from "./forms";
import { member } from "./members";
import { knownGame, knownGames, remember } from "./tokens";
import { isJson, type Json } from "../../typescript/src/json";

const app = document.getElementById("app") ?? document.body;

/** Bumped on every navigation: loops of an old page stop when they see it changed. */
let generation = 0;

/** The rulesets' names, by id, once fetched. */
let rulesetNames: Map<string, string> | undefined;

async function rulesetName(id: string): Promise<string> {
  if (!rulesetNames) {
    const { data } = await api.GET("/v1/rulesets");
    rulesetNames = new Map((data?.rulesets ?? []).map((ruleset) => [ruleset.id, ruleset.name]));
  }
  return rulesetNames.get(id) ?? words(id);
}

function route(): void {
  generation += 1;
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  const [kind, id, seat] = parts;
  const page =
    kind === "game" && id
      ? gamePage(id)
      : kind === "join" && id && seat !== undefined && /^\d+$/.test(seat)
        ? joinPage(id, Number(seat))
        : lobbyPage();
  page.catch((error: unknown) => {
    replace(app, h("p", { class: "error", role: "alert" }, `Something went wrong: ${message(error)}`), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
  });
}

function message(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

function randomEntropy(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------
// The lobby

async function lobbyPage(): Promise<void> {
  document.title = "Beurs";
  const { data, error, response } = await api.GET("/v1/rulesets");
  if (!data) throw failure(error, response);
  const rulesets = data.rulesets;
  const cards = rulesets.map((ruleset) =>
    h(
      "article",
      { class: "ruleset-card", "data-testid": "ruleset-card", "data-ruleset": ruleset.id },
      h("h3", {}, ruleset.name),
      h("p", {}, ruleset.summary),
      h("p", { class: "seats" }, seatWords(ruleset)),
    ),
  );
  replace(
    app,
    h("header", {}, h("h1", {}, "Beurs"), h("p", {}, "Speculative-market board games, played in the browser. Create a game, send each player their seat's link, play.")),
    myGames(),
    h("section", { "aria-labelledby": "new-game" }, h("h2", { id: "new-game" }, "New game"), createForm(rulesets)),
    h("section", { "aria-labelledby": "games" }, h("h2", { id: "games" }, "The games"), h("div", { class: "cards" }, cards)),
  );
}

function seatWords(ruleset: RulesetInfo): string {
  const extra = ruleset.seats_with_options.map((choice) => `${choice.seats} with ${Object.keys(choice.options).map(words).join(", ")}`);
  return `${ruleset.min_seats}–${ruleset.max_seats} players${extra.length ? ` (${extra.join("; ")})` : ""}`;
}

function myGames(): HTMLElement {
  const known = Object.entries(knownGames()).sort(([, a], [, b]) => b.created.localeCompare(a.created));
  return h(
    "section",
    { "aria-labelledby": "mine", "data-testid": "my-games" },
    h("h2", { id: "mine" }, "My games"),
    known.length === 0
      ? h("p", {}, "None yet: games you create or join in this browser appear here.")
      : h(
          "ul",
          {},
          known.map(([id, game]) =>
            h("li", {}, h("a", { href: `#/game/${id}` }, `${words(game.ruleset)} ${id.slice(2, 8)}`), game.seat !== undefined ? ` — seat ${game.seat + 1}${game.name ? ` as ${game.name}` : ""}` : " — created here"),
          ),
        ),
  );
}

/** The defaults of an options schema, as a starting value for its form. */
function defaults(schema: JsonSchema): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  if (typeof schema === "boolean") return out;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (typeof property !== "boolean" && isJson(property.default)) out[key] = property.default;
  }
  return out;
}

function createForm(rulesets: RulesetInfo[]): HTMLElement {
  const select = h("select", { id: "ruleset", name: "ruleset", "data-testid": "ruleset-select" }, rulesets.map((ruleset) => h("option", { value: ruleset.id }, ruleset.name)));
  const seats = h("input", { id: "seats", name: "seats", type: "number", inputmode: "numeric", step: 1, required: true, "data-testid": "seats-input" });
  const options = h("details", { "data-testid": "options" });
  const problem = h("p", { class: "error", role: "alert", "data-testid": "error" });
  let readOptions: () => Json | undefined = () => ({});
  let initial: { [key: string]: Json } = {};
  const chosen = (): RulesetInfo | undefined => rulesets.find((ruleset) => ruleset.id === select.value);
  const update = (): void => {
    const ruleset = chosen();
    if (!ruleset) return;
    const counts = [ruleset.min_seats, ruleset.max_seats, ...ruleset.seats_with_options.map((choice) => choice.seats)];
    seats.min = String(Math.min(...counts));
    seats.max = String(Math.max(...counts));
    seats.value = String(Math.max(ruleset.min_seats, Math.min(ruleset.max_seats, 3)));
    initial = defaults(ruleset.options_schema);
    const fields = schemaFields(ruleset.options_schema, initial);
    readOptions = () => fields.read();
    replace(options, h("summary", {}, "Options"), fields.element);
  };
  select.addEventListener("change", update);
  update();
  const form = h(
    "form",
    { class: "create" },
    h("div", { class: "field" }, h("label", { for: "ruleset" }, "Game"), select),
    h("div", { class: "field" }, h("label", { for: "seats" }, "Players"), seats),
    options,
    h("button", { type: "submit", "data-testid": "create-game" }, "Create game"),
    problem,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    problem.textContent = "";
    const ruleset = chosen();
    if (!ruleset) return;
    let options: { [key: string]: Json } = {};
    try {
      const read = readOptions();
      if (read !== null && typeof read === "object" && !Array.isArray(read)) {
        // Only what the player changed: the server fills in the rest.
        for (const [key, value] of Object.entries(read)) {
          if (JSON.stringify(value) !== JSON.stringify(initial[key])) options[key] = value;
        }
      }
    } catch (error) {
      problem.textContent = `The options are not valid: ${message(error)}`;
      return;
    }
    void (async () => {
      // The options are built from the ruleset's schema at run time: the server validates them.
      const answer = await postJson("/v1/games", { ruleset: ruleset.id, seats: Number(seats.value), options }, {});
      if (!answer.ok) {
        problem.textContent = await problemOf(answer);
        return;
      }
      const created: unknown = await answer.json();
      const id = field(created, "id");
      const admin = field(created, "admin_token");
      if (id === undefined) {
        problem.textContent = "The server did not say which game it created.";
        return;
      }
      remember(id, { ruleset: ruleset.id, admin });
      location.hash = `#/game/${id}`;
    })();
  });
  return form;
}

// ---------------------------------------------------------------------------------------
// Joining

async function joinPage(id: string, seat: number): Promise<void> {
  const { data: game, error, response } = await api.GET("/v1/games/{id}", { params: { path: { id } } });
  if (!game) throw failure(error, response);
  const title = await rulesetName(game.ruleset);
  document.title = `Join ${title} — Beurs`;
  const known = knownGame(id);
  if (known?.token) {
    location.hash = `#/game/${id}`;
    return;
  }
  const taken = game.seats[seat]?.claimed ?? true;
  const name = h("input", { id: "player-name", name: "name", required: true, maxlength: 64, autocomplete: "nickname", "data-testid": "player-name" });
  const problem = h("p", { class: "error", role: "alert", "data-testid": "error" });
  const form = h(
    "form",
    {},
    h("div", { class: "field" }, h("label", { for: "player-name" }, "Your name"), name),
    h("button", { type: "submit", "data-testid": "claim-seat" }, `Take seat ${seat + 1}`),
    problem,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void (async () => {
      const { data, error, response } = await api.POST("/v1/games/{id}/seats/{seat}", {
        params: { path: { id, seat } },
        body: { name: name.value.trim(), entropy: randomEntropy() },
      });
      if (!data) {
        problem.textContent = message(failure(error, response));
        return;
      }
      // A player's claim always carries the seat's token (only bot seats have none).
      if (data.player_token === undefined) {
        problem.textContent = "The server answered the claim without a seat token.";
        return;
      }
      remember(id, { ruleset: game.ruleset, seat, token: data.player_token, name: name.value.trim() });
      location.hash = `#/game/${id}`;
    })();
  });
  replace(
    app,
    h("p", {}, h("a", { href: "#/" }, "← Lobby")),
    h("h1", {}, `Join a game of ${title}`),
    taken ? h("p", { role: "alert" }, `Seat ${seat + 1} is taken.`, " ", h("a", { href: `#/game/${id}` }, "Watch the game")) : form,
  );
  name.focus();
}

// ---------------------------------------------------------------------------------------
// A game

interface GameState {
  envelope: Envelope;
  spectator: unknown;
  lastSeq: number;
}

async function gamePage(id: string): Promise<void> {
  const mine = generation;
  const known = knownGame(id);
  const token = known?.token;
  const root = h("div", { class: "game", "data-testid": "game" });
  const header = h("header", { class: "game-header" });
  const status = h("p", { class: "status", role: "status", "aria-live": "polite", "data-testid": "status" });
  const joins = h("section", { class: "joins" });
  const players = h("section", { class: "players", "data-testid": "players", "aria-label": "Players" });
  const board = h("section", { class: "board", "data-testid": "board", "aria-label": "The board" });
  const actions = h("section", { class: "actions", "data-testid": "actions", "aria-label": "Your moves" });
  const problem = h("p", { class: "error", role: "alert", "data-testid": "error" });
  const outcome = h("section", { class: "outcome" });
  const logList = h("ol", { class: "log" });
  const log = h("section", { class: "log-section", "data-testid": "log", "aria-live": "polite", "aria-label": "What happened" }, h("h2", {}, "What happened"), logList);
  root.append(header, status, joins, outcome, h("div", { class: "columns" }, h("div", { class: "main" }, board), h("div", { class: "side" }, actions, problem, players, log)));
  replace(app, h("p", { class: "back" }, h("a", { href: "#/" }, "← Lobby")), root);

  const state: GameState = { envelope: await fetchEnvelope(id, token), spectator: undefined, lastSeq: -1 };
  const title = await rulesetName(state.envelope.ruleset);
  let busy = false;

  // One refresh at a time, newest game first: a move's answer and the long-poll may both bring
  // a new version, and two renders must not interleave.
  let queue: Promise<void> = Promise.resolve();
  const refresh = (envelope: Envelope): Promise<void> => {
    queue = queue.then(async () => {
      if (envelope.version < state.envelope.version) return;
      state.envelope = envelope;
      if (token && envelope.view !== null) {
        const { data } = await api.GET("/v1/games/{id}", { params: { path: { id } } });
        state.spectator = data?.view;
      }
      await render();
    }).catch((error: unknown) => {
      problem.textContent = message(error);
    });
    return queue;
  };

  const submit = async (action: Json, version: number): Promise<void> => {
    if (!token || busy) return;
    busy = true;
    problem.textContent = "";
    try {
      const key = crypto.randomUUID();
      const headers = { ...bearer(token), "if-match": `"${version}"`, "idempotency-key": key };
      // Moves from forms are built from their schema at run time: the engine validates them.
      const send = () => postJson(`/v1/games/${encodeURIComponent(id)}/actions`, { action }, headers);
      // A network failure may hide an applied move: the same key makes the retry safe.
      const answer = await send().catch(() => send());
      if (!answer.ok) problem.textContent = await problemOf(answer);
      await refresh(await fetchEnvelope(id, token));
    } catch (error) {
      problem.textContent = message(error);
    } finally {
      busy = false;
    }
  };

  const render = async (): Promise<void> => {
    const envelope = state.envelope;
    const you = envelope.you?.seat ?? null;
    const names = envelope.seats.map((seat) => seat.name ?? `Seat ${seat.seat + 1}`);
    const yourTurn = you !== null && envelope.to_act.includes(you) && envelope.status === "active";
    document.title = `${yourTurn ? "▶ " : ""}${title} — Beurs`;
    root.dataset.version = String(envelope.version);
    root.dataset.status = envelope.status;
    root.dataset.seat = you === null ? "" : String(you);
    root.dataset.ruleset = envelope.ruleset;
    replace(header, h("h1", {}, title), h("p", { class: "you" }, you === null ? "You are watching." : `You are ${names[you] ?? ""}, seat ${you + 1}.`));
    status.textContent =
      envelope.status === "open"
        ? "Waiting for players to take their seats."
        : envelope.status === "finished"
          ? "Finished."
          : yourTurn
            ? "Your turn."
            : `Waiting for ${envelope.waiting_on.map((seat) => names[seat] ?? "").join(", ")}.`;
    renderJoins(envelope);
    replace(
      players,
      h("h2", {}, "Players"),
      h(
        "ul",
        {},
        envelope.seats.map((seat) =>
          h(
            "li",
            { class: seat.seat === you ? "you" : "" },
            names[seat.seat],
            seat.claimed ? "" : " (free)",
            seat.resigned ? " (resigned: a bot plays on)" : seat.bot ? " (bot)" : "",
            envelope.to_act.includes(seat.seat) ? " — to act" : "",
            deadlineWords(envelope.clock?.seats[seat.seat]?.deadline ?? null),
            seat.seat === you ? " (you)" : "",
          ),
        ),
      ),
    );
    replace(board, renderBoard(envelope.ruleset, envelope.view, { you, names, toAct: envelope.to_act }, state.spectator));
    await renderActions(envelope, you, yourTurn);
    await renderLog(names);
    renderOutcome(envelope, names);
    root.dataset.yourTurn = String(yourTurn);
  };

  /** A move clock's deadline as a player reads it: " — until 14:05" (local time). */
  const deadlineWords = (deadline: string | null): string =>
    deadline === null ? "" : ` — until ${new Date(deadline).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })}`;

  const renderJoins = (envelope: Envelope): void => {
    const open = envelope.seats.filter((seat) => !seat.claimed);
    if (open.length === 0) {
      replace(joins);
      return;
    }
    const base = `${location.origin}${location.pathname}`;
    replace(
      joins,
      h("h2", {}, "Invite players"),
      h("p", {}, "Send each player the link of a free seat (the creator takes one too)."),
      h(
        "ul",
        {},
        open.map((seat) => {
          const url = `${base}#/join/${id}/${seat.seat}`;
          return h(
            "li",
            {},
            h("a", { href: url, "data-testid": "join-link", "data-seat": seat.seat }, `Seat ${seat.seat + 1}`),
            " ",
            h("button", { type: "button", class: "small", onclick: () => void navigator.clipboard?.writeText(url) }, "Copy link"),
          );
        }),
      ),
    );
  };

  const renderActions = async (envelope: Envelope, you: number | null, yourTurn: boolean): Promise<void> => {
    if (!token || you === null || !yourTurn) {
      replace(actions, h("h2", {}, "Your moves"), h("p", {}, you === null ? "Take a seat to play." : envelope.status === "finished" ? "The game is over." : "Not your turn."));
      return;
    }
    const { data: legal, error, response } = await api.GET("/v1/games/{id}/legal-actions", { params: { path: { id } }, headers: bearer(token) });
    if (!legal) {
      replace(actions, h("h2", {}, "Your moves"), h("p", { class: "error" }, message(failure(error, response))));
      return;
    }
    const buttons: HTMLElement[] = [];
    const forms: HTMLElement[] = [];
    legal.actions.forEach((entry, index) => {
      if ("action" in entry) {
        const sealed = entry.sealed;
        buttons.push(
          h(
            "button",
            { type: "button", class: sealed ? "action sealed" : "action", "data-testid": "action", onclick: () => void submit(entry.action, legal.version) },
            entry.text,
            sealed ? h("span", { class: "sealed-note" }, " (sealed: only you see it until it is revealed)") : null,
          ),
        );
      } else {
        forms.push(familyForm(entry.label, entry.schema, legal.version, index));
      }
    });
    replace(actions, h("h2", {}, "Your moves"), buttons.length ? h("div", { class: "buttons" }, buttons) : null, forms);
  };

  const familyForm = (label: string, schema: JsonSchema, version: number, index: number): HTMLElement => {
    let seed = envelopeSeed(state.envelope.version, index);
    const form = h("form", { class: "family", "data-testid": "action-form" });
    const build = (): void => {
      const fields = schemaFields(schema, sample(schema, seed));
      const suggest = h("button", { type: "button", class: "small", onclick: () => { seed += 1; build(); } }, "Suggest");
      replace(form, h("fieldset", {}, h("legend", {}, label), fields.element, h("div", { class: "form-buttons" }, suggest, h("button", { type: "submit" }, "Play"))));
      form.onsubmit = (event) => {
        event.preventDefault();
        let value: Json | undefined;
        try {
          value = fields.read();
        } catch (error) {
          problem.textContent = `Not a valid move: ${message(error)}`;
          return;
        }
        if (value === null || typeof value !== "object" || Array.isArray(value)) {
          problem.textContent = "Fill in the move first.";
          return;
        }
        // The engine has the final word on what the schema cannot say.
        void submit(value, version);
      };
    };
    build();
    return form;
  };

  const renderLog = async (names: string[]): Promise<void> => {
    for (;;) {
      const { data } = await api.GET("/v1/games/{id}/log", {
        params: { path: { id }, query: { after: state.lastSeq >= 0 ? state.lastSeq : undefined, limit: 200 } },
        headers: bearer(token),
      });
      if (!data) return;
      for (const entry of data.entries) {
        state.lastSeq = entry.seq;
        const who = entry.seat === null || entry.seat === undefined ? "Setup" : names[entry.seat] ?? "";
        const lines = [entry.action_text, ...entry.event_texts].filter((line): line is string => typeof line === "string" && line !== "");
        if (!entry.action_text && typeof entry.seat === "number") lines.unshift(`${who} made a sealed move.`);
        for (const line of lines) logList.append(h("li", { "data-seq": entry.seq }, line));
      }
      if (data.next_after === null) break;
    }
    logList.scrollTop = logList.scrollHeight;
  };

  const renderOutcome = (envelope: Envelope, names: string[]): void => {
    const result = envelope.outcome;
    if (!result) {
      replace(outcome);
      return;
    }
    const winners = result.winners.map((seat) => names[seat] ?? "").join(" and ");
    const verifyResult = h("p", { "data-testid": "verify-result", role: "status" });
    const verify = h("button", { type: "button", "data-testid": "verify", onclick: () => void verifySeed(id, envelope.seed_commitment, verifyResult) }, "Verify in your browser");
    replace(
      outcome,
      h(
        "div",
        { "data-testid": "outcome", class: "outcome-box" },
        h("h2", {}, `${winners} won`),
        h("p", {}, `The game ended: ${words(result.reason)}.`),
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Rank"))),
          h("tbody", {}, names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, result.scores[seat] ?? ""), h("td", {}, result.ranks[seat] ?? "")))),
        ),
        h("h3", {}, "Was it fair?"),
        h("p", {}, "Before the first card was dealt, the server published a commitment to its secret. Now the secret is revealed: check that it matches."),
        verify,
        verifyResult,
        h("p", {}, "To replay every shuffle and die roll too: ", h("code", {}, `beurs verify ${location.origin}/v1/games/${id}/audit`)),
      ),
    );
  };

  await refresh(state.envelope);
  // Follow the game until the page changes.
  while (mine === generation) {
    try {
      const { data, response } = await api.GET("/v1/games/{id}", {
        params: { path: { id }, query: { after_version: state.envelope.version, wait: 20 } },
        headers: bearer(token),
      });
      if (mine !== generation) break;
      if (data && data.version !== state.envelope.version && !busy) await refresh(data);
      else if (!data && response.status >= 400) await sleep(2000);
    } catch {
      await sleep(2000);
    }
  }
}

/** POSTs a JSON body built at run time (the server is its validator). */
function postJson(path: string, body: Json, headers: Record<string, string>): Promise<Response> {
  return fetch(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** A refusal in words: the problem's detail and code. */
async function problemOf(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => undefined);
  const detail = field(body, "detail") ?? field(body, "title") ?? `the server answered ${response.status}`;
  const code = field(body, "code");
  return code ? `${detail} (${code})` : detail;
}

/** A string member of a JSON object, if it has one. */
function field(value: unknown, key: string): string | undefined {
  const found = member(value, key);
  return typeof found === "string" ? found : undefined;
}

function envelopeSeed(version: number, index: number): number {
  return version * 7919 + index * 104729 + 1;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function fetchEnvelope(id: string, token: string | undefined): Promise<Envelope> {
  const { data, error, response } = await api.GET("/v1/games/{id}", { params: { path: { id } }, headers: bearer(token) });
  if (!data) throw failure(error, response);
  return data;
}

/** Recomputes the seed commitment from the revealed secret: SHA-256 of its 32 bytes. */
async function verifySeed(id: string, commitment: string, out: HTMLElement): Promise<void> {
  out.textContent = "Checking…";
  const { data, error, response } = await api.GET("/v1/games/{id}/audit", { params: { path: { id }, query: { limit: 1 } } });
  if (!data) {
    out.textContent = message(failure(error, response));
    return;
  }
  const secret = data.server_secret;
  if (!secret || !/^[0-9a-f]{64}$/.test(secret)) {
    out.textContent = "The secret is not revealed yet.";
    return;
  }
  const bytes = new Uint8Array(secret.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? []);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  out.textContent =
    hex === commitment && hex === data.seed_commitment
      ? `✓ The revealed secret hashes to the commitment published at the start (${commitment.slice(0, 16)}…).`
      : `✗ The revealed secret does not match the commitment: ${hex.slice(0, 16)}… is not ${commitment.slice(0, 16)}….`;
}

window.addEventListener("hashchange", route);
route();
