/**
 * A drawing of each ruleset's board, in SVG, from the view alone: Tulipmania's price board,
 * Tulip Bubble's price tracks, Tulip Traders' market, Tulpenfieber's fields and Black
 * Thursday's building. The generic page below it shows every detail; the drawing shows the
 * state of play at a glance. Views are read defensively: a drawing leaves out what it does
 * not find.
 */
import type { BoardContext } from "./board";
import { svg } from "../dom";
import { member } from "../members";

type Json = unknown;

const COLOURS: Record<string, string> = {
  purple: "#7b3fa0",
  yellow: "#e0b400",
  orange: "#e67e22",
  blue: "#2e6db4",
  red: "#c0392b",
  white: "#d9d4c7",
  pink: "#e78fb3",
  R: "#c0392b",
  W: "#d9d4c7",
  Y: "#e0b400",
};

const get = member;
function list(value: Json): Json[] {
  return Array.isArray(value) ? value : [];
}
function num(value: Json): number | undefined {
  return typeof value === "number" ? value : undefined;
}
function str(value: Json): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function frame(width: number, height: number, label: string, ...children: SVGElement[]): SVGElement {
  return svg(
    "svg",
    { class: "board-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
    svg("title", {}, label),
    ...children,
  );
}

function text(x: number, y: number, content: string, attrs: Record<string, string | number> = {}): SVGElement {
  return svg("text", { x, y, "font-size": 13, "text-anchor": "middle", fill: "#1f2328", ...attrs }, content);
}

/** Tulipmania: each colour's price on the board, highest first. */
function tulipmania(view: Json): SVGElement | null {
  const markers = list(get(view, "markers"));
  if (markers.length === 0) return null;
  const burst = list(get(view, "burst_order")).map(str);
  const prices = markers.map((marker) => num(get(marker, "price")) ?? 0);
  const top = Math.max(100, ...prices);
  const width = 90 * markers.length + 20;
  const bars = markers.flatMap((marker, index) => {
    const colour = str(get(marker, "colour")) ?? "";
    const price = num(get(marker, "price")) ?? 0;
    const height = Math.max(4, (price / top) * 150);
    const x = 20 + index * 90;
    const burstNow = burst.includes(colour);
    return [
      svg("rect", { x, y: 180 - height, width: 60, height, rx: 4, fill: COLOURS[colour] ?? "#888", opacity: burstNow ? 0.3 : 1 }),
      text(x + 30, 172 - height, burstNow ? "burst" : `ƒ${price}`),
      text(x + 30, 198, colour),
    ];
  });
  return frame(width, 210, `Tulip prices: ${markers.map((marker) => `${str(get(marker, "colour"))} ƒ${num(get(marker, "price"))}`).join(", ")}`, ...bars);
}

/** Tulip Bubble: the three price tracks. */
function tulipBubble(view: Json): SVGElement | null {
  const track = get(view, "track");
  const entries = ["R", "W", "Y"].map((colour) => [colour, num(get(track, colour))] as const).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return null;
  const names: Record<string, string> = { R: "red", W: "white", Y: "yellow" };
  // Seven price levels, I to VII (rules §1: levels 1..7); each colour's marker lights its own.
  const levels = ["I", "II", "III", "IV", "V", "VI", "VII"];
  const rows = entries.flatMap(([colour, value], index) => {
    const y = 20 + index * 44;
    return [
      text(45, y + 21, names[colour] ?? colour),
      ...levels.flatMap((numeral, step) => {
        const lit = step + 1 === value;
        return [
          svg("rect", { x: 90 + step * 44, y, width: 40, height: 32, rx: 4, fill: lit ? COLOURS[colour] ?? "#888" : "#f1eee7", stroke: "#cfc8ba" }),
          text(90 + step * 44 + 20, y + 21, numeral, lit ? { fill: colour === "W" ? "#333" : "#fff", "font-weight": 700 } : { fill: "#6f685c" }),
        ];
      }),
    ];
  });
  return frame(90 + levels.length * 44 + 10, 20 + entries.length * 44, `Price tracks: ${entries.map(([colour, value]) => `${names[colour]} at level ${levels[(value ?? 1) - 1] ?? value}`).join(", ")}`, ...rows);
}

/**
 * A Tulip Traders catalogue code in words, as the server's sentences name it: "S-OPk" is
 * ["pink-and-orange", "Single"] (types L, S, P, D, K; colours R, Pk, O, Pu, Y, rules §1.1).
 */
function traderTulip(code: string): [string, string] {
  const kinds: Record<string, string> = { L: "Lily", S: "Single", P: "Parrot", D: "Double", K: "Kaufmanniana" };
  const colours: Record<string, string> = { R: "red", Pk: "pink", O: "orange", Pu: "purple", Y: "yellow" };
  const [kind = "", tail = ""] = code.split("-");
  // In the catalogue's colour order, as the server writes them ("red-and-purple").
  const order = ["R", "Pk", "O", "Pu", "Y"];
  const parts = (tail.match(/[A-Z][a-z]?/g) ?? []).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return [parts.map((part) => colours[part] ?? part).join("-and-"), kinds[kind] ?? kind];
}

/** Tulip Traders: the market grid, tokens on each tulip, crises in red. */
function tulipTraders(view: Json): SVGElement | null {
  const grid = list(get(view, "grid"));
  if (grid.length === 0) return null;
  const cell = 86;
  const rows = Math.max(...grid.map((entry) => num(get(entry, "row")) ?? 0)) + 1;
  const cols = Math.max(...grid.map((entry) => num(get(entry, "col")) ?? 0)) + 1;
  const cells = grid.flatMap((entry) => {
    const x = 10 + (num(get(entry, "col")) ?? 0) * cell;
    const y = 10 + (num(get(entry, "row")) ?? 0) * cell;
    const crisis = get(entry, "crisis") === true;
    const [colours, kind] = traderTulip((str(get(entry, "cell")) ?? "").replace(/^M:/, ""));
    const tokens = num(get(entry, "tokens")) ?? 0;
    return [
      svg("rect", { x, y, width: cell - 8, height: cell - 8, rx: 6, fill: crisis ? "#f4c7c3" : "#f1eee7", stroke: crisis ? "#c0392b" : "#cfc8ba", "stroke-width": 2 }),
      text(x + (cell - 8) / 2, y + 22, colours, { "font-size": 11 }),
      text(x + (cell - 8) / 2, y + 38, kind, { "font-weight": 700, "font-size": 12 }),
      text(x + (cell - 8) / 2, y + 60, crisis ? "crisis" : `${tokens} token${tokens === 1 ? "" : "s"}`),
    ];
  });
  return frame(20 + cols * cell, 20 + rows * cell, `The market: ${grid.length} tulips`, ...cells);
}

/** Tulpenfieber: every player's field, tulips and moneybags as they lie. */
function tulpenfieber(view: Json, ctx: BoardContext): SVGElement | null {
  const players = list(get(view, "players"));
  if (players.length === 0) return null;
  const size = 22;
  const fieldWidth = 7 * size + 30;
  const drawings = players.flatMap((player, index) => {
    const rows = list(get(player, "field")).map((row) => str(row) ?? "");
    const seat = num(get(player, "seat")) ?? index;
    const x0 = 10 + index * fieldWidth;
    const squares = rows.flatMap((row, r) =>
      [...row].map((mark, c) => {
        const fill = mark === "T" || mark === "t" ? "#c0392b" : mark === "M" || mark === "m" ? "#e0b400" : mark === "X" ? "#7b3fa0" : "#eef3e4";
        return svg("rect", { x: x0 + c * size, y: 30 + r * size, width: size - 3, height: size - 3, rx: 3, fill, stroke: mark === "t" || mark === "m" ? "#2e6db4" : "#b9c4a7" });
      }),
    );
    return [text(x0 + (7 * size) / 2, 20, `${ctx.names[seat] ?? `Seat ${seat + 1}`}${ctx.toAct.includes(seat) ? " ▶" : ""}`, { "font-weight": seat === ctx.you ? 700 : 400 }), ...squares];
  });
  return frame(20 + players.length * fieldWidth, 30 + 5 * size + 10, `Tulip fields of ${players.length} players: red tulips, yellow moneybags`, ...drawings);
}

/** Where a Black Thursday pawn stands, in the log's words: "at column 3, row 2", "not placed yet". */
function position(value: Json): string {
  const name = str(value);
  if (name !== undefined) return name === "unplaced" ? "not placed yet" : name.replace(/_/g, " ");
  const at = get(value, "at");
  const x = num(get(at, "x"));
  const y = num(get(at, "y"));
  // Counted from 1, as the server's words count them: column from the left, row from the roof.
  if (x !== undefined && y !== undefined) return `at column ${x + 1}, row ${y + 1}`;
  const key = value !== null && typeof value === "object" ? Object.keys(value)[0] : undefined;
  return key ? key.replace(/_/g, " ") : "";
}

/** Black Thursday: the building's tile slots and where each investor stands. */
function blackThursday(view: Json, ctx: BoardContext): SVGElement | null {
  const slots = list(get(view, "slots"));
  if (slots.length === 0) return null;
  const unit = 26;
  const xs = slots.map((slot) => num(get(get(slot, "origin"), "x")) ?? 0);
  const ys = slots.map((slot) => num(get(get(slot, "origin"), "y")) ?? 0);
  const width = (Math.max(...xs) + 2) * unit + 20;
  const height = (Math.max(...ys) + 2) * unit + 20;
  const tiles = slots.flatMap((slot, index) => {
    const x = 10 + (xs[index] ?? 0) * unit;
    const y = 10 + (ys[index] ?? 0) * unit;
    const faceUp = get(slot, "face_up") === true;
    const tile = str(get(slot, "tile")) ?? (faceUp ? "" : "?");
    return [
      svg("rect", { x, y, width: unit * 2 - 4, height: unit * 2 - 4, rx: 4, fill: faceUp ? "#e9e2cf" : "#56606b", stroke: "#2d333a" }),
      text(x + unit - 2, y + unit + 3, tile, { fill: faceUp ? "#1f2328" : "#ffffff", "font-size": 11 }),
    ];
  });
  const players = list(get(view, "players"));
  const legend = players.map((player, index) => {
    const seat = num(get(player, "seat")) ?? index;
    return text(width / 2, height + 16 + index * 18, `${ctx.names[seat] ?? `Player ${seat + 1}`}: ${position(get(player, "position"))}`, { "font-size": 12 });
  });
  return frame(width, height + 10 + players.length * 18, `The building: ${slots.length} tile slots`, ...tiles, ...legend);
}

/** The drawing for `ruleset`, or null when it has none or finds nothing to draw. */
export function drawing(ruleset: string, view: Json, ctx: BoardContext): SVGElement | null {
  switch (ruleset) {
    case "tulipmania-1637":
      return tulipmania(view);
    case "tulip-bubble":
      return tulipBubble(view);
    case "tulip-traders":
      return tulipTraders(view);
    case "tulpenfieber":
      return tulpenfieber(view, ctx);
    case "black-thursday":
      return blackThursday(view, ctx);
    default:
      return null;
  }
}
