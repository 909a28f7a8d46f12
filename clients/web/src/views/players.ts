/** A game's players: each seat's name, who is to act, their clocks, bots and resignations. */
import { countdown, duration } from "../clock";
import { h, replace } from "../dom";
import { words } from "../forms";
import type { GameModel } from "../game-model";

export interface PlayersView {
  element: HTMLElement;
  render(model: GameModel): void;
}

export function playersView(): PlayersView {
  const element = h("section", { class: "players", "data-testid": "players", "aria-label": "Players" });
  const render = (model: GameModel): void => {
    const envelope = model.envelope;
    const you = model.you;
    const names = model.names;
    replace(
      element,
      h("h2", {}, "Players"),
      h(
        "ul",
        {},
        envelope.seats.map((seat) => {
          const until = envelope.status === "active" ? model.deadline(seat.seat) : null;
          const seatClock = envelope.clock?.seats.find((clock) => clock.seat === seat.seat);
          const away = envelope.status === "active" && seatClock?.vacation_since ? " — on vacation" : "";
          const stopped = envelope.status === "active" && typeof seatClock?.left_ms === "number" ? ` — clock stopped, ${duration(seatClock.left_ms)} left` : "";
          return h(
            "li",
            { class: seat.seat === you ? "you" : "" },
            names[seat.seat],
            seat.seat === you ? " (you)" : "",
            seat.claimed ? "" : " (free)",
            seat.resigned ? " (resigned: a bot plays on)" : seat.bot ? ` (${words(seat.bot)} bot)` : "",
            envelope.to_act.includes(seat.seat) && envelope.status === "active" ? " — to act" : "",
            until ? [" — ", countdown(until)] : null,
            away,
            stopped,
          );
        }),
      ),
    );
  };
  return { element, render };
}
