/**
 * Beurs at /play: a lobby, join links, and a page per game that follows it live (its event
 * stream, or long-polls where streams fail),
 * draws the seat's view, offers every legal move and tells the log in words. Everything comes
 * from the public API; nothing here knows a game's rules.
 *
 * Routes (in the URL's fragment, which browsers never send to a server):
 *   #/                      the lobby
 *   #/game/<id>             a game, as this browser's seat (or as a spectator)
 *   #/join/<id>/<seat>      claim a seat: the link a game's creator shares
 */
import { api, bearer, failure, type JsonSchema, type RulesetInfo } from "./api";
import { startTicker } from "./clock";
import { h, replace } from "./dom";
import { humanise, schemaFields, words } from "./forms";
import { boardMoves, GameModel } from "./game-model";
import { field, message, postJson, problemOf } from "./requests";
import { knownGame, knownGames, remember } from "./tokens";
import { actionsView } from "./views/actions";
import { boardView } from "./views/board";
import { controlsView } from "./views/controls";
import { headerView } from "./views/header";
import { joinsView } from "./views/joins";
import { logView } from "./views/log";
import { outcomeView } from "./views/outcome";
import { playersView } from "./views/players";
import { replayView } from "./views/replay";
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

/**
 * The games this browser is in, newest first, each with whose turn it is: asked of
 * `GET /v1/me/games` with the game's token, the players' names from the game itself.
 */
function myGames(): HTMLElement {
  const known = Object.entries(knownGames())
    .sort(([, a], [, b]) => b.created.localeCompare(a.created))
    .slice(0, 20);
  const items = known.map(([id, game]) => {
    const turn = h("span", { class: "turn", "data-testid": "my-game-turn" });
    const token = game.token ?? game.admin;
    if (token) void gameTurn(id, token, game.seat).then((words) => (turn.textContent = words ? ` — ${words}` : ""));
    return h(
      "li",
      {},
      h("a", { href: `#/game/${id}` }, `${humanise(words(game.ruleset))} ${id.slice(2, 8)}`),
      game.seat !== undefined ? ` — you are ${game.name ?? `player ${game.seat + 1}`}` : " — created here",
      turn,
    );
  });
  return h(
    "section",
    { "aria-labelledby": "mine", "data-testid": "my-games" },
    h("h2", { id: "mine" }, "My games"),
    known.length === 0 ? h("p", {}, "None yet: games you create or join in this browser appear here.") : h("ul", {}, items),
  );
}

/** Whose turn it is in a game of this browser, in words ("your turn", "waiting for Ben"). */
async function gameTurn(id: string, token: string, seat: number | undefined): Promise<string> {
  const [mine, game] = await Promise.all([api.GET("/v1/me/games", { headers: bearer(token) }), api.GET("/v1/games/{id}", { params: { path: { id } } })]);
  const entry = mine.data?.games.find((candidate) => candidate.id === id);
  const status = entry?.status ?? game.data?.status;
  if (status === undefined) return "";
  if (status === "finished") return "finished";
  if (status === "open") return "waiting for players";
  if (entry?.your_turn && seat !== undefined) return "your turn";
  const waiting = entry?.waiting_on ?? game.data?.waiting_on ?? [];
  const names = waiting.map((waited) => game.data?.seats[waited]?.name ?? `player ${waited + 1}`);
  return names.length ? `waiting for ${names.join(", ")}` : "";
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

/** The move clocks the lobby offers: ISO 8601 durations per move, and their words. */
const CLOCKS: [string, string][] = [
  ["", "None"],
  ["PT1M", "1 minute per move"],
  ["PT5M", "5 minutes per move"],
  ["PT1H", "1 hour per move"],
  ["PT24H", "24 hours per move"],
  ["P3D", "3 days per move"],
];

function createForm(rulesets: RulesetInfo[]): HTMLElement {
  const select = h("select", { id: "ruleset", name: "ruleset", "data-testid": "ruleset-select" }, rulesets.map((ruleset) => h("option", { value: ruleset.id }, ruleset.name)));
  const seats = h("input", { id: "seats", name: "seats", type: "number", inputmode: "numeric", step: 1, required: true, "data-testid": "seats-input" });
  const options = h("details", { "data-testid": "options" });
  const clock = h(
    "select",
    { id: "clock", name: "clock", "data-testid": "clock-select" },
    CLOCKS.map(([value, label]) => h("option", { value }, label)),
  );
  const timeout = h(
    "select",
    { id: "on-timeout", name: "on_timeout", "data-testid": "timeout-select" },
    h("option", { value: "bot" }, "a bot plays that turn"),
    h("option", { value: "pass" }, "the player passes where the rules allow"),
    h("option", { value: "drop" }, "the player is out: a bot plays on"),
  );
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
    // Before anyone sits, seats are "Player 1", "Player 2", …
    const seatNames = Array.from({ length: Number(seats.max) }, (_, seat) => `Player ${seat + 1}`);
    const fields = schemaFields(ruleset.options_schema, initial, { names: seatNames });
    readOptions = () => fields.read();
    replace(options, h("summary", {}, "Rules options (the standard game unless you change them)"), fields.element);
  };
  select.addEventListener("change", update);
  // What happens at a timeout matters only with a clock.
  const clockChosen = (): void => {
    timeout.disabled = clock.value === "";
  };
  clock.addEventListener("change", clockChosen);
  clockChosen();
  update();
  const form = h(
    "form",
    { class: "create" },
    h("div", { class: "field" }, h("label", { for: "ruleset" }, "Game"), select),
    h("div", { class: "field" }, h("label", { for: "seats" }, "Players"), seats),
    h("div", { class: "field" }, h("label", { for: "clock" }, "Move clock"), clock),
    h("div", { class: "field" }, h("label", { for: "on-timeout" }, "When time runs out"), timeout),
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
      const body: { [key: string]: Json } = { ruleset: ruleset.id, seats: Number(seats.value), options };
      if (clock.value !== "") body.clock = { per_move: clock.value, on_timeout: timeout.value };
      const answer = await postJson("/v1/games", body, {});
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

/**
 * A game's page: its model (game-model.ts) and a view per area (views/), laid out here and
 * drawn again, top to bottom, at every new version of the game.
 */
async function gamePage(id: string): Promise<void> {
  const mine = generation;
  startTicker();
  const header = headerView();
  const joins = joinsView();
  const outcome = outcomeView();
  const board = boardView();
  const actions = actionsView(board.board);
  const players = playersView();
  const log = logView();
  const controls = controlsView();
  // A finished game's replay: a slider over the log that draws the board as it stood then.
  const replay = replayView(board, log.list);
  const problem = h("p", { class: "error", role: "alert", "data-testid": "error" });
  const root = h(
    "div",
    { class: "game", "data-testid": "game" },
    header.header,
    header.status,
    joins.element,
    outcome.element,
    h("div", { class: "columns" }, h("div", { class: "main" }, replay.element, board.board), h("div", { class: "side" }, actions.element, problem, players.element, log.element, controls.element), board.details),
  );
  replace(app, h("p", { class: "back" }, h("a", { href: "#/" }, "← Lobby")), root);

  const model = await GameModel.load(id, { alive: () => mine === generation, reopen: route, rulesetName });
  model.onProblem = (text) => {
    problem.textContent = text;
  };
  model.onChange = async () => {
    const envelope = model.envelope;
    const you = model.you;
    const yourTurn = model.yourTurn;
    document.title = `${yourTurn ? "▶ " : ""}${model.title} — Beurs`;
    root.dataset.version = String(envelope.version);
    root.dataset.status = envelope.status;
    root.dataset.seat = you === null ? "" : String(you);
    root.dataset.ruleset = envelope.ruleset;
    header.render(model);
    joins.render(model);
    players.render(model);
    // The seat's legal moves, read once: the board makes its spaces and cards play them, and
    // the moves panel lists them.
    const legal = model.playing ? await model.readLegal() : undefined;
    const playable = yourTurn && legal && "legal" in legal ? legal.legal : undefined;
    board.setLive(playable ? boardMoves(playable) : [], playable ? actions.picks(playable) : []);
    replay.drawBoard(model);
    actions.render(model, legal);
    await log.render(model);
    replay.render(model);
    controls.render(model);
    outcome.render(model);
    root.dataset.yourTurn = String(yourTurn);
    // The version whose page is completely drawn (moves, log and all).
    root.dataset.drawn = String(envelope.version);
  };
  await model.refresh(model.envelope);
  await model.follow();
}

window.addEventListener("hashchange", route);
route();
