/**
 * A game's page, as data: the game as this browser's reader sees it (its envelope, the seat,
 * the seat's legal moves, the log read so far), following it live, and sending the seat's moves
 * and the seat's and creator's requests. No DOM here: the views (views/) draw the model, and
 * gamePage (main.ts) builds both and redraws the views when the model changes.
 */
import { api, bearer, failure, type BotKind, type Envelope, type HistoryPoint, type LegalActions, type LogEntry } from "./api";
import type { BoardMove } from "./boards/board";
import { announcedGroup, entryWords, type EntryWords } from "./logwords";
import { member } from "./members";
import { field, message, postJson, problemOf } from "./requests";
import { followStream } from "./stream";
import { knownGame, remember, type KnownGame } from "./tokens";
import { isJson, type Json } from "../../typescript/src/json";

/** This seat's legal moves now, or why they could not be read. */
export type LegalRead = { legal: LegalActions } | { failed: string };

/** One log entry, in words, with what the log marks it by. */
export interface LogLine {
  seq: number;
  /** The acting seat, or null for the game's setup. */
  seat: number | null;
  /** A pause or a vacation: a note about the clocks, not a move. */
  note: boolean;
  said: EntryWords;
  /** The turn or round the previous entry announced, which this entry starts. */
  group: string | undefined;
  /** The seq of the move this entry takes back, when it is an undo. */
  undoes: number | undefined;
}

/** The game after a log entry (its view, and the spectator's to mark what only you saw). */
export interface Shown {
  mine: HistoryPoint;
  spectator?: HistoryPoint;
}

/** What the model needs from the page around it. */
export interface PageLinks {
  /** Whether the page is still shown (false once the browser has gone elsewhere). */
  alive: () => boolean;
  /** Opens the page again from scratch (after this browser took another seat). */
  reopen: () => void;
  /** A ruleset's name. */
  rulesetName: (id: string) => Promise<string>;
}

/** The complete legal moves of `legal` (taking back aside), for the board to make playable. */
export function boardMoves(legal: LegalActions): BoardMove[] {
  return legal.actions.flatMap((entry) => ("action" in entry && member(entry.action, "type") !== "undo" ? [{ action: entry.action, label: field(entry, "label") ?? entry.text, text: entry.text }] : []));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function fetchEnvelope(id: string, token: string | undefined): Promise<Envelope> {
  const { data, error, response } = await api.GET("/v1/games/{id}", { params: { path: { id } }, headers: bearer(token) });
  if (!data) throw failure(error, response);
  return data;
}

export class GameModel {
  /** This browser's seat token in the game, if it holds one. */
  readonly token: string | undefined;
  /** The game's admin token, if this browser created it. */
  readonly admin: string | undefined;
  /** A seated reader's game as a spectator sees it (to mark what only the seat sees). */
  spectator: unknown = undefined;
  /** The version to play the legal actions on screen at. */
  actionsVersion = -1;
  /** The seq of the log's last entry read, or -1. */
  lastSeq = -1;
  /** The seq of this seat's last move of its own (not the clock's or a bot's), or -1. */
  lastOwnSeq = -1;
  /** The turn or round the last log entry announced, which the next entry starts. */
  private group: string | undefined;
  /** Whether a move is being sent. */
  private busy = false;
  /** The newest game the stream brought while a move was being sent. */
  private held: Envelope | undefined;
  /** The refreshes, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** The history points read, by seq (history never changes). */
  private readonly points = new Map<number, Promise<Shown>>();
  /** Called with each new version of the game, to draw it (one call at a time). */
  onChange: () => Promise<void> = async () => {};
  /** Called with what went wrong ("" to clear it). */
  onProblem: (text: string) => void = () => {};

  private constructor(
    readonly id: string,
    private readonly known: KnownGame | undefined,
    private readonly links: PageLinks,
    /** The game as this browser's reader sees it: the newest version drawn. */
    public envelope: Envelope,
    /** The game's options (public, fixed at creation), for boards that draw what they change. */
    readonly options: Json | undefined,
    /** The ruleset's name. */
    readonly title: string,
  ) {
    this.token = known?.token;
    this.admin = known?.admin;
  }

  /** Reads game `id` as this browser's seat (or as a spectator). */
  static async load(id: string, links: PageLinks): Promise<GameModel> {
    const known = knownGame(id);
    const envelope = await fetchEnvelope(id, known?.token);
    const options: Json | undefined = await api
      .GET("/v1/games/{id}/audit", { params: { path: { id }, query: { limit: 1 } } })
      .then(({ data }) => (data && isJson(data.options) ? data.options : undefined))
      .catch(() => undefined);
    const title = await links.rulesetName(envelope.ruleset);
    return new GameModel(id, known, links, envelope, options, title);
  }

  /** Whether the page is still shown. */
  alive(): boolean {
    return this.links.alive();
  }

  /** The reader's seat, or null for a spectator. */
  get you(): number | null {
    return this.envelope.you?.seat ?? null;
  }

  /** Each seat's player name ("Player N" while unclaimed), by seat index. */
  get names(): string[] {
    return this.envelope.seats.map((seat) => seat.name ?? `Player ${seat.seat + 1}`);
  }

  get yourTurn(): boolean {
    const you = this.you;
    return you !== null && this.envelope.to_act.includes(you) && this.envelope.status === "active";
  }

  /** Whether this browser plays a seat of a game under way (and so has legal moves to read). */
  get playing(): boolean {
    return Boolean(this.token) && this.you !== null && this.envelope.status === "active";
  }

  /** When `seat`'s time to move runs out, if its clock runs. */
  deadline(seat: number): string | null {
    return this.envelope.clock?.seats.find((clock) => clock.seat === seat)?.deadline ?? null;
  }

  /** Says what went wrong ("" clears it). */
  setProblem(text: string): void {
    this.onProblem(text);
  }

  /**
   * Shows `envelope` unless a newer version is shown. One refresh at a time, newest game
   * first: a move's answer and the long-poll may both bring a new version, and two renders
   * must not interleave.
   */
  refresh(envelope: Envelope): Promise<void> {
    this.queue = this.queue
      .then(async () => {
        if (envelope.version < this.envelope.version) return;
        this.envelope = envelope;
        if (this.token && envelope.view !== null) {
          const { data } = await api.GET("/v1/games/{id}", { params: { path: { id: this.id } } });
          this.spectator = data?.view;
        }
        await this.onChange();
      })
      .catch((error: unknown) => {
        this.setProblem(message(error));
      });
    return this.queue;
  }

  /** POSTs `body` to `path` as this browser's seat (or admin), then shows the new state. */
  async post(path: string, body: Json, headers: Record<string, string>): Promise<Response | undefined> {
    this.setProblem("");
    let answer: Response | undefined;
    try {
      answer = await postJson(path, body, headers);
      if (!answer.ok) this.setProblem(await problemOf(answer.clone()));
      await this.refresh(await fetchEnvelope(this.id, this.token));
    } catch (error) {
      // A seat given away by its own browser's admin leaves this page's token refused.
      this.setProblem(message(error));
    }
    return answer;
  }

  /** Plays `action` at `version` as this browser's seat, then shows the new state. */
  async submit(action: Json, version: number): Promise<void> {
    if (!this.token || this.busy) return;
    this.busy = true;
    this.setProblem("");
    try {
      const key = crypto.randomUUID();
      const headers = { ...bearer(this.token), "if-match": `"${version}"`, "idempotency-key": key };
      // Moves from forms are built from their schema at run time: the engine validates them.
      const send = () => postJson(`/v1/games/${encodeURIComponent(this.id)}/actions`, { action }, headers);
      // A network failure may hide an applied move: the same key makes the retry safe.
      const answer = await send().catch(() => send());
      if (!answer.ok) this.setProblem(await problemOf(answer));
      await this.refresh(await fetchEnvelope(this.id, this.token));
    } catch (error) {
      this.setProblem(message(error));
    } finally {
      this.busy = false;
      const newest = this.held;
      this.held = undefined;
      if (newest) await this.refresh(newest);
    }
  }

  /** Plays `action` at the version of the legal actions on screen. */
  play(action: Json): Promise<void> {
    return this.submit(action, this.actionsVersion);
  }

  /** This seat's legal moves now, or why they could not be read; the moves are then played at their version. */
  async readLegal(): Promise<LegalRead> {
    const { data, error, response } = await api.GET("/v1/games/{id}/legal-actions", { params: { path: { id: this.id } }, headers: bearer(this.token) });
    if (data) this.actionsVersion = data.version;
    return data ? { legal: data } : { failed: message(failure(error, response)) };
  }

  /**
   * Reads the log after the last entry read, a page at a time, handing each page's entries
   * to `onLines` in words. Returns whether it read to the end (false: a page could not be read).
   */
  async readLog(onLines: (lines: LogLine[]) => void): Promise<boolean> {
    const names = this.names;
    const you = this.you;
    for (;;) {
      const { data } = await api.GET("/v1/games/{id}/log", {
        params: { path: { id: this.id }, query: { after: this.lastSeq >= 0 ? this.lastSeq : undefined, limit: 200 } },
        headers: bearer(this.token),
      });
      if (!data) return false;
      const lines: LogLine[] = [];
      for (const entry of data.entries as LogEntry[]) {
        this.lastSeq = entry.seq;
        const seat = typeof entry.seat === "number" ? entry.seat : null;
        // A pause or a vacation is a note about the clocks, not a move.
        const kind = member(entry.action, "type");
        const note = kind === "pause" || kind === "resume" || kind === "vacation";
        if (seat !== null && seat === you && !note && entry.by !== "clock" && entry.by !== "bot") this.lastOwnSeq = entry.seq;
        const said = entryWords(entry, seat === null ? "" : names[seat] ?? "");
        // A turn or round the previous entry announced starts a group here.
        const group = this.group;
        this.group = announcedGroup(said);
        // A move taken back stays in the log, struck through.
        const undone = member(entry.action, "move");
        const undoes = member(entry.action, "type") === "undo" && typeof undone === "number" ? undone : undefined;
        lines.push({ seq: entry.seq, seat, note, said, group, undoes });
      }
      onLines(lines);
      if (data.next_after === null) return true;
    }
  }

  /** The game after entry `seq`, as this browser's reader saw it (cached: history never changes). */
  historyPoint(seq: number): Promise<Shown> {
    let found = this.points.get(seq);
    if (!found) {
      const read = async (headers: Record<string, string>): Promise<HistoryPoint> => {
        const { data, error, response } = await api.GET("/v1/games/{id}/history/{seq}", { params: { path: { id: this.id, seq } }, headers });
        if (!data) throw failure(error, response);
        return data;
      };
      found = Promise.all([read(bearer(this.token)), this.token ? read({}) : undefined]).then(([mine, spectator]) => ({ mine, spectator }));
      found.catch(() => this.points.delete(seq));
      this.points.set(seq, found);
    }
    return found;
  }

  /**
   * Follows the game until the page changes: by its event stream, or by long-polls where the
   * stream cannot be read (three failures in a row).
   */
  async follow(): Promise<void> {
    let lastEventId: string | undefined;
    let streamFailures = 0;
    const alive = (): boolean => this.alive();
    while (alive() && streamFailures < 3) {
      const end = await followStream(this.id, this.token, lastEventId, async (event) => {
        if (event.id) lastEventId = event.id;
        if (event.event !== "game") return;
        streamFailures = 0;
        const envelope = JSON.parse(event.data) as Envelope;
        // While a move is being sent, the newest game waits: it is drawn once the move's own
        // refresh is done (refresh never goes back to an older version).
        if (this.busy) this.held = envelope;
        else if (envelope.version !== this.envelope.version) await this.refresh(envelope);
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
          params: { path: { id: this.id }, query: { after_version: this.envelope.version, wait: 20 } },
          headers: bearer(this.token),
        });
        if (!alive()) break;
        if (data && data.version !== this.envelope.version && !this.busy) await this.refresh(data);
        else if (!data && response.status >= 400) await sleep(2000);
      } catch {
        await sleep(2000);
      }
    }
  }

  // -------------------------------------------------------------------------------------
  // The seat's and the creator's requests

  /** Gives free seat `seat` to a bot of `kind` (the creator's). */
  async addBot(seat: number, kind: BotKind): Promise<void> {
    await this.post(`/v1/games/${encodeURIComponent(this.id)}/seats/${seat}`, { bot: kind }, bearer(this.admin));
  }

  /** Resigns this browser's seat `seat`: a bot plays it to the end. */
  async resign(seat: number): Promise<void> {
    await this.post(`/v1/games/${encodeURIComponent(this.id)}/seats/${seat}/resign`, null, bearer(this.token));
  }

  private vacationPath(seat: number): string {
    return `/v1/games/${encodeURIComponent(this.id)}/seats/${seat}/vacation`;
  }

  /** Stops seat `seat`'s clock alone, within its allowance for the game. */
  async startVacation(seat: number): Promise<void> {
    await this.post(this.vacationPath(seat), null, bearer(this.token));
  }

  /** Runs seat `seat`'s clock again. */
  async endVacation(seat: number): Promise<void> {
    this.setProblem("");
    const answer = await fetch(this.vacationPath(seat), { method: "DELETE", headers: bearer(this.token) });
    if (!answer.ok) this.setProblem(await problemOf(answer));
    await this.refresh(await fetchEnvelope(this.id, this.token));
  }

  /** Pauses every clock, or (`paused`) starts them again (the creator's). */
  async toggleClocks(paused: boolean): Promise<void> {
    await this.post(`/v1/games/${encodeURIComponent(this.id)}/${paused ? "resume" : "pause"}`, null, bearer(this.admin));
  }

  /** Gives seat `seat` to a new player `name` (the creator's); returns the seat's new token. */
  async replaceSeat(seat: number, name: string): Promise<string | undefined> {
    const answer = await this.post(`/v1/games/${encodeURIComponent(this.id)}/seats/${seat}/replace`, { name }, bearer(this.admin));
    if (!answer?.ok) return undefined;
    const body: unknown = await answer.json().catch(() => undefined);
    return field(body, "player_token");
  }

  /** Plays seat `seat` (its token `token`, its player `name`) in this browser from now on. */
  playSeatHere(seat: number, token: string, name: string): void {
    remember(this.id, { ruleset: this.envelope.ruleset, seat, token, name });
    this.links.reopen();
  }

  /** The token that asks for a rematch: a player's still playing, else the creator's; none for a spectator. */
  rematchAsker(): string | undefined {
    const you = this.you;
    const seat = you === null ? undefined : this.envelope.seats[you];
    // A seat a bot plays (resigned) cannot ask; the creator can, without a seat.
    return this.token && seat && !seat.bot && !seat.resigned ? this.token : this.admin;
  }

  /**
   * Asks for the rematch as `asker` (the first request creates it, every later one joins it),
   * keeps the new game's token and goes there; returns why not when refused.
   */
  async askRematch(asker: string): Promise<string | undefined> {
    const { data, error, response } = await api.POST("/v1/games/{id}/rematch", { params: { path: { id: this.id } }, headers: bearer(asker) });
    if (!data) return message(failure(error, response));
    const seatThere = data.seat ?? undefined;
    const tokenThere = data.player_token ?? undefined;
    // The creator's admin token administers the rematch too.
    const admin = this.admin;
    remember(data.game_id, { ruleset: this.envelope.ruleset, ...(admin ? { admin } : {}), ...(tokenThere ? { seat: seatThere, token: tokenThere, name: this.known?.name } : {}) });
    location.hash = `#/game/${data.game_id}`;
    return undefined;
  }

  /** Recomputes the seed commitment from the revealed secret (SHA-256 of its 32 bytes), in words. */
  async verifySeed(commitment: string): Promise<string> {
    const { data, error, response } = await api.GET("/v1/games/{id}/audit", { params: { path: { id: this.id }, query: { limit: 1 } } });
    if (!data) return message(failure(error, response));
    const secret = data.server_secret;
    if (!secret || !/^[0-9a-f]{64}$/.test(secret)) return "The secret is not revealed yet.";
    const bytes = new Uint8Array(secret.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? []);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    return hex === commitment && hex === data.seed_commitment
      ? `✓ The revealed secret hashes to the commitment published at the start (${commitment.slice(0, 16)}…).`
      : `✗ The revealed secret does not match the commitment: ${hex.slice(0, 16)}… is not ${commitment.slice(0, 16)}….`;
  }
}
