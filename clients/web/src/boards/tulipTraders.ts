/**
 * Tulip Traders' board, drawn from the rulebook's components: the market grid of Market cards
 * (each tulip drawn in its colours and named by colour and type, its tokens, crises in red,
 * rows and columns counted from 1), the reference card's investment options for this round,
 * every trader's public facts (purse, option, earmark, cards held against the limit, whether
 * they sold or bought this round), the lot in flight, the viewer's own hand in a strip of its
 * own with each card's market value, and the market cards the viewer holds marked on the grid.
 * The names are the server's words (shared/game-tulip-traders/src/words.rs): never a code.
 *
 * Moves the board can place are played from it: an investment option, a side of the market to
 * add a line on, a market to put the whole earmark on, the market a crisis moves to (when only
 * one crisis can move there), and a card of the hand to discard, return or sell to pay.
 */
import { pickable, pickOffering, playable, type BoardContext, type BoardMove } from "./board";
import { h, svg } from "../dom";
import { get, type Json, list, num, plural, str, text, you } from "./draw";

const KINDS: Record<string, string> = { L: "Lily", S: "Single", P: "Parrot", D: "Double", K: "Kaufmanniana" };
const COLOUR_NAMES: Record<string, string> = { R: "red", Pk: "pink", O: "orange", Pu: "purple", Y: "yellow" };
const TULIP_COLOURS: Record<string, string> = { R: "#d03a2c", Pk: "#f08db5", O: "#f08a24", Pu: "#8a44b8", Y: "#f2c811" };
/** The catalogue's colour order, as the server writes bicolours ("red-and-purple"). */
const ORDER = ["R", "Pk", "O", "Pu", "Y"];
const SEAT_COLOURS = ["#1d4ed8", "#be185d", "#047857", "#6d28d9"];

/** A catalogue code's colour codes (catalogue order) and its type letter: "K-OY" → [["O","Y"], "K"]. */
function codes(code: string): [string[], string] {
  const [kind = "", tail = ""] = code.replace(/^M:/, "").split("-");
  const colours = (tail.match(/[A-Z][a-z]?/g) ?? []).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  return [colours, kind];
}

/**
 * A Tulip Traders catalogue code in words, as the server's sentences name it: "S-OPk" is
 * ["pink-and-orange", "Single"] (types L, S, P, D, K; colours R, Pk, O, Pu, Y, rules §1.1).
 */
function traderTulip(code: string): [string, string] {
  const [colours, kind] = codes(code);
  return [colours.map((part) => COLOUR_NAMES[part] ?? part).join("-and-"), KINDS[kind] ?? kind];
}

/** A Portfolio card as players name it (words.rs `card`): "the red Lily", "a weed". */
function cardName(card: string): string {
  if (card === "SEMPER") return "the Semper Augustus";
  if (card === "QUEEN") return "the Queen of the Night";
  if (card === "BOUQUET") return "the bouquet";
  if (card.startsWith("WEED")) return "a weed";
  if (card.startsWith("SACK")) return "an empty sack";
  const [colours, kind] = traderTulip(card);
  return `the ${colours} ${kind}`;
}

/** A card's name without its article, capitalised, for a card face: "Red Lily", "Weed". */
function cardTitle(card: string): string {
  const name = cardName(card).replace(/^(the|a|an) /, "");
  return name.charAt(0).toUpperCase() + name.slice(1);
}




function strings(value: Json): string[] {
  return list(value)
    .map((item) => str(item))
    .filter((item): item is string => item !== undefined);
}

function action(move: BoardMove, type: string): Record<string, unknown> | undefined {
  const value = move.action;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  return record["type"] === type ? record : undefined;
}

function movesOf(ctx: BoardContext, type: string, matches: (action: Record<string, unknown>) => boolean): BoardMove[] {
  return ctx.moves.filter((move) => {
    const found = action(move, type);
    return found !== undefined && matches(found);
  });
}

/** The one move of `type` that `matches`, or none when there is none or several. */
function onlyMove(ctx: BoardContext, type: string, matches: (action: Record<string, unknown>) => boolean): BoardMove | undefined {
  const found = movesOf(ctx, type, matches);
  return found.length === 1 ? found[0] : undefined;
}

/** The market value of a Portfolio card now (rules §2.6), when the view tells it. */
function marketValue(card: string, view: Json): number | undefined {
  if (get(view, "collapse_flag") === true || str(get(get(view, "result"), "reason")) === "collapse") return 0;
  const grid = list(get(view, "grid"));
  const options = get(view, "options");
  if (card === "SEMPER") {
    if (str(get(options, "semper_value")) !== "max_market") return num(get(get(options, "semper_value"), "fixed"));
    return grid.filter((cell) => get(cell, "crisis") !== true).reduce<number>((most, cell) => Math.max(most, num(get(cell, "tokens")) ?? 0), 0);
  }
  if (card === "QUEEN") return (num(get(options, "queen_per_crisis")) ?? 3) * (num(get(view, "crisis_count")) ?? 0);
  if (card === "BOUQUET") return num(get(options, "bouquet_value")) ?? 0;
  if (card.startsWith("WEED") || card.startsWith("SACK")) return 0;
  const cell = grid.find((entry) => str(get(entry, "cell")) === `M:${card}`);
  return cell === undefined ? 0 : num(get(cell, "tokens")) ?? 0;
}

/** The phase in words: the round, the step of the round and who acts. */
function phaseWords(view: Json, ctx: BoardContext): string {
  const phase = get(view, "phase");
  const tag = str(get(phase, "phase"));
  const actor = num(get(view, "actor"));
  const who = actor === undefined ? "" : you(ctx, actor);
  const round = num(get(view, "round"));
  const head = round === undefined ? "" : `Round ${round} of 5. `;
  switch (tag) {
    case "declare":
      return `${head}Phase 1, investing: ${who} chooses how much to invest this round (which also sets how many cards they may keep).`;
    case "discard":
      return `${head}Phase 1, managing portfolios: ${who} holds more cards than the limit and discards the excess.`;
    case "add_line":
      return `${head}Phase 2, the market grows: ${who}, the first player, chooses the side to add a line of market cards on.`;
    case "manipulate":
      return `${head}Phase 3, market manipulation: ${who} may pay to move a crisis to a tulip sharing a colour or type, or pass.`;
    case "place":
      return `${head}Phase 4, investing: ${who} spreads their earmarked guilders as tokens over markets not in crisis.`;
    case "offer": {
      const min = num(get(phase, "min"));
      const final = get(phase, "final_offer") === true;
      return `${head}Phase 5, selling: ${who} offers a lot of three cards from their hand${final ? " to the first player, a final offer" : ""}, declared worth ƒ${min ?? ""} or more.`;
    }
    case "respond":
      return `${head}Phase 5, selling: ${who} either buys the lot at its declared value or accuses the seller of lying.`;
    case "liquidate": {
      const debt = get(phase, "debt");
      const creditor = num(get(debt, "creditor"));
      return `${head}Phase 5: ${who} owes ${creditor === undefined ? "" : you(ctx, creditor)} ƒ${num(get(debt, "amount")) ?? ""} and sells tulips to the bank at market value to pay.`;
    }
    case "return":
      return `${head}Phase 6, end of round: ${who} holds more cards than the limit and returns the excess.`;
    case "reveal":
      return `${head}Phase 6, end of round: ${who} may reveal a complete portfolio, which ends the game.`;
    case "game_over":
      return "The game is over.";
    default:
      return head;
  }
}

/** Tulip Traders: the market, the investment options, the traders, the lot and your hand. */
export function tulipTraders(view: Json, ctx: BoardContext): Element | null {
  const grid = list(get(view, "grid"));
  if (grid.length === 0) return null;
  const players = list(get(view, "players"));
  const mine = ctx.you === null ? [] : strings(get(players[ctx.you], "hand"));
  const sections: Element[] = [];
  const phase = phaseWords(view, ctx);
  const result = resultPart(view, ctx);
  if (result) sections.push(result);
  else if (phase) sections.push(h("p", { class: "tt-phase" }, phase));
  const hand = handStrip(view, ctx, mine);
  if (hand) sections.push(hand);
  const offer = offerPart(view, ctx);
  if (offer) sections.push(offer);
  const options = optionsPart(view, ctx);
  sections.push(h("div", { class: "tt-top" }, market(view, ctx, grid, mine), h("div", { class: "tt-side" }, marketFacts(view), options)));
  sections.push(tradersPart(view, ctx, players));
  return h("div", { class: "tt-board" }, sections);
}

/** A tulip's cup: three petals in its one or two colours. */
function tulipShape(cx: number, cy: number, colours: string[], kind: string, size = 1): SVGElement {
  const first = TULIP_COLOURS[colours[0] ?? ""] ?? "#bbbbbb";
  const second = TULIP_COLOURS[colours[1] ?? ""] ?? first;
  const s = size;
  // A Parrot's petals are frilled, a Double's fuller, a Lily's pointed: a hint of the type.
  const rx = kind === "D" ? 7 : kind === "L" ? 4.5 : 6;
  return svg(
    "g",
    { "aria-hidden": "true" },
    svg("path", { d: `M${cx} ${cy + 6 * s}v${14 * s}`, stroke: "#3f7d3a", "stroke-width": 2.2 * s }),
    svg("path", { d: `M${cx} ${cy + 16 * s}q${-8 * s} ${-2 * s} ${-10 * s} ${-8 * s}q${7 * s} 0 ${10 * s} ${6 * s}`, fill: "#4f9a48" }),
    svg("ellipse", { cx: cx - 5 * s, cy, rx: rx * s, ry: 9 * s, fill: first, stroke: "#00000055", "stroke-width": 0.6, transform: `rotate(-14 ${cx - 5 * s} ${cy})`, "stroke-dasharray": kind === "P" ? "2 1" : "none" }),
    svg("ellipse", { cx: cx + 5 * s, cy, rx: rx * s, ry: 9 * s, fill: second, stroke: "#00000055", "stroke-width": 0.6, transform: `rotate(14 ${cx + 5 * s} ${cy})`, "stroke-dasharray": kind === "P" ? "2 1" : "none" }),
    svg("ellipse", { cx, cy: cy - 1 * s, rx: rx * 0.85 * s, ry: 9.5 * s, fill: first, stroke: "#00000055", "stroke-width": 0.6 }),
  );
}

/** The market grid as SVG. */
function market(view: Json, ctx: BoardContext, grid: Json[], mine: string[]): Element {
  const C = 104;
  const margin = 22;
  const rows = Math.max(num(get(view, "rows")) ?? 0, ...grid.map((entry) => (num(get(entry, "row")) ?? 0) + 1));
  const cols = Math.max(num(get(view, "cols")) ?? 0, ...grid.map((entry) => (num(get(entry, "col")) ?? 0) + 1));
  const sides = movesOf(ctx, "add_market_line", () => true);
  const pad = sides.length ? 30 : 0;
  const x0 = margin + pad;
  const y0 = margin + pad;
  const width = x0 + cols * C + pad + 6;
  const height = y0 + rows * C + pad + 6;
  const parts: SVGElement[] = [];
  for (let c = 0; c < cols; c++) parts.push(text(x0 + c * C + C / 2, y0 - 8, `column ${c + 1}`, { "font-size": 10, fill: "#4a535c" }));
  for (let r = 0; r < rows; r++) parts.push(text(x0 - 8, y0 + r * C + C / 2, `row ${r + 1}`, { "font-size": 10, fill: "#4a535c", transform: `rotate(-90 ${x0 - 8} ${y0 + r * C + C / 2})` }));
  const summary: string[] = [];
  for (const entry of grid) {
    const code = str(get(entry, "cell")) ?? "";
    const card = code.replace(/^M:/, "");
    const row = num(get(entry, "row")) ?? 0;
    const col = num(get(entry, "col")) ?? 0;
    const x = x0 + col * C;
    const y = y0 + row * C;
    const crisis = get(entry, "crisis") === true;
    const tokens = num(get(entry, "tokens")) ?? 0;
    const [colourCodes, kind] = codes(card);
    const [colours, type] = traderTulip(card);
    const group = svg("g", { class: "tt-cell" });
    group.append(svg("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 8, fill: crisis ? "#fbe0dd" : "#fffdf7", stroke: crisis ? "#b42318" : "#cfc8ba", "stroke-width": crisis ? 3 : 1.5 }));
    group.append(text(x + C / 2, y + 19, type, { "font-weight": 700, "font-size": kind === "K" ? 11 : 12.5 }));
    group.append(text(x + C / 2, y + 32, colours, { "font-size": colours.length > 14 ? 9 : 10, fill: "#3d4650" }));
    group.append(tulipShape(x + 24, y + 52, colourCodes, kind));
    if (crisis) {
      group.append(svg("rect", { x: x + 42, y: y + 41, width: C - 50, height: 32, rx: 4, fill: "#b42318" }));
      group.append(text(x + 42 + (C - 50) / 2, y + 54, "CRISIS", { "font-size": 11, "font-weight": 700, fill: "#ffffff" }));
      group.append(text(x + 42 + (C - 50) / 2, y + 67, "worth ƒ0", { "font-size": 10, fill: "#ffffff" }));
    } else {
      group.append(text(x + 66, y + 57, plural(tokens, "token"), { "font-size": 12.5, "font-weight": 700 }));
      // The tokens as coins, up to a row's worth.
      const shown = Math.min(tokens, 6);
      for (let i = 0; i < shown; i++) group.append(svg("circle", { cx: x + 66 - ((shown - 1) * 8) / 2 + i * 8, cy: y + 69, r: 3.4, fill: "#d4a017", stroke: "#7a5b00", "stroke-width": 0.8, "aria-hidden": "true" }));
    }
    const held = mine.includes(card);
    if (held && ctx.you !== null) {
      // Which tulips the viewer holds is the viewer's secret until the game is over.
      const secret = str(get(get(view, "phase"), "phase")) !== "game_over";
      const badge = svg("g", { "data-private-owner": secret ? String(ctx.you) : undefined, class: "tt-yours" }, svg("rect", { x: x + 10, y: y + C - 24, width: C - 20, height: 15, rx: 7.5, fill: "#fff0b8", stroke: "#a77b00" }), text(x + C / 2, y + C - 13, "in your hand", { "font-size": 9.5, fill: "#5c4300", "font-weight": 600 }));
      group.append(badge);
    }
    group.append(svg("title", {}, `Row ${row + 1}, column ${col + 1}: the ${colours} ${type} market, ${crisis ? "in crisis, worth nothing" : `${plural(tokens, "token")}: each such card is worth ƒ${tokens}`}${held ? "; you hold this tulip" : ""}.`));
    summary.push(`${colours} ${type} ${crisis ? "in crisis" : tokens}`);
    const place = onlyMove(ctx, "place_investment", (found) => {
      const alloc = found["alloc"];
      return typeof alloc === "object" && alloc !== null && Object.keys(alloc).length === 1 && Object.keys(alloc)[0] === code;
    });
    const crisisTo = onlyMove(ctx, "move_crisis", (found) => found["to"] === code);
    const move = place ?? crisisTo;
    if (move) {
      // Under the drawing, so that the tulip keeps its colours.
      group.insertBefore(svg("rect", { class: "tt-target", x: x + 5, y: y + 5, width: C - 10, height: C - 10, rx: 7 }), group.children[1] ?? null);
      playable(group, move, ctx);
    }
    parts.push(group);
  }
  // The sides a new line of market cards may go on.
  for (const move of sides) {
    const side = str(action(move, "add_market_line")?.["side"]);
    const bar =
      side === "top"
        ? { x: x0, y: y0 - pad - 4, w: cols * C, hgt: pad - 2 }
        : side === "bottom"
          ? { x: x0, y: y0 + rows * C + 6, w: cols * C, hgt: pad - 2 }
          : side === "left"
            ? { x: x0 - pad - 6, y: y0, w: pad - 2, hgt: rows * C }
            : side === "right"
              ? { x: x0 + cols * C + 4, y: y0, w: pad - 2, hgt: rows * C }
              : undefined;
    if (!bar) continue;
    const vertical = side === "left" || side === "right";
    const cx = bar.x + bar.w / 2;
    const cy = bar.y + bar.hgt / 2;
    const element = svg(
      "g",
      {},
      svg("rect", { class: "tt-target", x: bar.x, y: bar.y, width: bar.w, height: bar.hgt, rx: 6 }),
      text(cx, cy + 4, "+ add a line here", { "font-size": 11, "font-weight": 700, transform: vertical ? `rotate(-90 ${cx} ${cy})` : "" }),
    );
    parts.push(playable(element, move, ctx));
  }
  const label = `The market, ${rows} rows by ${cols} columns: ${summary.join("; ")}.`;
  // An image; a group once it holds moves (renderDrawing, boards/index.ts).
  return svg("svg", { class: "tt-market", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, style: `max-width: ${width}px` }, svg("title", {}, label), ...parts);
}

/** The market's counters: crises, decks, sacks, and how a card is valued. */
function marketFacts(view: Json): Element {
  const crises = num(get(view, "crisis_count")) ?? 0;
  const facts = [
    `${plural(crises, "crisis", "crises")} on the market${crises >= 4 ? ": the market collapses at the end of this round" : " (4 or more at the end of a round collapse the market)"}`,
    `${plural(num(get(view, "market_deck_size")) ?? 0, "market card")} still to come`,
    `${plural(num(get(view, "portfolio_deck_size")) ?? 0, "card")} in the portfolio deck`,
    `${plural(strings(get(view, "sack_supply")).length, "empty sack")} in the supply`,
  ];
  if (get(view, "collapse_flag") === true) facts.unshift("A lie with no tulips in the lot was exposed: the market collapses at the end of the round.");
  return h(
    "section",
    { class: "tt-part", "aria-label": "The market" },
    h("h3", {}, "The market"),
    h("ul", { class: "tt-facts" }, facts.map((fact) => h("li", {}, fact))),
    h("p", { class: "tt-hint" }, "Each market card is a tulip, named by its colours and type (Lily, Single, Parrot, Double, Kaufmanniana). A tulip card in a hand is worth its market's tokens in guilders; a market in crisis is worth nothing. The Semper Augustus is worth the best market, the Queen of the Night 3 per crisis."),
  );
}

/** The reference card's investment options this round; the viewer's may be chosen here. */
function optionsPart(view: Json, ctx: BoardContext): Element | null {
  const options = list(get(get(view, "options"), "investment_options"));
  const table = list(get(get(view, "options"), "round_table"));
  const round = num(get(view, "round")) ?? 1;
  const row = table[round - 1];
  const rv = num(get(row, "rv"));
  const limit = num(get(row, "limit"));
  if (options.length === 0 || rv === undefined || limit === undefined) return null;
  const items = options.map((option) => {
    const name = str(get(option, "name")) ?? "";
    const cost = (num(get(option, "cost_rv")) ?? 0) * rv;
    const bonus = num(get(option, "limit_bonus")) ?? 0;
    const title = name.replace(/_/g, " ");
    const item = h("li", { class: "tt-option" }, h("strong", {}, title.charAt(0).toUpperCase() + title.slice(1)), h("span", {}, cost === 0 ? "invest nothing" : `invest ƒ${cost}`), h("span", {}, `keep up to ${plural(limit + bonus, "card")}`));
    const move = onlyMove(ctx, "declare_investment", (found) => found["option"] === name);
    if (move) playable(item, move, ctx);
    return item;
  });
  return h("section", { class: "tt-part", "aria-label": "Investment options" }, h("h3", {}, `Investment options, round ${round}`), h("ul", { class: "tt-options" }, items));
}

/** A card face for the hand or a lot. */
function cardFace(card: string, view: Json): HTMLElement {
  const value = marketValue(card, view);
  const [colourCodes] = codes(card);
  const catalogue = /^[LSPDK]-/.test(card);
  const stripe = catalogue ? colourCodes.map((code) => TULIP_COLOURS[code] ?? "#bbb") : card === "SEMPER" ? ["#d03a2c", "#ffffff"] : card === "QUEEN" ? ["#3b1f4f"] : card === "BOUQUET" ? ["#f08db5", "#f2c811", "#8a44b8"] : ["#9aa3ad"];
  const gradient = stripe.length === 1 ? stripe[0] : `linear-gradient(90deg, ${stripe.map((colour, i) => `${colour} ${(i * 100) / stripe.length}% ${((i + 1) * 100) / stripe.length}%`).join(", ")})`;
  return h(
    "span",
    { class: "tt-card", title: `${cardTitle(card)}${value === undefined ? "" : `: worth ƒ${value} now`}` },
    h("span", { class: "tt-card-colour", style: `background: ${gradient}`, "aria-hidden": "true" }),
    h("span", { class: "tt-card-name" }, cardTitle(card)),
    value === undefined ? null : h("span", { class: "tt-card-value" }, `ƒ${value}`),
  );
}

/** The viewer's own hand: only the viewer sees it. */
function handStrip(view: Json, ctx: BoardContext, mine: string[]): Element | null {
  if (ctx.you === null) return null;
  const me = list(get(view, "players"))[ctx.you];
  if (me === undefined || get(me, "hand") === null || get(me, "hand") === undefined) return null;
  const total = mine.reduce<number>((sum, card) => sum + (marketValue(card, view) ?? 0), 0);
  const limit = num(get(me, "limit")) ?? 0;
  let clickable = false;
  let ticking = false;
  const cards = mine.map((card) => {
    const face = cardFace(card, view);
    const single = (type: string): BoardMove | undefined => onlyMove(ctx, type, (found) => {
      const chosen = strings(found["cards"]);
      return chosen.length === 1 && chosen[0] === card;
    });
    const move = single("discard") ?? single("return_excess") ?? single("liquidate");
    // Several cards at once (a pick): each card is ticked here, the move played from its form.
    const pick = ["discard", "return_excess", "liquidate", "offer_lot"].map((tag) => pickOffering(ctx, tag, card)).find((found) => found !== undefined);
    if (move) {
      clickable = true;
      face.classList.add("tt-card-move");
      playable(face, move, ctx);
    } else if (pick) {
      ticking = true;
      face.classList.add("tt-card-move");
      pickable(face, pick, card);
    }
    return face;
  });
  const over = get(view, "phase") !== undefined && str(get(get(view, "phase"), "phase")) === "game_over";
  // Every hand is public once the game is over: then the strip is no longer a secret.
  return h(
    "section",
    over ? { class: "tt-part tt-hand", "aria-label": "Your hand" } : { class: "tt-part tt-hand private", "data-private-owner": String(ctx.you), "aria-label": "Your hand (only you see it)" },
    h("h3", {}, `Your hand — ${plural(mine.length, "card")}${limit && !over ? `, limit ${limit}` : ""}, market value ƒ${total}`),
    mine.length ? h("div", { class: "tt-cards" }, cards) : h("p", {}, "Your hand is empty."),
    h("p", { class: "tt-hint" }, clickable ? "Click a card to put it away." : ticking ? "Click the cards to choose them, then press Play in the moves list." : over ? "Every hand is shown now that the game is over." : "Only you see your cards. Tulips you hold are marked “in your hand” on the market."),
  );
}

/** The lot in flight: its header is public; its cards only its seller sees, or all once revealed. */
function offerPart(view: Json, ctx: BoardContext): Element | null {
  const offer = get(view, "offer");
  if (offer === null || offer === undefined) return null;
  const seller = num(get(offer, "seller"));
  const buyer = num(get(offer, "buyer"));
  const declared = num(get(offer, "declared"));
  const revealed = get(offer, "revealed") === true;
  const lot = list(get(offer, "lot"))
    .map((card) => str(card))
    .filter((card): card is string => card !== undefined);
  const size = num(get(offer, "lot_size")) ?? 3;
  const secret = !revealed && seller === ctx.you && ctx.you !== null && lot.length > 0;
  const cards = lot.length ? lot.map((card) => cardFace(card, view)) : Array.from({ length: size }, () => h("span", { class: "tt-card tt-card-back" }, h("span", { class: "tt-card-name" }, "face down")));
  const holder = h("div", { class: "tt-cards" }, cards);
  if (secret) {
    holder.dataset.privateOwner = String(ctx.you);
    holder.classList.add("private");
  }
  return h(
    "section",
    { class: "tt-part tt-offer", "aria-label": "The lot on offer" },
    h("h3", {}, "The lot on offer"),
    h("p", {}, `${seller === undefined ? "" : you(ctx, seller)} offers three cards to ${buyer === undefined ? "" : you(ctx, buyer)}, declared worth ƒ${declared ?? ""}${get(offer, "final_offer") === true ? " (a final offer)" : ""}${revealed ? ": the buyer accused, and the lot is revealed" : ""}.`),
    holder,
    secret ? h("p", { class: "tt-hint" }, "Only you see this lot until the buyer buys it or accuses you.") : null,
  );
}

/** Every trader's public facts. */
function tradersPart(view: Json, ctx: BoardContext, players: Json[]): Element {
  const actor = num(get(view, "actor"));
  const fp = num(get(view, "fp"));
  const over = str(get(get(view, "phase"), "phase")) === "game_over";
  const items = players.map((player, seat) => {
    const hand = strings(get(player, "hand"));
    const size = num(get(player, "hand_size")) ?? hand.length;
    const option = str(get(player, "option"));
    const earmark = num(get(player, "earmark")) ?? 0;
    const limit = num(get(player, "limit")) ?? 0;
    const facts = [
      `ƒ${num(get(player, "purse")) ?? 0} in purse`,
      `${plural(size, "card")}${limit ? ` (limit ${limit})` : ""}`,
      option ? `${option.replace(/_/g, " ")} this round` : "",
      earmark ? `ƒ${earmark} earmarked to invest` : "",
      get(player, "sold") === true ? "has sold" : "",
      get(player, "bought") === true ? "has bought" : "",
    ].filter(Boolean);
    const bankrupt = get(player, "bankrupt") === true;
    return h(
      "li",
      { class: `tt-trader${seat === ctx.you ? " you" : ""}${seat === actor ? " active" : ""}${bankrupt ? " bankrupt" : ""}` },
      h(
        "div",
        { class: "tt-trader-head" },
        h("span", { class: "tt-swatch", style: `background: ${SEAT_COLOURS[seat % SEAT_COLOURS.length] ?? "#333"}`, "aria-hidden": "true" }),
        h("strong", {}, you(ctx, seat)),
        seat === fp ? h("span", { class: "tt-badge" }, "first player") : null,
        seat === actor ? h("span", { class: "tt-turn" }, seat === ctx.you ? "▶ your move" : "▶ to move") : null,
        bankrupt ? h("span", { class: "tt-badge bankrupt" }, "bankrupt") : null,
      ),
      h("div", { class: "tt-trader-facts" }, facts.join(" · ")),
      // Every hand is public once the game is over.
      over && hand.length && seat !== ctx.you ? h("div", { class: "tt-cards" }, hand.map((card) => cardFace(card, view))) : null,
    );
  });
  return h("section", { class: "tt-part", "aria-label": "Traders" }, h("h3", {}, "Traders"), h("ul", { class: "tt-traders" }, items));
}

/** The result, once the game is over. */
function resultPart(view: Json, ctx: BoardContext): Element | null {
  const result = get(view, "result");
  if (result === null || result === undefined) return null;
  const reasons: Record<string, string> = { sole_survivor: "only one trader is left", collapse: "the market collapsed", reveal: "a complete portfolio was revealed", round_limit: "the last round is over" };
  const reason = reasons[str(get(result, "reason")) ?? ""] ?? "";
  const scores = list(get(result, "scores"));
  const ranking = list(get(result, "ranking"))
    .map((seat) => num(seat))
    .filter((seat): seat is number => seat !== undefined);
  return h(
    "section",
    { class: "tt-part tt-result", "aria-label": "Result" },
    h("h3", {}, `The game is over${reason ? `: ${reason}` : ""}`),
    h(
      "ol",
      {},
      ranking.map((seat) => {
        const score = num(scores[seat]);
        return h("li", { class: seat === ctx.you ? "you" : "" }, `${you(ctx, seat)}${score === undefined ? (scores.length ? " — bankrupt" : "") : ` — ƒ${score}`}`);
      }),
    ),
  );
}
