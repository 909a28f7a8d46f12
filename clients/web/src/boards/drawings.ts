/**
 * The drawing of each ruleset's board, from the view alone, one file per game: Tulipmania's
 * price board, Tulip Bubble's price tracks, Tulip Traders' market, Tulpenfieber's fields and
 * Black Thursday's building. The generic page below it shows every detail; the drawing shows
 * the state of play at a glance.
 */
import type { BoardContext } from "./board";
import type { Json } from "./draw";
import { blackThursday } from "./blackThursday";
import { tulipBubble } from "./tulipBubble";
import { tulipmania } from "./tulipmania";
import { tulipTraders } from "./tulipTraders";
import { tulpenfieber } from "./tulpenfieber";

/** The drawing for `ruleset`, or null when it has none or finds nothing to draw. */
export function drawing(ruleset: string, view: Json, ctx: BoardContext): Element | null {
  switch (ruleset) {
    case "tulipmania-1637":
      return tulipmania(view, ctx);
    case "tulip-bubble":
      return tulipBubble(view, ctx);
    case "tulip-traders":
      return tulipTraders(view, ctx);
    case "tulpenfieber":
      return tulpenfieber(view, ctx);
    case "black-thursday":
      return blackThursday(view, ctx);
    default:
      return null;
  }
}
