/** The top of a game's page: the game's name and who you are, then whose turn it is. */
import { countdown } from "../clock";
import { h, replace } from "../dom";
import type { GameModel } from "../game-model";

export interface HeaderView {
  header: HTMLElement;
  /** The status line under the header, read out as it changes. */
  status: HTMLElement;
  render(model: GameModel): void;
}

export function headerView(): HeaderView {
  const header = h("header", { class: "game-header" });
  const status = h("p", { class: "status", role: "status", "aria-live": "polite", "data-testid": "status" });
  const render = (model: GameModel): void => {
    const envelope = model.envelope;
    const you = model.you;
    const names = model.names;
    const yourTurn = model.yourTurn;
    replace(header, h("h1", {}, model.title), h("p", { class: "you" }, you === null ? "You are watching." : `You are ${names[you] ?? ""}.`));
    const yourDeadline = you === null ? null : model.deadline(you);
    replace(
      status,
      envelope.status === "open"
        ? "Waiting for players to take their seats."
        : envelope.status === "finished"
          ? "Finished."
          : yourTurn
            ? "Your turn."
            : `Waiting for ${envelope.waiting_on.map((seat) => names[seat] ?? "").join(", ")}.`,
      yourTurn && yourDeadline ? [" ", countdown(yourDeadline)] : null,
      envelope.clock?.paused_since && envelope.status === "active" ? h("span", { class: "paused", "data-testid": "paused" }, " The clocks are paused.") : null,
    );
  };
  return { header, status, render };
}
