import { pickable, pickOffering, playable, type BoardContext, type BoardMove } from "./board";
import { h, svg } from "../dom";
import { COLOURS, frame, get, type Json, list, num, plural, seatName, str, text } from "./draw";

/**
 * Tulip Bubble: the three price tracks (levels I to VII, rules §0 and §1.3) with what each
 * rank of tulip is worth at its colour's level; the market's three rows of tulip cards with
 * their bid markers; the auction or payment under way; the collectors, the Black Tulip and
 * the market events; every player's public holdings (loans, markers), and the viewer's cash
 * and concealed tulips in a strip of its own.
 */

const COLOUR_WORD: Record<string, string> = { R: "red", W: "white", Y: "yellow" };
const LEVELS = ["I", "II", "III", "IV", "V", "VI", "VII"];
/** Seat colours for bid markers (none of them a tulip colour). */
const SEAT_COLOURS = ["#1b6b93", "#2d7d46", "#6a3d9a", "#8c4a12", "#3d3d3d"];

const COLLECTORS: Record<string, [string, string]> = {
  NOBLEMAN: ["Nobleman", "A, B1 and B2 of one colour"],
  CLERGYMAN: ["Clergyman", "three B tulips of one colour"],
  MADAME: ["Madame", "three B tulips of three colours"],
  FAIR_LADY: ["Fair Lady", "B1, B2 and a C of one colour"],
  SERVANT: ["Servant", "C1, C2 and C3 of one colour"],
  SCHOLAR: ["Scholar", "one kind in three colours"],
  YOUNG_MAN: ["Young Man", "three C tulips of one colour"],
  TAVERN_OWNER: ["Tavern Owner", "three C tulips of three colours"],
};

interface Card {
  id: string;
  colour: string;
  kind: string;
  rank: string;
}

function parse(id: string): Card | null {
  const match = /^([RWY])(A|B1|B2|C1|C2|C3)#\d+$/.exec(id);
  const colour = match?.[1];
  const kind = match?.[2];
  if (!colour || !kind) return null;
  return { id, colour, kind, rank: kind.charAt(0) };
}

function words(card: Card): string {
  return `${COLOUR_WORD[card.colour] ?? "a"} ${card.kind} tulip`;
}

function money(amount: number | undefined): string {
  if (amount === undefined) return "—";
  return amount < 0 ? `minus ƒ${-amount}` : `ƒ${amount}`;
}



/** Market prices by rank and level (rules §1.3), A at I and II from the options. */
function chart(view: Json): { A: number[]; B: number[]; C: number[] } & Record<string, number[] | undefined> {
  const low = list(get(get(view, "options"), "a_price_low")).map((value) => num(value));
  return {
    A: [low[0] ?? 6, low[1] ?? 10, 15, 20, 26, 33, 40],
    B: [3, 5, 7, 10, 13, 16, 20],
    C: [1, 3, 5, 7, 9, 11, 13],
  };
}

function priceOf(view: Json, card: Card): number | undefined {
  const level = num(get(get(view, "track"), card.colour));
  return level === undefined ? undefined : chart(view)[card.rank]?.[level - 1];
}

function moveFor(ctx: BoardContext, type: string, test: (action: Json) => boolean): BoardMove | undefined {
  return ctx.moves.find((move) => get(move.action, "type") === type && test(move.action));
}

/** The three price tracks, each colour's marker on its level, and its prices by rank. */
function tracks(view: Json): SVGElement | null {
  const track = get(view, "track");
  const entries = ["R", "W", "Y"].map((colour) => [colour, num(get(track, colour))] as const).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return null;
  const prices = chart(view);
  const cell = 42;
  const x0 = 66;
  const rowH = 44;
  const parts: SVGElement[] = [text(x0 + (LEVELS.length * cell) / 2, 16, "price level", { "font-size": 14, fill: "#59636e" }), text(x0 + LEVELS.length * cell + 70, 16, "A · B · C pay", { "font-size": 14, fill: "#59636e" })];
  entries.forEach(([colour, value], index) => {
    const y = 24 + index * rowH;
    const fill = COLOURS[colour] ?? "#888";
    parts.push(text(x0 - 8, y + 23, COLOUR_WORD[colour] ?? colour, { "text-anchor": "end", "font-weight": 600, "font-size": 16 }));
    LEVELS.forEach((numeral, step) => {
      const lit = step + 1 === value;
      parts.push(svg("rect", { x: x0 + step * cell, y, width: cell - 4, height: 34, rx: 5, fill: lit ? fill : "#f4f1ea", stroke: lit ? "#1f2328" : "#cfc8ba", "stroke-width": lit ? 2 : 1 }));
      parts.push(text(x0 + step * cell + (cell - 4) / 2, y + 22, numeral, lit ? { fill: colour === "R" ? "#ffffff" : "#1f2328", "font-weight": 700, "font-size": 16 } : { fill: "#6f685c", "font-size": 15 }));
    });
    const level = (value ?? 1) - 1;
    parts.push(text(x0 + LEVELS.length * cell + 70, y + 23, `ƒ${prices.A[level]} · ƒ${prices.B[level]} · ƒ${prices.C[level]}`, { "font-weight": 600, "font-size": 16 }));
  });
  const label = `Price tracks: ${entries.map(([colour, value]) => `${COLOUR_WORD[colour]} at level ${LEVELS[(value ?? 1) - 1] ?? value}`).join(", ")}`;
  const picture = frame(x0 + LEVELS.length * cell + 140, 24 + entries.length * rowH, label, ...parts);
  picture.classList.add("tb-tracks");
  return picture;
}

/** A tulip card: colour band, kind, price, bid markers; playable when a move is about it. */
function tulipCard(view: Json, ctx: BoardContext, id: string, markers: number[], options: { move?: BoardMove; biddable?: boolean; note?: string; privateOwner?: string; highlight?: boolean } = {}): HTMLElement {
  const card = parse(id);
  const colour = card ? COLOURS[card.colour] ?? "#888" : "#888";
  const price = card ? priceOf(view, card) : undefined;
  const element = h(
    "div",
    {
      class: `tb-card${options.highlight ? " tb-highlight" : ""}${options.privateOwner !== undefined ? " tb-private" : ""}`,
      "data-private-owner": options.privateOwner,
      title: options.privateOwner !== undefined ? "Only you see this" : null,
    },
    h("span", { class: "tb-band", style: `background:${colour}` }, card ? h("span", { class: card.colour === "R" ? "tb-kind tb-light" : "tb-kind" }, card.kind) : null),
    h("span", { class: "tb-name" }, card ? words(card) : "a tulip"),
    price !== undefined ? h("span", { class: "tb-price" }, `market ${money(price)}`) : null,
    options.note ? h("span", { class: "tb-note" }, options.note) : null,
    markers.length > 0
      ? h(
          "span",
          { class: "tb-markers" },
          markers.map((seat) => h("span", { class: "tb-marker", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}` }, seatName(ctx, seat))),
        )
      : null,
  );
  if (options.move) return playable(element, options.move, ctx);
  // A tulip of the bid markers' choice: ticked on the board, played from the moves list.
  const pick = options.biddable ? pickOffering(ctx, "place_bids", id) : undefined;
  return pick ? pickable(element, pick, id) : element;
}

/** A market row: New Arrivals, Just Sold (slots with markers) or Next Shipment (cards). */
function marketRow(view: Json, ctx: BoardContext, title: string, hint: string, entries: Json[], biddable: boolean, current: string | undefined): HTMLElement {
  const cards = entries.map((entry) => {
    const id = typeof entry === "string" ? entry : str(get(entry, "tulip")) ?? "";
    const markers = list(get(entry, "markers")).map((seat) => num(seat) ?? 0);
    const move = biddable ? moveFor(ctx, "place_bids", (action) => list(get(action, "cards")).length === 1 && list(get(action, "cards"))[0] === id) : undefined;
    return tulipCard(view, ctx, id, markers, { move, biddable, highlight: id === current, note: id === current ? "being sold now" : undefined });
  });
  return h(
    "section",
    { class: "tb-row", "aria-label": title },
    h("h3", {}, title, h("span", { class: "tb-hint" }, ` · ${hint}`)),
    h("div", { class: "tb-strip" }, cards.length ? cards : h("span", { class: "tb-note" }, "empty")),
  );
}

/** The auction or payment under way, in words. */
function dealBox(view: Json, ctx: BoardContext): HTMLElement | null {
  const phase = get(view, "phase");
  const tag = str(get(phase, "phase"));
  if (tag === "auction") {
    const auction = get(phase, "auction");
    const id = str(get(auction, "tulip")) ?? "";
    const card = parse(id);
    const high = get(auction, "high_bid");
    const active = new Set(list(get(auction, "active")).map((seat) => num(seat)));
    const actor = num(get(auction, "actor"));
    const people = list(get(auction, "participants")).map((seat) => {
      const s = num(seat) ?? 0;
      return h("li", { class: active.has(s) ? "" : "tb-out" }, seatName(ctx, s), active.has(s) ? (s === actor ? " (to bid or pass)" : "") : " (passed)");
    });
    return h(
      "section",
      { class: "tb-deal", "aria-label": "Auction" },
      h("h3", {}, `Auction: ${card ? words(card) : "a tulip"}`),
      h(
        "p",
        { class: "tb-line" },
        `Market price ${money(num(get(auction, "market_price")))}. `,
        high ? `High bid ${money(num(get(high, "amount")))} by ${seatName(ctx, num(get(high, "seat")) ?? 0)}. ` : "No bid yet. ",
        `Smallest bid now ${money(num(get(phase, "minimum_bid")))}.`,
      ),
      h("ul", { class: "tb-people" }, people),
    );
  }
  if (tag === "payment") {
    const payment = get(phase, "payment");
    const card = parse(str(get(payment, "tulip")) ?? "");
    return h(
      "section",
      { class: "tb-deal", "aria-label": "Payment" },
      h("h3", {}, `Payment: ${card ? words(card) : "a tulip"}`),
      h("p", { class: "tb-line" }, `${seatName(ctx, num(get(payment, "buyer")) ?? 0)} buys it for ${money(num(get(payment, "price")))} (market ${money(num(get(payment, "market_price")))}), in cash or on a loan from the bank.`),
    );
  }
  return null;
}

function statusLine(view: Json, ctx: BoardContext): HTMLElement {
  const phase = get(view, "phase");
  const tag = str(get(phase, "phase"));
  const round = num(get(view, "round"));
  let what = "";
  if (tag === "selling") what = `${seatName(ctx, num(get(phase, "seller")) ?? 0)} is selling`;
  else if (tag === "black_tulip_window") {
    const submitted = new Set(list(get(phase, "submitted")).map((seat) => num(seat)));
    const waiting = ctx.names.map((_, seat) => seat).filter((seat) => !submitted.has(seat));
    what = `Black Tulip: each player decides in secret${waiting.length ? `; waiting for ${waiting.map((seat) => seatName(ctx, seat)).join(", ")}` : ""}`;
  } else if (tag === "bid_placement") what = `bid markers, pass ${num(get(phase, "pass")) ?? 1} of 2: ${seatName(ctx, num(get(phase, "placer")) ?? 0)} places`;
  else if (tag === "auction") what = `auction: ${seatName(ctx, num(get(get(phase, "auction"), "actor")) ?? 0)} bids or passes`;
  else if (tag === "payment") what = `${seatName(ctx, num(get(get(phase, "payment"), "buyer")) ?? 0)} pays`;
  else if (tag === "game_over") {
    const reason = str(get(phase, "reason"));
    const winners = list(get(phase, "winners")).map((seat) => seatName(ctx, num(seat) ?? 0));
    what = `Game over: ${reason === "black_tulip" ? "the Black Tulip was bought" : "the Bubble Bust came"}. Winner${winners.length > 1 ? "s" : ""}: ${winners.join(" and ")}`;
  }
  const yourClaim = get(phase, "your_claim");
  return h(
    "p",
    { class: "tb-status" },
    round !== undefined && tag !== "game_over" ? `Round ${round} · ` : "",
    what,
    typeof yourClaim === "boolean" && ctx.you !== null ? h("span", { class: "tb-private", "data-private-owner": String(ctx.you), title: "Only you see this" }, ` · you chose ${yourClaim ? "to buy" : "not to buy"} the Black Tulip`) : null,
  );
}

function eventWords(id: string): string {
  if (id === "BUST") return "Bubble Bust";
  if (id === "SURGE") return "Surge: lowest price up 2";
  if (id.startsWith("CRASH")) return "Crash: highest price down 2";
  const rise = /^RISE_([RWY])/.exec(id);
  if (rise) return `${COLOUR_WORD[rise[1] ?? ""] ?? "a"} Rise: up 1`;
  return "an event";
}

/** Collectors, the Black Tulip and the market events. */
function sideBoard(view: Json, ctx: BoardContext): HTMLElement {
  const stacks = list(get(view, "collector_stacks")).map((stack) => {
    const top = str(get(stack, "top"));
    const [name, wants] = COLLECTORS[top ?? ""] ?? ["nobody left", ""];
    return h(
      "li",
      { class: "tb-collector" },
      h("strong", {}, `+ƒ${num(get(stack, "bonus")) ?? 0} ${name}`),
      wants ? h("span", {}, ` wants ${wants}`) : null,
      h("span", { class: "tb-note" }, ` (${num(get(stack, "count")) ?? 0} in the stack)`),
    );
  });
  const history = list(get(view, "event_history")).map((event, index) => h("li", {}, index === 0 ? `setup: ${eventWords(str(event) ?? "")}` : `round ${index + 1}: ${eventWords(str(event) ?? "")}`));
  const threshold = num(get(get(view, "options"), "black_tulip_threshold")) ?? 120;
  return h(
    "section",
    { class: "tb-side", "aria-label": "Collectors, Black Tulip and events" },
    h("div", {}, h("h3", {}, "Collectors"), h("ul", { class: "tb-list" }, stacks)),
    h(
      "div",
      {},
      h("h3", {}, "Black Tulip"),
      h("p", { class: "tb-line" }, get(view, "black_tulip_available") === false ? "Sold." : `For sale: a player with more than ƒ${threshold} and no loans may buy it and win.`),
    ),
    h(
      "div",
      {},
      h("h3", {}, "Market events"),
      h("ol", { class: "tb-list tb-events" }, history),
      h("p", { class: "tb-note" }, `${plural(num(get(view, "event_deck_count")) ?? 0, "event card")} left${str(get(get(view, "phase"), "phase")) === "game_over" ? "" : "; the Bubble Bust is among the last three"}.`),
    ),
    h("p", { class: "tb-note" }, `Tulip deck: ${plural(num(get(view, "tulip_deck_count")) ?? 0, "card")} · discard pile: ${plural(list(get(view, "tulip_discard")).length, "card")}`),
  );
}

/** The seats the game waits for (rules §3.8), not those who may only repay a loan. */
function required(view: Json, ctx: BoardContext): Set<number> {
  const phase = get(view, "phase");
  const seats = new Set<number>();
  const add = (value: Json): void => {
    const seat = num(value);
    if (seat !== undefined) seats.add(seat);
  };
  add(get(phase, "seller"));
  add(get(phase, "placer"));
  add(get(get(phase, "auction"), "actor"));
  add(get(get(phase, "payment"), "buyer"));
  if (str(get(phase, "phase")) === "black_tulip_window") {
    const submitted = new Set(list(get(phase, "submitted")).map((seat) => num(seat)));
    ctx.names.forEach((_, seat) => {
      if (!submitted.has(seat)) seats.add(seat);
    });
  }
  return seats;
}

function playerRows(view: Json, ctx: BoardContext, over: boolean): HTMLElement {
  const waiting = required(view, ctx);
  const start = num(get(view, "start_player"));
  const scores = list(get(get(view, "phase"), "scores"));
  const rows = list(get(view, "players")).map((player, index) => {
    const seat = num(get(player, "seat")) ?? index;
    const mine = seat === ctx.you;
    const cash = num(get(player, "cash"));
    const concealed = get(player, "concealed");
    const loans = list(get(player, "financed")).map((loan) => {
      const id = str(get(loan, "tulip")) ?? "";
      const move = mine ? moveFor(ctx, "buy_back", (action) => get(action, "tulip") === id) : undefined;
      return tulipCard(view, ctx, id, [], { move, note: `loan ${money(num(get(loan, "loan")))}` });
    });
    const available = num(get(player, "markers_available")) ?? 0;
    const flags: string[] = [];
    if (seat === start) flags.push("start player");
    if (get(player, "selling_done") === true && !over) flags.push("has sold this round");
    if (get(player, "collector_used_this_round") === true && !over) flags.push("sold to a collector");
    if (waiting.has(seat) && !over) flags.push("to act");
    const score = num(scores[seat]);
    return h(
      "li",
      { class: mine ? "tb-player tb-you" : "tb-player" },
      h(
        "div",
        { class: "tb-player-head" },
        h("span", { class: "tb-marker", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}` }, seatName(ctx, seat)),
        mine ? " (you)" : "",
        flags.length ? h("span", { class: "tb-note" }, ` ${flags.join(" · ")}`) : null,
      ),
      h(
        "div",
        { class: "tb-strip" },
        mine && !over ? null : h("span", { class: "tb-cash" }, cash === undefined ? "cash hidden behind the screen" : `cash ${money(cash)}`),
        over && Array.isArray(concealed) && !mine ? h("span", { class: "tb-note" }, concealed.length === 0 ? "nothing behind the screen" : "behind the screen:") : null,
        over && Array.isArray(concealed) && !mine ? concealed.map((entry) => tulipCard(view, ctx, str(entry) ?? "", [])) : null,
        score !== undefined ? h("span", { class: "tb-cash" }, `score ${money(score)}`) : null,
        h("span", { class: "tb-note" }, `bid markers in hand: ${"●".repeat(available)}${available === 0 ? "none" : ""}`),
      ),
      loans.length ? h("div", { class: "tb-strip" }, h("span", { class: "tb-label" }, "On loan:"), loans) : null,
    );
  });
  return h("section", { class: "tb-players", "aria-label": "Players" }, h("h3", {}, "Players"), h("ul", { class: "tb-player-list" }, rows));
}

/** The viewer's screen: cash and concealed tulips (private until the game is over). */
function hints(ctx: BoardContext): HTMLElement | null {
  const types = new Set(ctx.moves.map((move) => String(get(move.action, "type"))));
  const said: string[] = [];
  if (types.has("place_bids") || ctx.picks.some((pick) => pick.tag === "place_bids")) said.push("Tap the tulips in New Arrivals or Just Sold to put your bid markers on, then press Play in the moves list (or play with none ticked to place no marker).");
  if (types.has("sell_to_market")) said.push("Tap one of your tulips to sell it to the market at its price.");
  if (types.has("buy_back")) said.push("Tap a tulip on loan to repay its loan.");
  if (types.has("auction_bid") || types.has("auction_pass")) said.push("Bid or pass in the moves list.");
  return said.length ? h("p", { class: "tb-hint tb-do" }, said.join(" ")) : null;
}

function yourScreen(view: Json, ctx: BoardContext, over: boolean): HTMLElement | null {
  if (ctx.you === null) return null;
  const me = list(get(view, "players")).find((player, index) => (num(get(player, "seat")) ?? index) === ctx.you);
  const cash = num(get(me, "cash"));
  const concealed = get(me, "concealed");
  if (!me || cash === undefined || !Array.isArray(concealed)) return null;
  const owner = over ? undefined : String(ctx.you);
  const cards = concealed.map((entry) => {
    const id = str(entry) ?? "";
    const move = moveFor(ctx, "sell_to_market", (action) => get(action, "tulip") === id);
    return tulipCard(view, ctx, id, [], { move, privateOwner: owner });
  });
  return h(
    "section",
    { class: over ? "tb-yours" : "tb-yours tb-private", "data-private-owner": owner, "aria-label": "Behind your screen" },
    h("h3", {}, over ? "Behind your screen" : "Behind your screen (only you see this)"),
    h(
      "div",
      { class: "tb-strip" },
      h("span", { class: "tb-cash", "data-private-owner": owner }, `cash ${money(cash)}`),
      cards.length ? cards : h("span", { class: "tb-note", "data-private-owner": owner }, "no tulips"),
    ),
  );
}

export function tulipBubble(view: Json, ctx: BoardContext): Element | null {
  const picture = tracks(view);
  if (!picture) return null;
  const phase = get(view, "phase");
  const tag = str(get(phase, "phase"));
  const over = tag === "game_over";
  const current = str(get(get(phase, "auction"), "tulip")) ?? str(get(get(phase, "payment"), "tulip"));
  const bidding = tag === "bid_placement";
  return h(
    "div",
    { class: "tb-board" },
    statusLine(view, ctx),
    picture,
    dealBox(view, ctx),
    hints(ctx),
    yourScreen(view, ctx, over),
    marketRow(view, ctx, "New Arrivals", bidding ? "bid markers go here" : "can be bid on", list(get(view, "new_arrivals")), true, current),
    marketRow(view, ctx, "Just Sold", "can be bid on", list(get(view, "just_sold")), true, current),
    marketRow(view, ctx, "Next Shipment", "arrives next round, no bids", list(get(view, "next_shipment")), false, undefined),
    playerRows(view, ctx, over),
    sideBoard(view, ctx),
  );
}
