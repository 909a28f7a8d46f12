/**
 * What the boards share: reading a view defensively (a drawing leaves out what it does not
 * find), the tulip colours, and the SVG frame and text every drawing uses.
 */
import type { BoardContext } from "./board";
import { svg } from "../dom";
import { member } from "../members";

export type Json = unknown;

export const COLOURS: Record<string, string> = {
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

export const get = member;
export function list(value: Json): Json[] {
  return Array.isArray(value) ? value : [];
}
export function num(value: Json): number | undefined {
  return typeof value === "number" ? value : undefined;
}
export function str(value: Json): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function frame(width: number, height: number, label: string, ...children: SVGElement[]): SVGElement {
  return svg(
    "svg",
    { class: "board-svg", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
    svg("title", {}, label),
    ...children,
  );
}

export function text(x: number, y: number, content: string, attrs: Record<string, string | number> = {}): SVGElement {
  return svg("text", { x, y, "font-size": 13, "text-anchor": "middle", fill: "#1f2328", ...attrs }, content);
}

/** A seat's player name ("Player 3" while unknown). */
export function seatName(ctx: BoardContext, seat: number): string {
  return ctx.names[seat] ?? `Player ${seat + 1}`;
}

/** A seat's player name, with "(you)" for the viewer's own. */
export function you(ctx: BoardContext, seat: number): string {
  return seat === ctx.you ? `${seatName(ctx, seat)} (you)` : seatName(ctx, seat);
}

/** "1 card", "3 cards". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
