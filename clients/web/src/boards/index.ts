/**
 * The board of each ruleset: its drawing (SVG), and the generic page of the whole view that
 * the game page keeps behind a "details" disclosure.
 */
import type { BoardContext } from "./board";
import { drawing } from "./drawings";
import { h } from "../dom";
export { renderGeneric } from "./generic";

/** Draws `view` for `ruleset`; a drawing that fails is left out, with the error said. */
export function renderDrawing(ruleset: string, view: unknown, ctx: BoardContext): Element | null {
  let picture: Element | null = null;
  try {
    picture = drawing(ruleset, view, ctx);
  } catch (error) {
    picture = h("p", { class: "error" }, `The board could not be drawn: ${String(error)}`);
  }
  if (picture) {
    // A drawing is an image to assistive technology until it holds a control (a space to
    // click): then a group, since an image's content is not announced and controls nest in it.
    const drawings = [picture, ...picture.querySelectorAll("svg")].filter((element) => element instanceof SVGSVGElement);
    for (const drawing of drawings) {
      if (drawing.getAttribute("role") === "img" && drawing.querySelector('[role="button"], [role="checkbox"]')) drawing.setAttribute("role", "group");
    }
  }
  return picture ? h("figure", { class: "drawing" }, picture) : null;
}
