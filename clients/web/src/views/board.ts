/**
 * A game's board and the details under it: the ruleset's drawing of a view (boards/) with the
 * seat's moves playable on it, and the whole view as data behind a disclosure. Draws the live
 * game, or the game as it stood after a log entry (the replay).
 */
import { renderDrawing, renderGeneric } from "../boards";
import type { BoardContext, BoardMove, BoardPick } from "../boards/board";
import { h, replace } from "../dom";
import type { GameModel } from "../game-model";

export interface BoardView {
  board: HTMLElement;
  /** Everything on the table, as data. */
  details: HTMLElement;
  /**
   * The seat's complete legal moves and picks (moves choosing several items) now, for the
   * live board to make playable (empty out of turn).
   */
  setLive(moves: BoardMove[], picks: BoardPick[]): void;
  /**
   * Draws `view` (with `toAct` to act, and the spectator's view to mark what only you see):
   * the live one (`seq` null), or the game as it stood after log entry `seq`.
   */
  draw(model: GameModel, view: unknown, toAct: number[], spectator: unknown, seq: number | null): void;
  /** Draws the live game. */
  drawLive(model: GameModel): void;
}

export function boardView(): BoardView {
  const board = h("section", { class: "board", "data-testid": "board", "aria-label": "The board" });
  // The whole view as data, for whoever wants every detail: closed until opened (the board
  // draws what a player needs), under the board on a wide screen, last on a phone.
  const details = h("details", { class: "all-details", "data-testid": "details" });
  let moves: BoardMove[] = [];
  let picks: BoardPick[] = [];
  const draw = (model: GameModel, view: unknown, toAct: number[], spectator: unknown, seq: number | null): void => {
    const ctx: BoardContext = {
      you: model.you,
      names: model.names,
      toAct,
      moves: seq === null ? moves : [],
      picks: seq === null ? picks : [],
      options: model.options,
      play: (action) => void model.play(action),
    };
    board.dataset.seq = seq === null ? "" : String(seq);
    board.classList.toggle("replaying", seq !== null);
    replace(board, renderDrawing(model.envelope.ruleset, view, ctx) ?? h("p", {}, view === null ? "The game has not started." : "The table is described under “Everything on the table” below."));
    replace(details, h("summary", {}, seq === null ? "Everything on the table (details)" : `Everything on the table after entry ${seq + 1} (details)`), renderGeneric(view, ctx, spectator));
  };
  return {
    board,
    details,
    setLive: (liveMoves, livePicks) => {
      moves = liveMoves;
      picks = livePicks;
    },
    draw,
    drawLive: (model) => draw(model, model.envelope.view, model.envelope.to_act, model.spectator, null),
  };
}
