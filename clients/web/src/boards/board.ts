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
  /**
   * The seat's picks now: moves that choose several items (Tulip Bubble's bid markers, the
   * cards to discard), each listed as one choice ([`BoardPick`]). A board makes the element an
   * item is about tick it ([`pickable`]); the choice is played from the moves panel's form.
   */
  picks: BoardPick[];
  /** Plays `action` (one of `moves`) as the viewer. */
  play(action: Json): void;
}

/** One complete legal move: the action to send, its button label and its sentence. */
export interface BoardMove {
  action: Json;
  label: string;
  text: string;
}

/** A choice of several items, ticked one at a time (its form in the moves panel holds them). */
export interface BoardPick {
  /** The move's `type`. */
  tag: string;
  /** The action's field that holds the chosen items. */
  field: string;
  /** Each item and its words. */
  items: { value: Json; label: string }[];
  min: number;
  max: number;
  /** Whether `value` is ticked now. */
  chosen(value: Json): boolean;
  /** Ticks or unticks `value`; returns whether it is ticked now. */
  toggle(value: Json): boolean;
}

/** The pick of the move `tag` that offers `value`, if any. */
export function pickOffering(ctx: BoardContext, tag: string, value: Json): BoardPick | undefined {
  return ctx.picks.find((pick) => pick.tag === tag && pick.items.some((item) => JSON.stringify(item.value) === JSON.stringify(value)));
}

/**
 * Makes `element` tick `value` in `pick` when clicked (or Enter or Space): a checkbox to
 * assistive technology (`aria-checked`), named by the item's words, marked
 * `data-testid="board-pick"` with the item in `data-value` and the move's type in `data-tag`;
 * class `chosen` while ticked. Returns `element`.
 */
export function pickable<E extends Element>(element: E, pick: BoardPick, value: Json): E {
  const item = pick.items.find((candidate) => JSON.stringify(candidate.value) === JSON.stringify(value));
  const show = (on: boolean): void => {
    element.classList.toggle("chosen", on);
    element.setAttribute("aria-checked", String(on));
  };
  element.classList.add("board-move");
  element.setAttribute("role", "checkbox");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", `Choose ${item?.label ?? "this"}`);
  element.setAttribute("data-testid", "board-pick");
  element.setAttribute("data-value", JSON.stringify(value));
  element.setAttribute("data-tag", pick.tag);
  show(pick.chosen(value));
  element.addEventListener("click", () => show(pick.toggle(value)));
  element.addEventListener("keydown", (event) => {
    if (!(event instanceof KeyboardEvent) || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    show(pick.toggle(value));
  });
  return element;
}

/**
 * Makes `element` (an SVG shape or group, or an HTML element; a list item through a `div`
 * holding its content) play `move` when clicked, or
 * when focused and Enter or Space is pressed: a button to assistive technology, named by the
 * move's label, marked `data-testid="board-move"` with the move's sentence in `data-text`
 * (what the browser tests click). Returns `element`.
 */
export function playable<E extends Element>(element: E, move: BoardMove, ctx: BoardContext): E {
  element.classList.add("board-move");
  if (element instanceof HTMLLIElement) {
    // A list item keeps its role (a list holds only items): the button is its whole content.
    const inner = document.createElement("div");
    inner.className = "board-move-inner";
    inner.append(...element.childNodes);
    element.append(inner);
    playable(inner, move, ctx);
    inner.classList.remove("board-move");
    return element;
  }
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
