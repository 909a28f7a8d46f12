/**
 * A finished game's replay: a slider from the deal (entry 1 in the log) to the last entry,
 * with previous and next, drawing the board as this reader saw it after the chosen entry
 * (`GET …/history/{seq}`) and saying that entry's headline from the log.
 */
import { h, replace } from "../dom";
import type { GameModel, Shown } from "../game-model";
import { message } from "../requests";
import type { BoardView } from "./board";

export interface ReplayView {
  element: HTMLElement;
  /** Builds the slider once the game is finished (again when the log grows). */
  render(model: GameModel): void;
  /** Draws the board: the entry being replayed if the finished game is, else the live game. */
  drawBoard(model: GameModel): void;
}

/** The replay of `board`, its entries read from the log's `list`. */
export function replayView(board: BoardView, list: HTMLElement): ReplayView {
  const element = h("section", { class: "replay", "data-testid": "replay", "aria-label": "Replay" });
  /** The entry the replay shows. */
  let shown: Shown | undefined;
  /** The log's last entry the replay's slider was built for (-1: none built). */
  let built = -1;
  /** Bumped at each step: an answer for an entry the player has moved past is dropped. */
  let asked = 0;

  const render = (model: GameModel): void => {
    if (model.envelope.status !== "finished" || model.lastSeq < 0) {
      built = -1;
      shown = undefined;
      replace(element);
      return;
    }
    const last = model.lastSeq;
    if (last === built) return;
    built = last;
    const slider = h("input", { type: "range", min: 0, max: last, step: 1, value: last, "aria-label": "Log entry to show", "data-testid": "replay-slider" });
    const prev = h("button", { type: "button", class: "small", "data-testid": "replay-prev", "aria-label": "Previous entry" }, "◀ Previous");
    const next = h("button", { type: "button", class: "small", "data-testid": "replay-next", "aria-label": "Next entry" }, "Next ▶");
    const caption = h("p", { class: "replay-caption", "data-testid": "replay-caption", "aria-live": "polite" });
    const show = async (seq: number): Promise<void> => {
      const ask = ++asked;
      slider.value = String(seq);
      prev.disabled = seq <= 0;
      next.disabled = seq >= last;
      const item = list.querySelector<HTMLElement>(`li[data-seq="${seq}"]`);
      for (const marked of list.querySelectorAll(".replay-at")) marked.classList.remove("replay-at");
      // The entry shown is marked in the log (the end is the game as it ended: nothing to mark).
      if (item && seq < last) {
        item.classList.add("replay-at");
        list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
      } else list.scrollTop = list.scrollHeight;
      const headline = item?.querySelector(".headline")?.textContent ?? "";
      const where = seq >= last ? `The end (entry ${seq + 1} of ${last + 1})` : `After entry ${seq + 1} of ${last + 1}`;
      caption.textContent = `${where}: ${headline}`;
      caption.dataset.seq = String(seq);
      if (seq >= last) {
        // The last entry is the game as it ended: the live board.
        shown = undefined;
        board.drawLive(model);
        return;
      }
      try {
        const point = await model.historyPoint(seq);
        if (ask !== asked || !model.alive()) return;
        shown = point;
        board.draw(model, point.mine.view, point.mine.to_act, point.spectator?.view, seq);
      } catch (error) {
        if (ask === asked) caption.textContent = `${where}: the board could not be read (${message(error)}).`;
      }
    };
    slider.addEventListener("input", () => void show(Number(slider.value)));
    prev.addEventListener("click", () => void show(Math.max(0, Number(slider.value) - 1)));
    next.addEventListener("click", () => void show(Math.min(last, Number(slider.value) + 1)));
    replace(
      element,
      h("h2", {}, "Replay"),
      h("p", { class: "hint" }, "Move the slider to see the board as you saw it after any entry of the log."),
      h("div", { class: "replay-controls" }, prev, slider, next),
      caption,
    );
    void show(shown ? shown.mine.seq : last);
  };

  const drawBoard = (model: GameModel): void => {
    // A finished game being replayed keeps the entry on the board; anything else is live.
    if (model.envelope.status === "finished" && shown) board.draw(model, shown.mine.view, shown.mine.to_act, shown.spectator?.view, shown.mine.seq);
    else board.drawLive(model);
  };

  return { element, render, drawBoard };
}
