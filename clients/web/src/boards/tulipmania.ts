import { playable, type BoardContext, type BoardMove } from "./board";
import { h, svg } from "../dom";
import { COLOURS, frame, get, type Json, list, num, seatName, str, text } from "./draw";

/**
 * Tulipmania 1637: the market board (every colour's price marker on its space, the grey
 * spaces a speculation or an all-pass sale pays at, the gold burst row), the sale under way
 * (the tulip on offer, what each card would pay, who has chosen a card), the buyer cards on
 * the table, every player's public holdings, and the viewer's own hand in a strip of its own.
 */

interface Space {
  id: string;
  value: number;
  kind: string;
  start: boolean;
}

/** The default board (rules §1.5.3), row r6 at the top; used when the view names it. */
const DEFAULT_ROWS: [number, string, number[]][] = [
  [6, "burst", [3000, 4000, 6000, 8000]],
  [5, "transition", [2250, 3000, 4500, 6000]],
  [4, "current", [750, 1000, 1500, 2000]],
  [3, "transition", [375, 750, 1125, 1500]],
  [2, "current", [125, 250, 375, 500]],
  [1, "transition", [75, 150, 225, 300]],
  [0, "current", [25, 50, 75, 100]],
];

/** The board's spaces by row (top row first) and column, from the options or the default. */
function boardGrid(view: Json): Space[][] | null {
  const option = get(get(view, "options"), "board");
  const custom = list(get(option, "spaces"));
  if (custom.length > 0) {
    const rows = new Map<number, Space[]>();
    for (const entry of custom) {
      const id = str(get(entry, "id")) ?? "";
      const match = /^r(\d+)c(\d+)$/.exec(id);
      const value = num(get(entry, "value"));
      if (!match || value === undefined) return null;
      const row = Number(match[1]);
      const col = Number(match[2]);
      const cells = rows.get(row) ?? [];
      cells[col] = { id, value, kind: str(get(entry, "kind")) ?? "current", start: get(entry, "start") === true };
      rows.set(row, cells);
    }
    return [...rows.entries()].sort((a, b) => b[0] - a[0]).map(([, cells]) => cells);
  }
  if (option !== undefined && option !== "reconstructed_v1") return null;
  return DEFAULT_ROWS.map(([row, kind, values]) => values.map((value, col) => ({ id: `r${row}c${col}`, value, kind, start: row === 0 && col === 1 })));
}

const CARDS: [string, string, number][] = [
  ["speculate", "Speculate", 4],
  ["speculate_by_proxy", "Speculate by proxy", 3],
  ["purchase", "Purchase", 2],
  ["purchase_by_proxy", "Purchase by proxy", 1],
  ["pass", "Pass", 0],
];
const CARD_NAME = new Map(CARDS.map(([id, name]) => [id, name]));

const PHASES: Record<string, string> = {
  sell_choice: "choosing a tulip to sell",
  commit: "the others choose an action card face down",
  seller_card: "everyone passed: the seller may play a card",
  draw: "drawing a buyer card",
  purchase: "buying a tulip from the stockpile",
  game_over: "the game is over",
};

/** Dark or light ink on a colour. */
function ink(colour: string): string {
  return colour === "purple" || colour === "blue" || colour === "red" ? "#ffffff" : "#1f2328";
}

function florins(amount: number | undefined): string {
  return amount === undefined ? "—" : `ƒ${amount.toLocaleString("en-GB")}`;
}

function actionOf(move: BoardMove): Json {
  return move.action;
}

function findMove(ctx: BoardContext, type: string, test: (action: Json) => boolean): BoardMove | undefined {
  return ctx.moves.find((move) => get(actionOf(move), "type") === type && test(actionOf(move)));
}

/** A tulip chip: the colour, and a count when given. */
function tulipChip(colour: string, count?: number, extra = ""): HTMLElement {
  return h(
    "span",
    { class: `tm-chip ${extra}`.trim(), style: `background:${COLOURS[colour] ?? "#888"};color:${ink(colour)}` },
    count === undefined ? colour : `${count} ${colour}`,
  );
}


/** The market board as SVG: the matrix of spaces with every live colour's marker on it. */
function priceBoard(view: Json, grid: Space[][]): SVGElement {
  const markers = list(get(view, "markers"));
  const cellW = 100;
  const cellH = 40;
  const left = 86;
  const top = 34;
  const cols = Math.max(...grid.map((row) => row.length));
  const width = left + cols * cellW + 12;
  const height = top + grid.length * cellH + 40;
  const parts: SVGElement[] = [text(left + (cols * cellW) / 2, 20, "Purchase: a step right · Speculate: a jump up", { "font-size": 14, fill: "#59636e" })];
  const where = new Map<string, string[]>();
  for (const marker of markers) {
    const space = str(get(marker, "space"));
    const colour = str(get(marker, "colour"));
    if (space && colour) where.set(space, [...(where.get(space) ?? []), colour]);
  }
  grid.forEach((row, r) => {
    const y = top + r * cellH;
    const kind = row.find((cell) => cell)?.kind ?? "current";
    parts.push(text(left - 8, y + cellH / 2 + 4, kind === "burst" ? "burst" : kind === "transition" ? "pays at" : "price", { "text-anchor": "end", "font-size": 14, fill: "#59636e" }));
    row.forEach((cell, c) => {
      if (!cell) return;
      const x = left + c * cellW;
      const fill = cell.kind === "burst" ? "#f3d36b" : cell.kind === "transition" ? "#d9d9d9" : "#ffffff";
      parts.push(svg("rect", { x: x + 2, y: y + 2, width: cellW - 4, height: cellH - 4, rx: 5, fill, stroke: cell.start ? "#8a1c3a" : "#9a9385", "stroke-width": cell.start ? 2 : 1 }));
      parts.push(text(x + 9, y + cellH / 2 + 5, florins(cell.value), { "text-anchor": "start", "font-size": 16, "font-weight": cell.kind === "current" ? 700 : 400, fill: "#1f2328" }));
      if (cell.start) parts.push(text(x + cellW - 8, y + 13, "start", { "font-size": 10, "text-anchor": "end", fill: "#8a1c3a" }));
      const here = where.get(cell.id) ?? [];
      here.forEach((colour, index) => {
        const cx = x + 60 + index * 9;
        parts.push(svg("circle", { cx, cy: y + cellH / 2 + 2, r: 7.5, fill: COLOURS[colour] ?? "#888", stroke: "#1f2328", "stroke-width": 1.2 }, svg("title", {}, `${colour} price marker`)));
      });
    });
  });
  const yKey = top + grid.length * cellH + 22;
  const key: [string, string][] = [["#ffffff", "price"], ["#d9d9d9", "Speculate or all-pass pays"], ["#f3d36b", "bursts"]];
  let x = left;
  for (const [fill, words] of key) {
    parts.push(svg("rect", { x, y: yKey - 11, width: 14, height: 14, rx: 3, fill, stroke: "#9a9385" }));
    parts.push(text(x + 19, yKey, words, { "text-anchor": "start", "font-size": 13, fill: "#59636e" }));
    x += 36 + words.length * 7;
  }
  const summary = markers
    .map((marker) => {
      const colour = str(get(marker, "colour")) ?? "";
      const price = num(get(marker, "price"));
      return price === undefined ? `${colour} has burst` : `${colour} at ${florins(price)}`;
    })
    .join(", ");
  const board = frame(width, height, `Market board. Prices: ${summary}.`, ...parts);
  board.classList.add("tm-board-svg");
  return board;
}

/** Each colour's price, what its cards pay now, and its stock. */
function priceTable(view: Json, ctx: BoardContext): HTMLElement {
  const markers = list(get(view, "markers"));
  const stock = get(view, "stock");
  const burst = list(get(view, "burst_order")).map((colour) => str(colour) ?? "");
  const sold = str(get(view, "sold_colour_this_turn"));
  const rows = markers.map((marker) => {
    const colour = str(get(marker, "colour")) ?? "";
    const price = num(get(marker, "price"));
    const buy = findMove(ctx, "buy_tulip", (action) => get(action, "colour") === colour);
    const stockCount = num(get(stock, colour));
    const stockCell = h("td", {}, stockCount === undefined ? "—" : String(stockCount));
    if (buy) {
      const button = h("span", { class: "tm-buy" }, `Buy one for ${florins(price)}`);
      stockCell.append(" ", playable(button, buy, ctx));
    }
    const burstAt = burst.indexOf(colour);
    return h(
      "tr",
      { class: price === undefined ? "tm-burst" : "" },
      h("th", { scope: "row" }, tulipChip(colour), colour === sold && price !== undefined ? h("div", { class: "tm-note" }, "sold this turn") : null),
      price === undefined
        ? h("td", { colspan: 3 }, `burst (${ordinal(burstAt + 1)} to burst)`)
        : [h("td", {}, florins(price)), h("td", {}, florins(num(get(marker, "speculate_price")))), h("td", {}, florins(num(get(marker, "all_pass_price"))))],
      stockCell,
    );
  });
  return h(
    "div",
    { class: "tm-table-wrap" },
    h(
      "table",
      { class: "tm-prices" },
      h("caption", {}, "Prices now"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "colour"), h("th", { scope: "col" }, "price"), h("th", { scope: "col" }, "Speculate pays"), h("th", { scope: "col" }, "all pass pays"), h("th", { scope: "col" }, "stock"))),
      h("tbody", {}, rows),
    ),
  );
}

function ordinal(n: number): string {
  return ["first", "second", "third", "fourth", "fifth"][n - 1] ?? `number ${n}`;
}

/** The sale under way: the tulip on offer, the seller, and who has chosen a card. */
function saleBox(view: Json, ctx: BoardContext): HTMLElement | null {
  const colour = str(get(view, "in_transit"));
  const phase = str(get(view, "phase")) ?? "";
  const current = num(get(view, "current_player"));
  if (!colour || current === undefined) return null;
  const marker = list(get(view, "markers")).find((entry) => get(entry, "colour") === colour);
  const committed = new Set(list(get(view, "committed")).map((seat) => num(seat)));
  const revealed = list(get(view, "revealed"));
  const others = list(get(view, "players"))
    .map((player, index) => num(get(player, "seat")) ?? index)
    .filter((seat) => seat !== current);
  const status = others.map((seat) => {
    const shown = revealed.find((entry) => num(get(entry, "seat")) === seat);
    let what: string;
    if (shown) what = `played ${CARD_NAME.get(str(get(shown, "card")) ?? "") ?? "a card"}`;
    else if (phase === "commit") what = committed.has(seat) ? "card chosen, face down" : "still choosing";
    else what = "";
    return h("li", { class: seat === ctx.you ? "tm-you" : "" }, h("strong", {}, seatName(ctx, seat)), what ? `: ${what}` : "");
  });
  return h(
    "section",
    { class: "tm-sale", "aria-label": "The tulip on offer" },
    h("h3", {}, "On offer"),
    h(
      "div",
      { class: "tm-offer" },
      h("span", { class: "tm-tulip", style: `background:${COLOURS[colour] ?? "#888"};color:${ink(colour)}` }, `${colour} tulip`),
      h(
        "div",
        {},
        h("p", { class: "tm-line" }, `${seatName(ctx, current)} is selling it.`),
        h(
          "p",
          { class: "tm-line" },
          `Purchase pays ${florins(num(get(marker, "price")))}; Speculate pays ${florins(num(get(marker, "speculate_price")))}; if everyone passes the bank pays the seller ${florins(num(get(marker, "all_pass_price")))}.`,
        ),
      ),
    ),
    status.length > 0 ? h("ul", { class: "tm-commits" }, status) : null,
  );
}

/** The buyer cards on the table: the face-up row, the deck and the reserve. */
function buyerRow(view: Json, ctx: BoardContext): HTMLElement {
  const faceUp = list(get(view, "face_up"));
  const cards = faceUp.map((entry, index) => {
    const colour = str(entry) ?? "";
    const card = h("span", { class: "tm-buyer", style: `border-color:${COLOURS[colour] ?? "#888"}` }, h("span", { class: "tm-buyer-band", style: `background:${COLOURS[colour] ?? "#888"}` }), `${colour} buyer`);
    const move = findMove(ctx, "draw_buyer", (action) => get(action, "face_up") === index);
    return move ? playable(card, move, ctx) : card;
  });
  const deckCount = num(get(view, "deck_count")) ?? 0;
  const deck = h("span", { class: "tm-buyer tm-deck" }, get(view, "deck_exhausted") === true ? "deck used up" : `deck: ${deckCount} face down`);
  const fromDeck = findMove(ctx, "draw_buyer", (action) => get(action, "face_up") === undefined || get(action, "face_up") === null);
  return h(
    "section",
    { class: "tm-buyers", "aria-label": "Buyer cards on the table" },
    h("h3", {}, "Buyer cards"),
    h("div", { class: "tm-strip" }, cards, fromDeck ? playable(deck, fromDeck, ctx) : deck, h("span", { class: "tm-note" }, `reserve: ${num(get(view, "reserve_count")) ?? 0}`)),
  );
}

/** Every player's public holdings, the viewer's row marked. */
function playersTable(view: Json, ctx: BoardContext): HTMLElement {
  const colours = list(get(view, "colours")).map((colour) => str(colour) ?? "");
  const current = num(get(view, "current_player"));
  const priority = num(get(view, "priority_holder"));
  const result = get(view, "result");
  const ranks = list(get(result, "ranks"));
  const rows = list(get(view, "players")).map((player, index) => {
    const seat = num(get(player, "seat")) ?? index;
    const tulips = get(player, "tulips");
    const badges: string[] = [];
    if (seat === current) badges.push("current player");
    if (seat === priority) badges.push("priority");
    if (ctx.toAct.includes(seat)) badges.push("to act");
    const rank = num(ranks[seat]);
    return h(
      "li",
      { class: seat === ctx.you ? "tm-player tm-you" : "tm-player" },
      h("div", { class: "tm-player-head" }, h("strong", {}, seatName(ctx, seat), seat === ctx.you ? " (you)" : ""), badges.length ? h("span", { class: "tm-badges" }, badges.join(" · ")) : null),
      h(
        "div",
        { class: "tm-strip" },
        h("span", { class: "tm-cash" }, florins(num(get(player, "cash")))),
        colours.map((colour) => {
          const count = num(get(tulips, colour)) ?? 0;
          return count > 0 ? tulipChip(colour, count) : null;
        }),
        h("span", { class: "tm-note" }, `${num(get(player, "buyer_count")) ?? 0} buyer cards`),
        rank !== undefined ? h("span", { class: "tm-note" }, `rank ${rank}`) : null,
      ),
    );
  });
  return h("section", { class: "tm-players", "aria-label": "Players" }, h("h3", {}, "Players"), h("ul", { class: "tm-player-list" }, rows));
}

/** The viewer's own strip: tulips to sell, hidden buyer cards, the action cards. */
function yourStrip(view: Json, ctx: BoardContext): HTMLElement | null {
  if (ctx.you === null) return null;
  const me = list(get(view, "players")).find((player, index) => (num(get(player, "seat")) ?? index) === ctx.you);
  if (!me) return null;
  const you = String(ctx.you);
  const colours = list(get(view, "colours")).map((colour) => str(colour) ?? "");
  const tulips = get(me, "tulips");
  const tulipRow = colours.flatMap((colour) => {
    const count = num(get(tulips, colour)) ?? 0;
    if (count === 0) return [];
    const chip = tulipChip(colour, count, "tm-own-tulip");
    const sell = findMove(ctx, "sell_tulip", (action) => get(action, "colour") === colour);
    return [sell ? playable(chip, sell, ctx) : chip];
  });
  const buyers = get(me, "buyers");
  const buyerCards =
    buyers === undefined || buyers === null
      ? []
      : colours.flatMap((colour) => {
          const count = num(get(buyers, colour)) ?? 0;
          return Array.from({ length: count }, () =>
            h("span", { class: "tm-buyer", style: `border-color:${COLOURS[colour] ?? "#888"}`, "data-private-owner": you }, h("span", { class: "tm-buyer-band", style: `background:${COLOURS[colour] ?? "#888"}` }), `${colour} buyer`),
          );
        });
  const sealed = str(get(me, "sealed_card"));
  const hints: string[] = [];
  if (ctx.moves.some((move) => get(move.action, "type") === "sell_tulip")) hints.push("Tap one of your tulips to offer it for sale.");
  if (ctx.moves.some((move) => ["commit_card", "play_seller_card"].includes(String(get(move.action, "type"))))) hints.push("Tap an action card to play it.");
  if (ctx.moves.some((move) => get(move.action, "type") === "draw_buyer")) hints.push("Tap a buyer card below, or the deck, to draw it.");
  if (ctx.moves.some((move) => get(move.action, "type") === "buy_tulip")) hints.push("Buy a tulip from the stock in the price table above.");
  const cardButtons = CARDS.map(([id, name, rank]) => {
    const card = h("span", { class: id === sealed ? "tm-action-card tm-chosen" : "tm-action-card" }, h("span", { class: "tm-rank" }, String(rank)), name);
    const move = findMove(ctx, "commit_card", (action) => get(action, "card") === id) ?? findMove(ctx, "play_seller_card", (action) => get(action, "card") === id);
    return move ? playable(card, move, ctx) : card;
  });
  return h(
    "section",
    { class: "tm-yours", "aria-label": "Your hand" },
    h("h3", {}, "Your hand"),
    hints.length ? h("p", { class: "tm-hint" }, hints.join(" ")) : null,
    h("div", { class: "tm-strip" }, h("span", { class: "tm-label" }, "Tulips:"), tulipRow.length ? tulipRow : h("span", { class: "tm-note" }, "none")),
    buyers === undefined || buyers === null
      ? null
      : h(
          "div",
          { class: "tm-strip tm-private", "data-private-owner": you, title: "Only you see this" },
          h("span", { class: "tm-label" }, "Buyer cards (only you see them):"),
          buyerCards.length ? buyerCards : h("span", { class: "tm-note" }, "none"),
        ),
    sealed
      ? h("p", { class: "tm-private tm-line", "data-private-owner": you, title: "Only you see this" }, `Your card, face down: ${CARD_NAME.get(sealed) ?? "a card"} (only you see it)`)
      : null,
    h("div", { class: "tm-strip" }, h("span", { class: "tm-label" }, "Action cards:"), cardButtons),
  );
}

function statusLine(view: Json, ctx: BoardContext): HTMLElement {
  const phase = str(get(view, "phase")) ?? "";
  const turn = num(get(view, "turn_number"));
  const current = num(get(view, "current_player"));
  const result = get(view, "result");
  if (result !== undefined && result !== null) {
    const winners = list(get(result, "winners")).map((seat) => seatName(ctx, num(seat) ?? 0));
    const reason = str(get(result, "reason")) ?? "";
    const why = reason === "final_burst" ? "the last colour burst" : reason === "all_decline" ? "a whole round passed without trade" : reason === "turn_cap" ? "the turn limit was reached" : "the game ended";
    return h("p", { class: "tm-status" }, `Game over: ${why}. Winner${winners.length > 1 ? "s" : ""}: ${winners.join(" and ")}.`);
  }
  const burst = list(get(view, "burst_order")).map((colour) => str(colour) ?? "");
  return h(
    "p",
    { class: "tm-status" },
    turn !== undefined ? `Turn ${turn}` : "",
    current !== undefined ? ` · ${seatName(ctx, current)}'s turn: ${PHASES[phase] ?? "playing"}` : "",
    burst.length ? ` · burst: ${burst.join(", ")}` : "",
  );
}

export function tulipmania(view: Json, ctx: BoardContext): Element | null {
  const markers = list(get(view, "markers"));
  if (markers.length === 0) return null;
  const grid = boardGrid(view);
  return h(
    "div",
    { class: "tm-board" },
    statusLine(view, ctx),
    grid ? priceBoard(view, grid) : null,
    priceTable(view, ctx),
    saleBox(view, ctx),
    yourStrip(view, ctx),
    buyerRow(view, ctx),
    playersTable(view, ctx),
  );
}
