/**
 * What every game's board renderer receives and returns. A renderer draws one seat's view
 * (GET /v1/games/{id} → `view`) as SVG and HTML; it never fetches anything and never sees
 * more than that view.
 *
 * Hidden information: every element that shows the viewer's own hidden information (a hand,
 * a sealed bid, a secret card) carries `data-private-owner="<seat>"`, the viewer's seat. The
 * browser tests check that a seat's page shows no other seat's private element, and that
 * what is private to a seat appears on its page.
 */
import type { components } from "../schema";
import type { Json } from "../../../typescript/src/json";

export type Schemas = components["schemas"];

export interface BoardContext {
  /** The viewer's seat, or null for a spectator. */
  you: number | null;
  /** Each seat's player name ("Seat N" while unclaimed), by seat index. */
  names: string[];
  /** Seats that have a legal action now. */
  toAct: number[];
  /**
   * The viewer's complete legal moves now, as the server lists them (`GET …/legal-actions`
   * entries with an `action`): empty for a spectator, out of turn and in a replay. A board
   * makes the element a move is about (a space, a card, a die) play it: [`playable`].
   */
  moves: BoardMove[];
  /**
   * The game's options as the server normalised them (`GET …/audit`'s `options`: every
   * option, defaults filled in), or undefined while unknown; a board that draws what options
   * change (Tulpenfieber's dice needs) reads them here.
   */
  options?: Json;
  /** Plays `action` (one of `moves`) as the viewer. */
  play(action: Json): void;
}

/** One complete legal move: the action to send, its button label and its sentence. */
export interface BoardMove {
  action: Json;
  label: string;
  text: string;
}

/**
 * Makes `element` (an SVG shape or group, or an HTML element) play `move` when clicked, or
 * when focused and Enter or Space is pressed: a button to assistive technology, named by the
 * move's label, marked `data-testid="board-move"` with the move's sentence in `data-text`
 * (what the browser tests click). Returns `element`.
 */
export function playable<E extends Element>(element: E, move: BoardMove, ctx: BoardContext): E {
  element.classList.add("board-move");
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", move.label);
  element.setAttribute("data-testid", "board-move");
  element.setAttribute("data-text", move.text);
  element.addEventListener("click", () => ctx.play(move.action));
  element.addEventListener("keydown", (event) => {
    if (!(event instanceof KeyboardEvent) || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    ctx.play(move.action);
  });
  return element;
}

/** The moves whose action has `type` equal to `tag`. */
export function movesOfType(ctx: BoardContext, tag: string): BoardMove[] {
  return ctx.moves.filter((move) => typeof move.action === "object" && move.action !== null && !Array.isArray(move.action) && (move.action as Record<string, unknown>)["type"] === tag);
}

/** Draws a view; returns the element to place in the page's board area. */
export type Renderer<View> = (view: View, ctx: BoardContext) => Element;
