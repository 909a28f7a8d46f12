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
import { api, ApiFailure, bearer, failure, type BotKind, type Envelope, type HistoryPoint, type JsonSchema, type LegalActions, type LogEntry, type RulesetInfo } from "./api";
import { renderDrawing, renderGeneric } from "./boards";
import type { BoardContext, BoardMove, BoardPick } from "./boards/board";
import { countdown, startTicker } from "./clock";
import { h, replace } from "./dom";
import { familyTitle, humanise, schemaFields, viewLabels, words } from "./forms";
import { announcedGroup, entryWords } from "./logwords";
import { member } from "./members";
import { followStream } from "./stream";
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

/** The bots a seat can be given, and their words. */
const BOTS: [BotKind, string][] = [
  ["basic", "Basic bot"],
  ["strong", "Strong bot"],
  ["random", "Random bot"],
];

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

interface GameState {
  envelope: Envelope;
  spectator: unknown;
  lastSeq: number;
  /** The seq of this seat's last move of its own (not the clock's or a bot's), or -1. */
  lastOwnSeq: number;
  /** The turn or round the last log entry announced, which the next entry starts. */
  group?: string;
}

async function gamePage(id: string): Promise<void> {
  const mine = generation;
  const known = knownGame(id);
  const token = known?.token;
  const admin = known?.admin;
  startTicker();
  const root = h("div", { class: "game", "data-testid": "game" });
  const header = h("header", { class: "game-header" });
  const status = h("p", { class: "status", role: "status", "aria-live": "polite", "data-testid": "status" });
  const joins = h("section", { class: "joins" });
  const players = h("section", { class: "players", "data-testid": "players", "aria-label": "Players" });
  const board = h("section", { class: "board", "data-testid": "board", "aria-label": "The board" });
  const actions = h("section", { class: "actions", "data-testid": "actions", "aria-label": "Your moves" });
  // A finished game's replay: a slider over the log that draws the board as it stood then.
  const replayBox = h("section", { class: "replay", "data-testid": "replay", "aria-label": "Replay" });
  const problem = h("p", { class: "error", role: "alert", "data-testid": "error" });
  const outcome = h("section", { class: "outcome" });
  const controls = h("section", { class: "controls", "data-testid": "controls", "aria-label": "Game controls" });
  // The log scrolls on its own: a keyboard reaches it (tabindex), named by its section.
  const logList = h("ol", { class: "log", tabindex: 0, "aria-label": "The log, oldest first" });
  const log = h("section", { class: "log-section", "data-testid": "log", "aria-live": "polite", "aria-label": "What happened" }, h("h2", {}, "What happened"), logList);
  // The whole view as data, for whoever wants every detail: closed until opened (the board
  // draws what a player needs), under the board on a wide screen, last on a phone.
  const details = h("details", { class: "all-details", "data-testid": "details" });
  root.append(
    header,
    status,
    joins,
    outcome,
    h("div", { class: "columns" }, h("div", { class: "main" }, replayBox, board), h("div", { class: "side" }, actions, problem, players, log, controls), details),
  );
  replace(app, h("p", { class: "back" }, h("a", { href: "#/" }, "← Lobby")), root);

  const state: GameState = { envelope: await fetchEnvelope(id, token), spectator: undefined, lastSeq: -1, lastOwnSeq: -1 };
  // The game's options (public, fixed at creation), for boards that draw what they change.
  const gameOptions: Json | undefined = await api
    .GET("/v1/games/{id}/audit", { params: { path: { id }, query: { limit: 1 } } })
    .then(({ data }) => (data && isJson(data.options) ? data.options : undefined))
    .catch(() => undefined);
  const title = await rulesetName(state.envelope.ruleset);
  let busy = false;
  /** The newest game the stream brought while a move was being sent. */
  let held: Envelope | undefined;

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

  /** POSTs `body` to `path` as this browser's seat (or admin), then shows the new state. */
  const post = async (path: string, body: Json, headers: Record<string, string>): Promise<Response | undefined> => {
    problem.textContent = "";
    let answer: Response | undefined;
    try {
      answer = await postJson(path, body, headers);
      if (!answer.ok) problem.textContent = await problemOf(answer.clone());
      await refresh(await fetchEnvelope(id, token));
    } catch (error) {
      // A seat given away by its own browser's admin leaves this page's token refused.
      problem.textContent = message(error);
    }
    return answer;
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
      const newest = held;
      held = undefined;
      if (newest) await refresh(newest);
    }
  };

  const render = async (): Promise<void> => {
    const envelope = state.envelope;
    const you = envelope.you?.seat ?? null;
    const names = envelope.seats.map((seat) => seat.name ?? `Player ${seat.seat + 1}`);
    const yourTurn = you !== null && envelope.to_act.includes(you) && envelope.status === "active";
    const deadline = (seat: number): string | null => envelope.clock?.seats.find((clock) => clock.seat === seat)?.deadline ?? null;
    document.title = `${yourTurn ? "▶ " : ""}${title} — Beurs`;
    root.dataset.version = String(envelope.version);
    root.dataset.status = envelope.status;
    root.dataset.seat = you === null ? "" : String(you);
    root.dataset.ruleset = envelope.ruleset;
    replace(header, h("h1", {}, title), h("p", { class: "you" }, you === null ? "You are watching." : `You are ${names[you] ?? ""}.`));
    const yourDeadline = you === null ? null : deadline(you);
    replace(
      status,
      envelope.status === "open"
        ? "Waiting for players to take their seats."
        : envelope.status === "finished"
          ? "Finished."
          : yourTurn
            ? "Your turn."
            : `Waiting for ${envelope.waiting_on.map((seat) => names[seat] ?? "").join(", ")}.`,
      yourTurn && yourDeadline ? [" ", countdown(yourDeadline)] : null,
      envelope.clock?.paused_since && envelope.status === "active" ? h("span", { class: "paused", "data-testid": "paused" }, " The clocks are paused.") : null,
    );
    renderJoins(envelope);
    replace(
      players,
      h("h2", {}, "Players"),
      h(
        "ul",
        {},
        envelope.seats.map((seat) => {
          const until = envelope.status === "active" ? deadline(seat.seat) : null;
          const seatClock = envelope.clock?.seats.find((clock) => clock.seat === seat.seat);
          const away = envelope.status === "active" && seatClock?.vacation_since ? " — on vacation" : "";
          const stopped = envelope.status === "active" && typeof seatClock?.left_ms === "number" ? ` — clock stopped, ${duration(seatClock.left_ms)} left` : "";
          return h(
            "li",
            { class: seat.seat === you ? "you" : "" },
            names[seat.seat],
            seat.seat === you ? " (you)" : "",
            seat.claimed ? "" : " (free)",
            seat.resigned ? " (resigned: a bot plays on)" : seat.bot ? ` (${words(seat.bot)} bot)` : "",
            envelope.to_act.includes(seat.seat) && envelope.status === "active" ? " — to act" : "",
            until ? [" — ", countdown(until)] : null,
            away,
            stopped,
          );
        }),
      ),
    );
    // The seat's legal moves, read once: the board makes its spaces and cards play them, and
    // the moves panel lists them.
    const legal = token && you !== null && envelope.status === "active" ? await readLegal() : undefined;
    boardPicks = yourTurn && legal && "legal" in legal ? legal.legal.actions.flatMap((entry) => ("schema" in entry ? pickFrom(entry.schema) : [])) : [];
    boardMoves = yourTurn && legal && "legal" in legal ? legal.legal.actions.flatMap((entry) => ("action" in entry && member(entry.action, "type") !== "undo" ? [{ action: entry.action, label: field(entry, "label") ?? entry.text, text: entry.text }] : [])) : [];
    if (legal && "legal" in legal) actionsVersion = legal.legal.version;
    // A finished game being replayed keeps the entry on the board; anything else is live.
    if (envelope.status === "finished" && replayShown) drawBoard(replayShown.mine.view, replayShown.mine.to_act, replayShown.spectator?.view, replayShown.mine.seq);
    else drawBoard(envelope.view, envelope.to_act, state.spectator, null);
    renderActions(envelope, you, yourTurn, legal);
    await renderLog(names, you);
    renderReplay(envelope);
    renderControls(envelope, you, names);
    renderOutcome(envelope, names, you);
    root.dataset.yourTurn = String(yourTurn);
    // The version whose page is completely drawn (moves, log and all).
    root.dataset.drawn = String(envelope.version);
  };

  /**
   * The board and the details of a view: the live one, or (`seq` not null) the game as it
   * stood after that log entry. Both are drawn by the same renderers.
   */
  const drawBoard = (view: unknown, toAct: number[], spectator: unknown, seq: number | null): void => {
    const envelope = state.envelope;
    const ctx: BoardContext = {
      you: envelope.you?.seat ?? null,
      names: envelope.seats.map((seat) => seat.name ?? `Player ${seat.seat + 1}`),
      toAct,
      moves: seq === null ? boardMoves : [],
      picks: seq === null ? boardPicks : [],
      options: gameOptions,
      play: (action) => void submit(action, actionsVersion),
    };
    board.dataset.seq = seq === null ? "" : String(seq);
    board.classList.toggle("replaying", seq !== null);
    replace(board, renderDrawing(envelope.ruleset, view, ctx) ?? h("p", {}, view === null ? "The game has not started." : "The table is described under “Everything on the table” below."));
    replace(details, h("summary", {}, seq === null ? "Everything on the table (details)" : `Everything on the table after entry ${seq + 1} (details)`), renderGeneric(view, ctx, spectator));
  };

  /** The entry the replay shows (its view, and the spectator's to mark what only you saw). */
  interface Shown {
    mine: HistoryPoint;
    spectator?: HistoryPoint;
  }
  let replayShown: Shown | undefined;
  /** The log's last entry the replay's slider was built for (-1: none built). */
  let replayLast = -1;
  /** Bumped at each step: an answer for an entry the player has moved past is dropped. */
  let replayAsked = 0;
  const points = new Map<number, Promise<Shown>>();

  /** The game after entry `seq`, as this browser's reader saw it (cached: history never changes). */
  const historyPoint = (seq: number): Promise<Shown> => {
    let found = points.get(seq);
    if (!found) {
      const read = async (headers: Record<string, string>): Promise<HistoryPoint> => {
        const { data, error, response } = await api.GET("/v1/games/{id}/history/{seq}", { params: { path: { id, seq } }, headers });
        if (!data) throw failure(error, response);
        return data;
      };
      found = Promise.all([read(bearer(token)), token ? read({}) : undefined]).then(([mine, spectator]) => ({ mine, spectator }));
      found.catch(() => points.delete(seq));
      points.set(seq, found);
    }
    return found;
  };

  /**
   * A finished game's replay: a slider from the deal (entry 1 in the log) to the last entry,
   * with previous and next, drawing the board as this reader saw it after the chosen entry
   * (`GET …/history/{seq}`) and saying that entry's headline from the log.
   */
  const renderReplay = (envelope: Envelope): void => {
    if (envelope.status !== "finished" || state.lastSeq < 0) {
      replayLast = -1;
      replayShown = undefined;
      replace(replayBox);
      return;
    }
    const last = state.lastSeq;
    if (last === replayLast) return;
    replayLast = last;
    const slider = h("input", { type: "range", min: 0, max: last, step: 1, value: last, "aria-label": "Log entry to show", "data-testid": "replay-slider" });
    const prev = h("button", { type: "button", class: "small", "data-testid": "replay-prev", "aria-label": "Previous entry" }, "◀ Previous");
    const next = h("button", { type: "button", class: "small", "data-testid": "replay-next", "aria-label": "Next entry" }, "Next ▶");
    const caption = h("p", { class: "replay-caption", "data-testid": "replay-caption", "aria-live": "polite" });
    const show = async (seq: number): Promise<void> => {
      const ask = ++replayAsked;
      slider.value = String(seq);
      prev.disabled = seq <= 0;
      next.disabled = seq >= last;
      const item = logList.querySelector<HTMLElement>(`li[data-seq="${seq}"]`);
      for (const marked of logList.querySelectorAll(".replay-at")) marked.classList.remove("replay-at");
      // The entry shown is marked in the log (the end is the game as it ended: nothing to mark).
      if (item && seq < last) {
        item.classList.add("replay-at");
        logList.scrollTop = item.offsetTop - logList.offsetTop - logList.clientHeight / 2;
      } else logList.scrollTop = logList.scrollHeight;
      const headline = item?.querySelector(".headline")?.textContent ?? "";
      const where = seq >= last ? `The end (entry ${seq + 1} of ${last + 1})` : `After entry ${seq + 1} of ${last + 1}`;
      caption.textContent = `${where}: ${headline}`;
      caption.dataset.seq = String(seq);
      if (seq >= last) {
        // The last entry is the game as it ended: the live board.
        replayShown = undefined;
        drawBoard(state.envelope.view, state.envelope.to_act, state.spectator, null);
        return;
      }
      try {
        const shown = await historyPoint(seq);
        if (ask !== replayAsked || mine !== generation) return;
        replayShown = shown;
        drawBoard(shown.mine.view, shown.mine.to_act, shown.spectator?.view, seq);
      } catch (error) {
        if (ask === replayAsked) caption.textContent = `${where}: the board could not be read (${message(error)}).`;
      }
    };
    slider.addEventListener("input", () => void show(Number(slider.value)));
    prev.addEventListener("click", () => void show(Math.max(0, Number(slider.value) - 1)));
    next.addEventListener("click", () => void show(Math.min(last, Number(slider.value) + 1)));
    replace(
      replayBox,
      h("h2", {}, "Replay"),
      h("p", { class: "hint" }, "Move the slider to see the board as you saw it after any entry of the log."),
      h("div", { class: "replay-controls" }, prev, slider, next),
      caption,
    );
    void show(replayShown ? replayShown.mine.seq : last);
  };

  const renderJoins = (envelope: Envelope): void => {
    const open = envelope.seats.filter((seat) => !seat.claimed);
    if (open.length === 0) {
      replace(joins);
      return;
    }
    const base = `${location.origin}${location.pathname}`;
    /** A bot for a free seat: its kind, and the button that seats it (the creator's). */
    const botChoice = (seat: number): (HTMLElement | string)[] => {
      const kind = h(
        "select",
        { "aria-label": `Bot for player ${seat + 1}`, "data-testid": "bot-kind", "data-seat": seat },
        BOTS.map(([value, label]) => h("option", { value }, label)),
      );
      const addBot = async (): Promise<void> => {
        const choice = BOTS.find(([value]) => value === kind.value)?.[0] ?? "basic";
        await post(`/v1/games/${encodeURIComponent(id)}/seats/${seat}`, { bot: choice }, bearer(admin));
      };
      return [kind, " ", h("button", { type: "button", class: "small", "data-testid": "add-bot", "data-seat": seat, onclick: () => void addBot() }, "Add bot")];
    };
    if (typeof envelope.rematch_of === "string") {
      // A rematch is invite-only: each player joins by asking on the finished game's page; the
      // creator may give the seat of a player who does not come back to a bot.
      const previous = envelope.rematch_of;
      replace(
        joins,
        h("h2", {}, "Rematch"),
        h(
          "p",
          { "data-testid": "rematch-waiting" },
          "This is a rematch. It starts when every player of the ",
          h("a", { href: `#/game/${previous}` }, "previous game"),
          ` has pressed “Rematch” there: waiting for ${open.length === 1 ? "1 more player" : `${open.length} more players`}.`,
        ),
        admin ? h("ul", { class: "seat-invites" }, open.map((seat) => h("li", {}, `Player ${seat.seat + 1}: `, botChoice(seat.seat)))) : null,
      );
      return;
    }
    replace(
      joins,
      h("h2", {}, "Invite players"),
      h("p", {}, "Send each player the link of a free seat (the creator takes one too), or give a seat to a bot."),
      h(
        "ul",
        { class: "seat-invites" },
        open.map((seat) => {
          const url = `${base}#/join/${id}/${seat.seat}`;
          return h(
            "li",
            {},
            h("a", { href: url, "data-testid": "join-link", "data-seat": seat.seat }, `Player ${seat.seat + 1}'s link`),
            " ",
            h("button", { type: "button", class: "small", onclick: () => void navigator.clipboard?.writeText(url) }, "Copy link"),
            " or ",
            botChoice(seat.seat),
          );
        }),
      ),
    );
  };

  /** Resigning (a seat's own), and the admin's seat replacement. */
  let controlsKey = "";
  /** What the last seat replacement gave: kept when the controls are drawn again. */
  const result = h("p", { class: "replaced", role: "status" });
  const renderControls = (envelope: Envelope, you: number | null, names: string[]): void => {
    // Drawn again only when what they offer changes, not at every move: a name being typed
    // stays.
    const key = JSON.stringify([envelope.status, you, envelope.seats, names, envelope.clock?.paused_since, envelope.clock?.seats.map((clock) => [clock.vacation_since, clock.vacation_left_ms])]);
    if (key === controlsKey) return;
    controlsKey = key;
    const parts: HTMLElement[] = [];
    const active = envelope.status === "active";
    const seat = you === null ? undefined : envelope.seats[you];
    if (token && you !== null && active && seat && !seat.resigned) {
      const resign = async (): Promise<void> => {
        if (!window.confirm("Resign? A bot plays your seat to the end of the game, and you cannot move again.")) return;
        await post(`/v1/games/${encodeURIComponent(id)}/seats/${you}/resign`, null, bearer(token));
      };
      parts.push(h("button", { type: "button", class: "small danger", "data-testid": "resign", onclick: () => void resign() }, "Resign"));
      // A vacation stops this seat's clock alone, within its allowance for the game.
      const mine = envelope.clock?.seats.find((clock) => clock.seat === you);
      if (mine) {
        const path = `/v1/games/${encodeURIComponent(id)}/seats/${you}/vacation`;
        if (mine.vacation_since) {
          const back = async (): Promise<void> => {
            problem.textContent = "";
            const answer = await fetch(path, { method: "DELETE", headers: bearer(token) });
            if (!answer.ok) problem.textContent = await problemOf(answer);
            await refresh(await fetchEnvelope(id, token));
          };
          parts.push(h("button", { type: "button", class: "small", "data-testid": "vacation-end", onclick: () => void back() }, "I'm back: run my clock again"));
        } else if (mine.vacation_left_ms > 0) {
          const away = async (): Promise<void> => {
            await post(path, null, bearer(token));
          };
          parts.push(h("button", { type: "button", class: "small", "data-testid": "vacation-start", onclick: () => void away() }, `Go on vacation (${duration(mine.vacation_left_ms)} left)`));
        }
      }
    }
    if (admin && active && envelope.clock) {
      const paused = Boolean(envelope.clock.paused_since);
      const toggle = async (): Promise<void> => {
        await post(`/v1/games/${encodeURIComponent(id)}/${paused ? "resume" : "pause"}`, null, bearer(admin));
      };
      parts.push(h("button", { type: "button", class: "small", "data-testid": paused ? "resume" : "pause", onclick: () => void toggle() }, paused ? "Start the clocks again" : "Pause every clock"));
    }
    if (admin && envelope.status !== "finished") {
      const claimed = envelope.seats.filter((candidate) => candidate.claimed);
      if (claimed.length > 0) {
        const which = h("select", { "aria-label": "Seat to give to a new player", "data-testid": "replace-seat" }, claimed.map((candidate) => h("option", { value: candidate.seat }, names[candidate.seat] ?? "")));
        const name = h("input", { "aria-label": "The new player's name", placeholder: "new player's name", maxlength: 64, "data-testid": "replace-name" });
        const replaceSeat = async (): Promise<void> => {
          const newName = name.value.trim();
          if (!newName) {
            result.textContent = "Type the new player's name first.";
            return;
          }
          const seatNumber = Number(which.value);
          if (!window.confirm(`Give ${names[seatNumber] ?? "this"} seat to ${newName}? The current player's link stops working.`)) return;
          const answer = await post(`/v1/games/${encodeURIComponent(id)}/seats/${seatNumber}/replace`, { name: newName }, bearer(admin));
          if (!answer?.ok) return;
          const body: unknown = await answer.json().catch(() => undefined);
          const newToken = field(body, "player_token");
          if (!newToken) return;
          const here = h("button", {
            type: "button",
            class: "small",
            onclick: () => {
              remember(id, { ruleset: envelope.ruleset, seat: seatNumber, token: newToken, name: newName });
              route();
            },
          }, `Play ${newName}'s seat in this browser`);
          replace(result, `${newName} has the seat now. Their token (shown once, for an API client): `, h("code", {}, newToken), " ", here);
        };
        parts.push(
          h(
            "div",
            { class: "admin" },
            h("h3", {}, "As the game's creator"),
            h("div", { class: "field" }, "Give ", which, "’s seat to ", name, h("button", { type: "button", class: "small", "data-testid": "replace", onclick: () => void replaceSeat() }, "Replace")),
            result,
          ),
        );
      }
    }
    if (parts.length === 0) replace(controls);
    else replace(controls, h("h2", {}, "Game"), parts);
  };

  /** The version to play the legal actions on screen at. */
  let actionsVersion = -1;
  /** The seat's complete legal moves, for the board to make playable (empty out of turn). */
  let boardMoves: BoardMove[] = [];
  /** The seat's picks (moves choosing several items), for the board to tick items of. */
  let boardPicks: BoardPick[] = [];

  /**
   * The pick a schema entry offers (an array of items with `x-enum-labels`: docs/api.md,
   * "Picks"), or none. Its items are ticked in the entry's form in the moves panel, which
   * keeps them across redraws and plays the move.
   */
  const pickFrom = (schema: JsonSchema): BoardPick[] => {
    if (typeof schema !== "object") return [];
    const tag = member(member(schema.properties, "type"), "const");
    const found = Object.entries(schema.properties ?? {}).find(([, property]) => typeof property === "object" && Array.isArray(member(property.items, "x-enum-labels")));
    if (typeof tag !== "string" || !found) return [];
    const [fieldName, property] = found;
    if (typeof property !== "object" || typeof property.items !== "object") return [];
    const values = (property.items.enum ?? []).filter(isJson);
    const labels = member(property.items, "x-enum-labels");
    const box = (value: Json): HTMLInputElement | null =>
      actions.querySelector(`form[data-tag="${CSS.escape(tag)}"] input[type="checkbox"][data-value="${CSS.escape(JSON.stringify(value))}"]`);
    return [
      {
        tag,
        field: fieldName,
        items: values.map((value, index) => ({ value, label: Array.isArray(labels) && typeof labels[index] === "string" ? labels[index] : String(value) })),
        min: property.minItems ?? 0,
        max: property.maxItems ?? values.length,
        chosen: (value) => box(value)?.checked ?? false,
        toggle: (value) => {
          const input = box(value);
          if (!input) return false;
          input.checked = !input.checked;
          return input.checked;
        },
      },
    ];
  };
  /**
   * The seat's legal actions: its moves while it is the seat's turn, and (even when it is not)
   * taking its last move back, which is a secondary button apart from the moves.
   */
  /** This seat's legal moves now, or why they could not be read. */
  const readLegal = async (): Promise<{ legal: LegalActions } | { failed: string }> => {
    const { data, error, response } = await api.GET("/v1/games/{id}/legal-actions", { params: { path: { id } }, headers: bearer(token) });
    return data ? { legal: data } : { failed: message(failure(error, response)) };
  };

  const renderActions = (envelope: Envelope, you: number | null, yourTurn: boolean, read: { legal: LegalActions } | { failed: string } | undefined): void => {
    const names = envelope.seats.map((seat) => seat.name ?? `Player ${seat.seat + 1}`);
    if (!token || you === null || envelope.status !== "active" || read === undefined) {
      delete actions.dataset.key;
      replace(actions, h("h2", {}, "Your moves"), h("p", {}, you === null ? "Take a seat to play." : envelope.status === "finished" ? "The game is over." : "Not your turn."));
      return;
    }
    if ("failed" in read) {
      delete actions.dataset.key;
      replace(actions, h("h2", {}, "Your moves"), h("p", { class: "error" }, read.failed));
      return;
    }
    const legal = read.legal;
    // The same moves as on screen (another seat moved in a simultaneous phase): keep them, and
    // what is typed into their forms, and play them at the new version.
    const key = JSON.stringify([yourTurn, legal.actions]);
    if (actions.dataset.key === key) return;
    actions.dataset.key = key;
    const buttons: HTMLElement[] = [];
    const forms: HTMLElement[] = [];
    let undo: HTMLElement | null = null;
    legal.actions.forEach((entry) => {
      if ("action" in entry && member(entry.action, "type") === "undo") {
        undo = h(
          "div",
          { class: "undo" },
          h("button", { type: "button", class: "secondary", "data-testid": "undo", "data-text": entry.text, onclick: () => void submit(entry.action, actionsVersion) }, field(entry, "label") ?? "Take back your last move"),
          h("small", { class: "hint" }, "Possible until another player moves."),
        );
      } else if (!yourTurn) {
        // Only taking a move back is offered out of turn.
      } else if ("action" in entry) {
        const sealed = entry.sealed;
        // The server's short imperative label when it sends one, else the move's sentence.
        const label = field(entry, "label") ?? entry.text;
        buttons.push(
          h(
            "button",
            { type: "button", class: sealed ? "action sealed" : "action", "data-testid": "action", "data-text": entry.text, title: label === entry.text ? null : entry.text, onclick: () => void submit(entry.action, actionsVersion) },
            label,
            sealed ? h("span", { class: "sealed-note" }, " (sealed: only you see it until it is revealed)") : null,
          ),
        );
      } else {
        forms.push(familyForm(entry.label, entry.schema, names));
      }
    });
    replace(
      actions,
      h("h2", {}, "Your moves"),
      yourTurn ? null : h("p", {}, "Not your turn."),
      buttons.length ? h("div", { class: "buttons" }, buttons) : null,
      forms,
      undo,
    );
  };

  /** A move to build: its fields start at their defaults, never at a random pick. */
  const familyForm = (label: string, schema: JsonSchema, names: string[]): HTMLElement => {
    const tag = typeof schema === "object" ? member(member(schema.properties, "type"), "const") : undefined;
    const form = h("form", { class: "family", "data-testid": "action-form", "data-tag": typeof tag === "string" ? tag : undefined });
    // A box ticked here is ticked on the board too (and the other way: pickFrom).
    form.addEventListener("change", (event) => {
      const box = event.target;
      if (!(box instanceof HTMLInputElement) || box.type !== "checkbox" || !box.dataset.value) return;
      for (const item of board.querySelectorAll('[data-testid="board-pick"]')) {
        if (item.getAttribute("data-value") !== box.dataset.value) continue;
        item.classList.toggle("chosen", box.checked);
        item.setAttribute("aria-checked", String(box.checked));
      }
    });
    const fields = schemaFields(schema, undefined, { names, labels: viewLabels(state.envelope.view) });
    replace(form, h("fieldset", {}, h("legend", {}, familyTitle(label)), fields.element, h("div", { class: "form-buttons" }, h("button", { type: "submit" }, "Play"))));
    form.onsubmit = (event) => {
      event.preventDefault();
      let value: Json | undefined;
      try {
        value = fields.read();
      } catch (error) {
        problem.textContent = `Not a complete move yet: ${message(error)}.`;
        return;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        problem.textContent = "Fill in the move first.";
        return;
      }
      // The engine has the final word on what the schema cannot say.
      void submit(value, actionsVersion);
    };
    return form;
  };

  /**
   * The log, one line per entry (a headline, its consequences in smaller type beneath), read
   * a page at a time after the last entry shown. Entries since this seat's last move are
   * marked: what happened while you were away.
   */
  const renderLog = async (names: string[], you: number | null): Promise<void> => {
    for (;;) {
      const { data } = await api.GET("/v1/games/{id}/log", {
        params: { path: { id }, query: { after: state.lastSeq >= 0 ? state.lastSeq : undefined, limit: 200 } },
        headers: bearer(token),
      });
      if (!data) return;
      for (const entry of data.entries as LogEntry[]) {
        state.lastSeq = entry.seq;
        const seat = typeof entry.seat === "number" ? entry.seat : null;
        // A pause or a vacation is a note about the clocks, not a move.
        const kind = member(entry.action, "type");
        const note = kind === "pause" || kind === "resume" || kind === "vacation";
        if (seat !== null && seat === you && !note && entry.by !== "clock" && entry.by !== "bot") state.lastOwnSeq = entry.seq;
        const said = entryWords(entry, seat === null ? "" : names[seat] ?? "");
        // A turn or round the previous entry announced starts a group here.
        const group = state.group;
        state.group = announcedGroup(said);
        logList.append(
          h(
            "li",
            { class: note ? "entry note" : seat === null ? "entry setup" : "entry", "data-seq": entry.seq, "data-seat": seat ?? "", "data-group": group },
            h("span", { class: "headline" }, said.headline),
            said.details.length ? h("ul", { class: "details" }, said.details.map((line) => h("li", {}, line))) : null,
          ),
        );
        // A move taken back stays in the log, struck through.
        const undone = member(entry.action, "move");
        if (member(entry.action, "type") === "undo" && typeof undone === "number") {
          const item = logList.querySelector<HTMLElement>(`li[data-seq="${undone}"]`);
          item?.classList.add("undone");
          if (item) item.title = "Taken back";
        }
      }
      if (data.next_after === null) break;
    }
    for (const item of logList.children) {
      if (item instanceof HTMLElement) item.classList.toggle("since", state.lastOwnSeq >= 0 && Number(item.dataset.seq) > state.lastOwnSeq);
    }
    logList.scrollTop = logList.scrollHeight;
  };

  const renderOutcome = (envelope: Envelope, names: string[], you: number | null): void => {
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
        rematchPart(envelope, you),
      ),
    );
  };

  /**
   * Playing again: a player of the game (or its creator) asks for the rematch, which the first
   * request creates and every later one joins; this browser keeps the new game's token and
   * goes there.
   */
  const rematchPart = (envelope: Envelope, you: number | null): HTMLElement | null => {
    const seat = you === null ? undefined : envelope.seats[you];
    // A seat a bot plays (resigned) cannot ask; the creator can, without a seat.
    const asker = token && seat && !seat.bot && !seat.resigned ? token : admin;
    if (!asker) return null;
    const created = typeof envelope.rematch === "string";
    const result = h("p", { class: "error", role: "alert", "data-testid": "rematch-error" });
    const ask = async (): Promise<void> => {
      result.textContent = "";
      const { data, error, response } = await api.POST("/v1/games/{id}/rematch", { params: { path: { id } }, headers: bearer(asker) });
      if (!data) {
        result.textContent = message(failure(error, response));
        return;
      }
      const seatThere = data.seat ?? undefined;
      const tokenThere = data.player_token ?? undefined;
      // The creator's admin token administers the rematch too.
      remember(data.game_id, { ruleset: envelope.ruleset, ...(admin ? { admin } : {}), ...(tokenThere ? { seat: seatThere, token: tokenThere, name: known?.name } : {}) });
      location.hash = `#/game/${data.game_id}`;
    };
    return h(
      "div",
      { class: "rematch" },
      h("h3", {}, "Play again"),
      h("p", {}, created ? "A rematch has been created: join it with the same players." : "A new game with the same players and rules; the next player starts."),
      h("button", { type: "button", "data-testid": "rematch", onclick: () => void ask() }, created ? "Rematch created — join" : "Rematch"),
      result,
    );
  };

  await refresh(state.envelope);
  // Follow the game until the page changes: by its event stream, or by long-polls where the
  // stream cannot be read (three failures in a row).
  const alive = (): boolean => mine === generation;
  let lastEventId: string | undefined;
  let streamFailures = 0;
  while (alive() && streamFailures < 3) {
    const end = await followStream(id, token, lastEventId, async (event) => {
      if (event.id) lastEventId = event.id;
      if (event.event !== "game") return;
      streamFailures = 0;
      const envelope = JSON.parse(event.data) as Envelope;
      // While a move is being sent, the newest game waits: it is drawn once the move's own
      // refresh is done (refresh never goes back to an older version).
      if (busy) held = envelope;
      else if (envelope.version !== state.envelope.version) await refresh(envelope);
    }, alive);
    if (!alive()) return;
    if (end.kind === "ended") {
      // The server ended it (it is stopping, or answers one batch per request): come back
      // where we were, after its `retry` hint (none after a batch).
      await sleep(end.retry);
      continue;
    }
    streamFailures += 1;
    // An id the server no longer knows (another server's store): start from a snapshot.
    if (end.kind === "refused" && end.status === 400) lastEventId = undefined;
    await sleep(2000);
  }
  while (alive()) {
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

/** A length of time in words: "6 d 23 h", "2 h 5 min", "4 min 10 s". */
function duration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min ${seconds % 60} s`;
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
