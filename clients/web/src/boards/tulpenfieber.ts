import type { BoardContext } from "./board";
import { svg } from "../dom";
import { COLOURS, frame, get, list, num, str, text, type Json } from "./draw";

/** Tulpenfieber: every player's field, tulips and moneybags as they lie. */
export function tulpenfieber(view: Json, ctx: BoardContext): SVGElement | null {
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

