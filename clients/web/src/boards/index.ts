/** The board of each ruleset: its drawing (SVG) above the generic page of the whole view. */
import type { BoardContext } from "./board";
import { drawing } from "./drawings";
import { renderGeneric } from "./generic";
import { h } from "../dom";

/** Draws `view` for `ruleset`; a drawing that fails is left out, with the error said. */
export function renderBoard(ruleset: string, view: unknown, ctx: BoardContext, spectator: unknown): Element {
  let picture: Element | null = null;
  try {
    picture = drawing(ruleset, view, ctx);
  } catch (error) {
    picture = h("p", { class: "error" }, `The board could not be drawn: ${String(error)}`);
  }
  return h("div", {}, picture ? h("figure", { class: "drawing" }, picture) : null, renderGeneric(view, ctx, spectator));
}
