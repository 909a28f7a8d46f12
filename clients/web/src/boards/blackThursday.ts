/**
 * Black Thursday's board, drawn from the rulebook's components: the building (its tile slots,
 * face-down tiles as brokerage offices, face-up tiles as a company's windows with the great
 * window marked), the investors' pawns standing on it, the four companies with their open
 * windows and the certificates left in the market bag, each investor's public portfolio (the
 * suits of their certificates, the values the viewer knows), the viewer's own certificates in
 * a strip of their own, the trading session with its offers in words, and the promises and
 * claims. The names are the server's words (shared/game-black-thursday/src/words.rs).
 *
 * Moves the board can place are played from it: a roof space to place the pawn on, a space
 * to move down to, the street door to leave by, a tile to flip, the corner of a new tile its
 * great window goes to, a certificate to sell, the market bag to buy from, an offer to accept.
 */
import { playable, type BoardContext, type BoardMove } from "./board";
import { h, svg } from "../dom";
import { get, type Json, list, num, plural, seatName, str, text, you } from "./draw";

interface Company {
  name: string;
  short: string;
  symbol: string;
  /** The tile's window tint, its great window and the certificate chip's colour (all with dark text). */
  light: string;
  strong: string;
  ink: string;
}

/** The companies by suit (spec §0: the theme names, the suit in each name). */
const COMPANIES: Record<string, Company> = {
  suns: { name: "Sun Textiles", short: "Sun", symbol: "☀", light: "#fbe7b5", strong: "#f2c14e", ink: "#5c3d00" },
  moons: { name: "Sickle Moon Steel", short: "Moon", symbol: "☾", light: "#d6e4f5", strong: "#8fb3e0", ink: "#183a66" },
  crowns: { name: "Crown Petroleum", short: "Crown", symbol: "♛", light: "#d8eedc", strong: "#86c995", ink: "#1d4d2a" },
  arms: { name: "Clean Arms Chemical", short: "Arms", symbol: "⚜", light: "#f6d8d4", strong: "#e39a90", ink: "#6b1d14" },
};
const SUITS = ["suns", "moons", "crowns", "arms"];

/** Each seat's pawn colour: dark enough for a white initial, apart from the company tints. */
const PAWNS = ["#1d4ed8", "#be185d", "#047857", "#6d28d9"];

function company(suit: string | undefined): Company | undefined {
  return suit === undefined ? undefined : COMPANIES[suit];
}




/** A certificate's worth in words: "preferred" for the null, else "3 shares". */
function worth(value: number): string {
  return value === 0 ? "preferred" : plural(value, "share");
}

function list_(words: string[]): string {
  if (words.length <= 1) return words[0] ?? "nobody";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Free text from a player, as the server quotes it: no braces or underscores. */
function quote(content: string): string {
  const plain = content.replace(/"/g, "'").replace(/[{[]/g, "(").replace(/[}\]]/g, ")").replace(/_/g, " ").replace(/\s+/g, " ").trim();
  return `“${plain}”`;
}

/** A status word of the spec (LIVE, OPEN, in_building) as lower-case words. */
function statusWords(value: Json): string {
  return (str(value) ?? "").toLowerCase().replace(/_/g, " ");
}

function seats(value: Json): number[] {
  return list(value)
    .map((seat) => num(seat))
    .filter((seat): seat is number => seat !== undefined);
}

function space(value: Json): { x: number; y: number } | undefined {
  const x = num(get(value, "x"));
  const y = num(get(value, "y"));
  return x !== undefined && y !== undefined ? { x, y } : undefined;
}

function spaceWords(at: { x: number; y: number }): string {
  return `column ${at.x + 1}, row ${at.y + 1}`;
}

/** The corner of a tile that holds its great window at `rotation` (spec §1.2, PQ). */
function pipQuadrant(rotation: number): [number, number] {
  switch (rotation) {
    case 90:
      return [1, 0];
    case 180:
      return [1, 1];
    case 270:
      return [0, 1];
    default:
      return [0, 0];
  }
}

const CORNERS: Record<string, string> = { "0,0": "top left", "1,0": "top right", "1,1": "bottom right", "0,1": "bottom left" };
const ROTATION: Record<string, number> = { "0,0": 0, "1,0": 90, "1,1": 180, "0,1": 270 };

/** Where a pawn stands, in words. */
function whereWords(player: Json): string {
  const status = str(get(player, "status"));
  if (status === "exited") return "left the building";
  if (status === "jumped") return "jumped";
  const position = get(player, "position");
  if (position === "unplaced") return "waiting to enter from the roof";
  const at = space(get(position, "at"));
  return at ? `at ${spaceWords(at)}` : "";
}

function isMove(move: BoardMove, type: string): Record<string, unknown> | undefined {
  const action = move.action;
  if (typeof action !== "object" || action === null || Array.isArray(action)) return undefined;
  const record = action as Record<string, unknown>;
  return record["type"] === type ? record : undefined;
}

/** The move of `type` whose action `matches`. */
function findMove(ctx: BoardContext, type: string, matches: (action: Record<string, unknown>) => boolean): BoardMove | undefined {
  return ctx.moves.find((move) => {
    const action = isMove(move, type);
    return action !== undefined && matches(action);
  });
}

/** The phase in words, with whose turn it is. */
function phaseWords(view: Json, ctx: BoardContext): string {
  const turn = get(view, "turn");
  const active = num(get(turn, "active"));
  const who = active === undefined ? "The turn player" : you(ctx, active);
  const phase = get(turn, "phase");
  const tag = str(get(phase, "phase")) ?? str(phase);
  const die = num(get(turn, "die"));
  const ap = num(get(turn, "ap_remaining")) ?? 0;
  const rolled = die === undefined ? "" : die === 0 ? "rolled a null" : `rolled ${die}`;
  switch (tag) {
    case "place":
      return `${who} places a pawn on a free roof space.`;
    case "opportunity":
      return `${who} rolled a null: an opportunity to flip any tile no pawn stands on.`;
    case "orient":
      return `${who} turned a tile face up and now chooses the corner of its great window.`;
    case "actions":
      return `${who} ${rolled ? `${rolled} and ` : ""}has ${plural(ap, "action point")} to spend: move down, buy, trade with the market or open a trading session.`;
    case "sale": {
      const c = company(str(get(phase, "suit")));
      const great = get(phase, "great") === true;
      return `${who} stands on a ${c?.name ?? ""} ${great ? "great window and must sell one or more" : "window and must sell one"} of its certificates (${plural(ap, "action point")} left).`;
    }
    case "session":
      return `${who} opened a trading session; its participants bargain below.`;
    case "ended":
      return "The game is over: every certificate is revealed.";
    default:
      return "";
  }
}

/** Black Thursday: the building, the companies, the investors and the trading table. */
export function blackThursday(view: Json, ctx: BoardContext): Element | null {
  const slots = list(get(view, "slots"));
  if (slots.length === 0) return null;
  const players = list(get(view, "players"));
  const ended = get(view, "ended") === true;
  const seatOf = (player: Json, index: number): number => num(get(player, "seat")) ?? index;

  const sections: Element[] = [];
  const phase = phaseWords(view, ctx);
  const turnNumber = num(get(get(view, "turn"), "number"));
  if (phase) sections.push(h("p", { class: "bt-phase" }, turnNumber !== undefined && !ended ? h("strong", {}, `Turn ${turnNumber}. `) : null, phase));

  const standings = standingsPart(view, ctx);
  if (standings) sections.push(standings);

  const side = h("div", { class: "bt-side" }, companiesPart(view, ctx, players), playersPart(view, ctx, players, seatOf, ended));
  sections.push(h("div", { class: "bt-top" }, building(view, ctx, slots, players, seatOf), side));

  const mine = ownStrip(view, ctx, players, seatOf);
  if (mine) sections.splice(1, 0, mine);
  const session = sessionPart(view, ctx);
  if (session) sections.push(session);
  const promises = promisesPart(view, ctx);
  if (promises) sections.push(promises);
  return h("div", { class: "bt-board" }, sections);
}

/** The building as SVG: slots, tiles, pawns, and the spaces the viewer may place or move to. */
function building(view: Json, ctx: BoardContext, slots: Json[], players: Json[], seatOf: (player: Json, index: number) => number): Element {
  const U = 28;
  const left = 24;
  const top = 34;
  const origins = slots.map((slot) => space(get(slot, "origin")) ?? { x: 0, y: 0 });
  const cols = Math.max(...origins.map((o) => o.x)) + 2;
  const rows = Math.max(...origins.map((o) => o.y)) + 2;
  const width = left + cols * U + 10;
  const streetY = top + rows * U + 6;
  const height = streetY + 40;
  const turnPhase = get(get(view, "turn"), "phase");
  const orientSlot = str(get(turnPhase, "phase")) === "orient" ? num(get(turnPhase, "slot")) : undefined;
  const parts: SVGElement[] = [];

  // The sky, the roof line and the street.
  parts.push(svg("rect", { x: 0, y: 0, width, height, fill: "#eef2f6" }));
  parts.push(text(left + (cols * U) / 2, 14, "Roof", { "font-size": 11, fill: "#3d4650", "font-weight": 600 }));
  parts.push(svg("rect", { x: left - 4, y: top - 6, width: cols * U + 8, height: 5, fill: "#3d4650", rx: 2 }));
  parts.push(svg("rect", { x: 0, y: streetY, width, height: height - streetY, fill: "#b8bfc7" }));
  // Columns and rows counted from 1, as the moves count them.
  for (let c = 0; c < cols; c++) parts.push(text(left + c * U + U / 2, top - 10, String(c + 1), { "font-size": 9, fill: "#4a535c" }));
  for (let r = 0; r < rows; r++) parts.push(text(left / 2, top + r * U + U / 2 + 3, String(r + 1), { "font-size": 9, fill: "#4a535c" }));

  slots.forEach((slot, index) => {
    const id = num(get(slot, "id")) ?? index;
    const origin = origins[index] ?? { x: 0, y: 0 };
    const x = left + origin.x * U;
    const y = top + origin.y * U;
    const faceUp = get(slot, "face_up") === true;
    const tile = get(slot, "tile");
    const c = company(str(get(tile, "suit")));
    const group = svg("g", { class: "bt-slot" });
    const seen = company(str(get(get(slot, "last_seen"), "suit")));
    if (faceUp && c) {
      const [px, py] = pipQuadrant(num(get(slot, "rotation")) ?? 0);
      for (const [qx, qy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const great = qx === px && qy === py;
        group.append(svg("rect", { x: x + qx * U + 1, y: y + qy * U + 1, width: U - 2, height: U - 2, fill: great ? c.strong : c.light, stroke: c.ink, "stroke-width": 0.6 }));
        if (great) group.append(text(x + qx * U + U / 2, y + qy * U + U / 2 + 5, "★", { "font-size": 14, fill: c.ink }));
      }
      group.append(svg("rect", { x: x + 0.5, y: y + 0.5, width: 2 * U - 1, height: 2 * U - 1, fill: "none", stroke: c.ink, "stroke-width": 1.5, rx: 2 }));
      group.append(text(x + U, y + U + 4, c.short, { "font-size": 10, "font-weight": 700, fill: c.ink, "paint-order": "stroke", stroke: "#ffffff", "stroke-width": 2.5 }));
      group.append(svg("title", {}, `Slot ${id + 1}: face up, ${c.name} windows; the great window (★) is at the ${CORNERS[`${px},${py}`] ?? "top left"}.`));
    } else {
      // A face-down tile: four brokerage offices.
      group.append(svg("rect", { x: x + 0.5, y: y + 0.5, width: 2 * U - 1, height: 2 * U - 1, fill: "#5b6470", stroke: "#2d333a", rx: 2 }));
      group.append(svg("path", { d: `M${x + U} ${y + 3}V${y + 2 * U - 3}M${x + 3} ${y + U}H${x + 2 * U - 3}`, stroke: "#8b95a1", "stroke-width": 1 }));
      const was = seen ? `; it was ${seen.name} when last face up` : "";
      group.append(svg("title", {}, `Slot ${id + 1}: face down, four offices${was}.`));
      if (seen) group.append(text(x + U, y + 2 * U - 4, `was ${seen.short}`, { "font-size": 7, fill: "#ffffff" }));
    }
    group.append(text(x + 4, y + 10, String(id + 1), { "font-size": 7, "text-anchor": "start", fill: faceUp ? "#1f2328" : "#e6e9ec" }));
    const flip = findMove(ctx, "flip_tile", (action) => action["slot"] === id);
    if (flip) {
      group.append(svg("rect", { class: "bt-target", x: x + 2, y: y + 2, width: 2 * U - 4, height: 2 * U - 4, rx: 3 }));
      playable(group, flip, ctx);
    }
    parts.push(group);
    // The corners of a tile just turned face up: where its great window may go.
    if (orientSlot === id) {
      for (const [qx, qy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const rotation = ROTATION[`${qx},${qy}`];
        const move = findMove(ctx, "orient_tile", (action) => action["rotation"] === rotation);
        if (!move) continue;
        const corner = svg("g", {}, svg("rect", { class: "bt-target", x: x + qx * U + 2, y: y + qy * U + 2, width: U - 4, height: U - 4, rx: 3 }), text(x + qx * U + U / 2, y + qy * U + U / 2 + 4, "☆", { "font-size": 12 }));
        parts.push(playable(corner, { ...move, label: `${move.label}: the great window at the ${CORNERS[`${qx},${qy}`] ?? ""}` }, ctx));
      }
    }
  });

  // Spaces the viewer may place a pawn on or move down to.
  for (const type of ["place_pawn", "move"]) {
    for (const move of ctx.moves) {
      const action = isMove(move, type);
      const at = space(action?.[type === "move" ? "to" : "space"]);
      if (!at) continue;
      const target = svg("g", {}, svg("rect", { class: "bt-target", x: left + at.x * U + 3, y: top + at.y * U + 3, width: U - 6, height: U - 6, rx: 4 }), text(left + at.x * U + U / 2, top + at.y * U + U / 2 + 4, type === "move" ? "↓" : "+", { "font-size": 12, "font-weight": 700 }));
      parts.push(playable(target, move, ctx));
    }
  }
  const exit = findMove(ctx, "move", (action) => action["to"] === "exit");
  const door = svg("g", {}, svg("rect", { x: left + (cols * U) / 2 - 26, y: streetY + 6, width: 52, height: 22, rx: 4, fill: exit ? "#fff4c2" : "#d6dbe0", stroke: "#3d4650" }), text(left + (cols * U) / 2, streetY + 21, "Street", { "font-size": 10 }));
  if (exit) {
    door.append(svg("rect", { class: "bt-target", x: left + (cols * U) / 2 - 26, y: streetY + 6, width: 52, height: 22, rx: 4 }));
    playable(door, exit, ctx);
  }
  parts.push(door);

  // The pawns, each in its seat's colour with its player's initial.
  const standing: string[] = [];
  players.forEach((player, index) => {
    const seat = seatOf(player, index);
    const at = space(get(get(player, "position"), "at"));
    if (!at) return;
    standing.push(`${seatName(ctx, seat)} at ${spaceWords(at)}`);
    const cx = left + at.x * U + U / 2;
    const cy = top + at.y * U + U / 2;
    parts.push(
      svg(
        "g",
        { class: "bt-pawn" },
        svg("circle", { cx, cy, r: U * 0.36, fill: PAWNS[seat % PAWNS.length] ?? "#333", stroke: "#ffffff", "stroke-width": 2 }),
        text(cx, cy + 4, initial(ctx, seat), { "font-size": 11, "font-weight": 700, fill: "#ffffff" }),
        svg("title", {}, `${you(ctx, seat)}'s pawn, at ${spaceWords(at)}`),
      ),
    );
  });
  const faceUp = slots.filter((slot) => get(slot, "face_up") === true).length;
  const label = `The building: ${plural(slots.length, "tile")}, ${faceUp} face up; ${standing.length ? list_(standing) : "no pawn on it yet"}.`;
  // An image; a group once it holds moves (renderDrawing, boards/index.ts).
  const picture = svg(
    "svg",
    { class: "bt-building", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, style: `max-width: ${Math.round(width * 1.35)}px` },
    svg("title", {}, label),
    ...parts,
  );
  return picture;
}

/** A pawn's letter: the player's initial (their seat number when names clash would confuse). */
function initial(ctx: BoardContext, seat: number): string {
  const name = seatName(ctx, seat).trim();
  return (name[0] ?? "?").toUpperCase();
}

function pawnSwatch(seat: number, ctx: BoardContext): Element {
  return h("span", { class: "bt-pawn-swatch", style: `background: ${PAWNS[seat % PAWNS.length] ?? "#333"}`, "aria-hidden": "true" }, initial(ctx, seat));
}

/** A certificate chip: the company's symbol and colour, the value where the viewer knows it. */
function chip(coin: Json, ctx: BoardContext, privateToViewer: boolean): HTMLElement {
  const c = company(str(get(coin, "suit")));
  const value = num(get(coin, "value"));
  const handle = str(get(coin, "handle")) ?? "";
  const what = value === undefined ? "value unknown" : worth(value);
  const element = h(
    "span",
    { class: "bt-chip", style: c ? `background: ${c.light}; color: ${c.ink}; border-color: ${c.ink}` : "", title: `Certificate ${handle}: ${c?.name ?? ""}, ${what}` },
    h("span", { "aria-hidden": "true" }, c?.symbol ?? ""),
    " ",
    h("span", { class: "bt-chip-value" }, value === undefined ? "?" : value === 0 ? "pref." : String(value)),
    h("span", { class: "bt-handle" }, handle),
  );
  element.setAttribute("aria-label", `${c?.name ?? "certificate"} ${handle}, ${what}`);
  if (privateToViewer && value !== undefined && ctx.you !== null) {
    element.dataset.privateOwner = String(ctx.you);
    element.classList.add("bt-known");
  }
  return element;
}

/** The four companies: their open windows on the building and their certificates in the bag. */
function companiesPart(view: Json, ctx: BoardContext, players: Json[]): Element {
  const slots = list(get(view, "slots"));
  const bag = list(get(view, "bag_by_suit"));
  const bagCount = num(get(view, "bag_count"));
  const buy = findMove(ctx, "buy", () => true);
  const rows = SUITS.map((suit, index) => {
    const c = COMPANIES[suit] as Company;
    const tiles = slots.filter((slot) => get(slot, "face_up") === true && str(get(get(slot, "tile"), "suit")) === suit).length;
    const held = players.reduce<number>((sum, player) => sum + list(get(player, "coins")).filter((coin) => str(get(coin, "suit")) === suit).length, 0);
    const inBag = num(bag[index]);
    return h(
      "li",
      { class: "bt-company", style: `border-left-color: ${c.strong}` },
      h("span", { class: "bt-company-name", style: `color: ${c.ink}` }, h("span", { "aria-hidden": "true" }, `${c.symbol} `), c.name),
      h(
        "span",
        { class: "bt-company-facts" },
        tiles === 0 ? "no windows open" : `windows open on ${plural(tiles, "tile")}`,
        inBag === undefined ? "" : ` · ${inBag} in the market bag`,
        ` · ${held} held`,
      ),
    );
  });
  const bagLine = h("p", { class: "bt-bag" }, `Market bag: ${bagCount === undefined ? "" : plural(bagCount, "certificate")}`);
  if (buy) {
    bagLine.classList.add("bt-bag-move");
    bagLine.append(h("span", { class: "bt-hint" }, " — click to buy one"));
    playable(bagLine, buy, ctx);
  }
  return h(
    "section",
    { class: "bt-part", "aria-label": "Companies" },
    h("h3", {}, "Companies"),
    h("ul", { class: "bt-companies" }, rows),
    bagLine,
    h("p", { class: "bt-hint" }, "A face-up tile's four spaces are that company's windows; ★ marks its great window. A pawn landing on one must sell that company's stock, or jump. Fewest shares wins."),
  );
}

/** Every investor: pawn, where it stands, action point bonus or debt, and public portfolio. */
function playersPart(view: Json, ctx: BoardContext, players: Json[], seatOf: (player: Json, index: number) => number, ended: boolean): Element {
  const active = num(get(get(view, "turn"), "active"));
  const items = players.map((player, index) => {
    const seat = seatOf(player, index);
    const coins = list(get(player, "coins"));
    const bonus = num(get(player, "ap_bonus")) ?? 0;
    const debt = num(get(player, "ap_debt")) ?? 0;
    const extras = [bonus > 0 ? `+${plural(bonus, "action point")} next roll` : "", debt > 0 ? `owes ${plural(debt, "action point")}` : ""].filter(Boolean);
    // Values of another investor's certificates that the viewer learned are the viewer's secret.
    const own = seat === ctx.you;
    const chips = own ? [] : coins.map((coin) => chip(coin, ctx, !ended));
    return h(
      "li",
      { class: `bt-player${own ? " you" : ""}${seat === active ? " active" : ""}` },
      h("div", { class: "bt-player-head" }, pawnSwatch(seat, ctx), h("strong", {}, you(ctx, seat)), seat === active && !ended ? h("span", { class: "bt-turn" }, own ? " ▶ your turn" : " ▶ their turn") : null),
      h("div", { class: "bt-player-facts" }, whereWords(player), ` · ${plural(coins.length, "certificate")}`, extras.length ? ` · ${extras.join(", ")}` : ""),
      own ? h("div", { class: "bt-hint" }, "Your certificates are in your own strip above.") : h("div", { class: "bt-chips" }, chips),
    );
  });
  return h("section", { class: "bt-part", "aria-label": "Investors" }, h("h3", {}, "Investors"), h("ul", { class: "bt-players" }, items), h("p", { class: "bt-hint" }, "Everyone sees which company each certificate is in; its value (? here) only its holder and whoever was shown it."));
}

/** The viewer's own certificates, with their values: only the viewer sees this strip. */
function ownStrip(view: Json, ctx: BoardContext, players: Json[], seatOf: (player: Json, index: number) => number): Element | null {
  if (ctx.you === null) return null;
  const me = players.find((player, index) => seatOf(player, index) === ctx.you);
  if (me === undefined) return null;
  const order = (coin: Json): number => SUITS.indexOf(str(get(coin, "suit")) ?? "") * 10 + (num(get(coin, "value")) ?? 9);
  const coins = [...list(get(me, "coins"))].sort((a, b) => order(a) - order(b));
  const shares = coins.reduce<number>((sum, coin) => sum + (num(get(coin, "value")) ?? 0), 0);
  const chips = coins.map((coin) => {
    const element = chip(coin, ctx, false);
    const handle = str(get(coin, "handle"));
    const sell = findMove(ctx, "sell", (action) => Array.isArray(action["handles"]) && action["handles"].length === 1 && action["handles"][0] === handle);
    if (sell) {
      element.classList.add("bt-chip-move");
      playable(element, sell, ctx);
    }
    return element;
  });
  const selling = ctx.moves.some((move) => isMove(move, "sell"));
  // Every value is public once the game is over: then the strip is no longer a secret.
  const ended = get(view, "ended") === true;
  return h(
    "section",
    ended ? { class: "bt-part bt-mine", "aria-label": "Your certificates" } : { class: "bt-part bt-mine private", "data-private-owner": String(ctx.you), "aria-label": "Your certificates (only you see their values)" },
    h("h3", {}, `Your certificates — ${plural(shares, "share")} on ${plural(coins.length, "certificate")}`),
    coins.length ? h("div", { class: "bt-chips" }, chips) : h("p", {}, "You hold no certificates."),
    h("p", { class: "bt-hint" }, selling ? "Click a certificate to sell it at the window." : ended ? "Every certificate is revealed now that the game is over. Pref. is a preferred share: it counts as no shares." : "Only you see these values. Pref. is a preferred share: it counts as no shares."),
  );
}

/** One term of an offer, as the server words it. */
function termWords(term: Json, ctx: BoardContext, coinsByHandle: Map<string, Json>): string {
  const who = (key: string): string => {
    const seat = num(get(term, key));
    return seat === undefined ? "someone" : seatName(ctx, seat);
  };
  const handles = list(get(term, "handles")).map((handle) => {
    const id = str(handle) ?? "";
    const c = company(str(get(coinsByHandle.get(id), "suit")));
    return c ? `${id} (${c.name})` : id;
  });
  switch (str(get(term, "kind"))) {
    case "coins": {
      const values = seats(get(term, "values")).sort();
      let demand = "";
      if (values.length) {
        const what = values.join() === "0" ? "be preferred" : values.join() === "1,2,3,4,5" ? "be common stock" : `be worth ${values.join(" or ")} shares`;
        demand = handles.length > 1 ? `, each of which must ${what}` : `, which must ${what}`;
      }
      return `${who("giver")} gives ${who("receiver")} ${list_(handles)}${demand}`;
    }
    case "reveal":
      return `${who("from")} shows ${who("to")} the ${handles.length === 1 ? "value" : "values"} of ${list_(handles)}`;
    case "share_knowledge":
      return `${who("from")} tells ${who("to")} every value ${who("from")} knows of the certificates ${who("about")} holds`;
    case "action_points":
      return `${who("from")} gives ${who("to")} ${plural(num(get(term, "amount")) ?? 0, "action point")}`;
    case "promise":
      return `${who("promisor")} promises ${who("promisee")} ${quote(str(get(term, "text")) ?? "")}`;
    default:
      return "";
  }
}

/** The open (or last) trading session: participants, each offer in words and who accepts it. */
function sessionPart(view: Json, ctx: BoardContext): Element | null {
  const session = get(view, "session");
  if (session === undefined || session === null) return null;
  const status = str(get(session, "status"));
  const open = status === "OPEN";
  const id = str(get(session, "id")) ?? "";
  const participants = seats(get(session, "participants"));
  const pointers = list(get(session, "pointers"));
  const coinsByHandle = new Map<string, Json>();
  for (const player of list(get(view, "players"))) for (const coin of list(get(player, "coins"))) coinsByHandle.set(str(get(coin, "handle")) ?? "", coin);
  const offers = list(get(session, "offers")).map((offer) => {
    const offerId = str(get(offer, "id")) ?? "";
    const author = num(get(offer, "author"));
    const terms = list(get(offer, "terms")).map((term) => termWords(term, ctx, coinsByHandle)).filter(Boolean);
    const counters = str(get(offer, "counters"));
    const accepting = participants.filter((seat) => str(pointers[seat]) === offerId).map((seat) => you(ctx, seat));
    const offerStatus = statusWords(get(offer, "status"));
    const item = h(
      "li",
      { class: `bt-offer bt-offer-${offerStatus.replace(/\s/g, "-")}` },
      h("strong", {}, `Offer ${offerId}`),
      ` by ${author === undefined ? "someone" : you(ctx, author)}${counters ? `, countering ${counters}` : ""} (${offerStatus}): `,
      terms.length ? `${terms.join("; ")}.` : "nothing for nothing.",
      accepting.length ? h("span", { class: "bt-accepts" }, ` Accepted by ${list_(accepting)}.`) : null,
    );
    const accept = findMove(ctx, "accept_offer", (action) => action["offer"] === offerId);
    if (accept) {
      item.append(h("span", { class: "bt-hint" }, " — click to accept"));
      playable(item, accept, ctx);
    }
    return item;
  });
  if (!open && offers.length === 0) return null;
  const heading = open ? `Trading session ${id} is open` : `The last trading session, ${id}, ${status === "AGREED" ? "closed with an agreement" : "closed without an agreement"}`;
  return h(
    "section",
    { class: `bt-part bt-session${open ? " open" : ""}`, "aria-label": "Trading session" },
    h("h3", {}, heading),
    h("p", {}, `Between ${list_(participants.map((seat) => you(ctx, seat)))}. ${open ? "An offer is carried out when every participant accepts it." : ""}`),
    offers.length ? h("ol", { class: "bt-offers" }, offers) : h("p", {}, "No offers yet."),
  );
}

/** Promises made in agreements, and claims that one was broken. */
function promisesPart(view: Json, ctx: BoardContext): Element | null {
  const promises = list(get(view, "promises"));
  const claims = list(get(view, "claims"));
  if (promises.length === 0 && claims.length === 0) return null;
  const items = promises.map((promise) => {
    const promisor = num(get(promise, "promisor"));
    const promisee = num(get(promise, "promisee"));
    return h("li", {}, h("strong", {}, `Promise ${str(get(promise, "id")) ?? ""}`), `: ${promisor === undefined ? "" : you(ctx, promisor)} promised ${promisee === undefined ? "" : you(ctx, promisee)} ${quote(str(get(promise, "text")) ?? "")} (${statusWords(get(promise, "status"))}).`);
  });
  const claimItems = claims.map((claim) => {
    const claimant = num(get(claim, "claimant"));
    const accused = num(get(claim, "accused"));
    const jury = seats(get(claim, "jury")).map((seat) => you(ctx, seat));
    const uphold = seats(get(claim, "uphold")).length;
    const dismiss = seats(get(claim, "dismiss")).length;
    return h(
      "li",
      {},
      h("strong", {}, `Claim ${str(get(claim, "id")) ?? ""}`),
      `: ${claimant === undefined ? "" : you(ctx, claimant)} says ${accused === undefined ? "" : you(ctx, accused)} broke promise ${str(get(claim, "promise")) ?? ""}; jury ${list_(jury)}; ${plural(uphold, "vote")} to uphold, ${dismiss} to dismiss (${statusWords(get(claim, "status"))}).`,
    );
  });
  return h("section", { class: "bt-part", "aria-label": "Promises and claims" }, h("h3", {}, "Promises and claims"), h("ul", {}, items, claimItems));
}

/** The final standings, once the game is over. */
function standingsPart(view: Json, ctx: BoardContext): Element | null {
  const standings = list(get(view, "standings"));
  if (standings.length === 0) return null;
  const rows = [...standings]
    .sort((a, b) => (num(get(a, "rank")) ?? 0) - (num(get(b, "rank")) ?? 0))
    .map((standing) => {
      const seat = num(get(standing, "seat")) ?? 0;
      return h("li", { class: seat === ctx.you ? "you" : "" }, pawnSwatch(seat, ctx), ` ${you(ctx, seat)}: ${plural(num(get(standing, "common")) ?? 0, "share")} on ${plural(num(get(standing, "certs")) ?? 0, "certificate")}${num(get(standing, "rank")) === 1 ? " — winner" : ""}`);
    });
  return h("section", { class: "bt-part bt-standings", "aria-label": "Final standings" }, h("h3", {}, "Final standings (fewest shares wins)"), h("ol", {}, rows));
}
