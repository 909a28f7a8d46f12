import type { BoardContext } from "./board";
import { svg } from "../dom";
import { COLOURS, frame, get, list, num, str, text, type Json } from "./draw";

/** Tulipmania: each colour's price on the board, highest first. */
export function tulipmania(view: Json): SVGElement | null {
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

