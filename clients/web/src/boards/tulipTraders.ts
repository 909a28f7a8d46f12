import type { BoardContext } from "./board";
import { svg } from "../dom";
import { COLOURS, frame, get, list, num, str, text, type Json } from "./draw";

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
export function tulipTraders(view: Json): SVGElement | null {
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

