import type { BoardContext } from "./board";
import { svg } from "../dom";
import { COLOURS, frame, get, list, num, str, text, type Json } from "./draw";

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
export function blackThursday(view: Json, ctx: BoardContext): SVGElement | null {
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

