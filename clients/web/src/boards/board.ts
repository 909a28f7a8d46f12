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

export type Schemas = components["schemas"];

export interface BoardContext {
  /** The viewer's seat, or null for a spectator. */
  you: number | null;
  /** Each seat's player name ("Seat N" while unclaimed), by seat index. */
  names: string[];
  /** Seats that have a legal action now. */
  toAct: number[];
}

/** Draws a view; returns the element to place in the page's board area. */
export type Renderer<View> = (view: View, ctx: BoardContext) => Element;
