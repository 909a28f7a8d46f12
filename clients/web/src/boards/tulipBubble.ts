import type { BoardContext } from "./board";
import { svg } from "../dom";
import { COLOURS, frame, get, list, num, str, text, type Json } from "./draw";

/** Tulip Bubble: the three price tracks. */
export function tulipBubble(view: Json): SVGElement | null {
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

