/**
 * A game's controls: resigning and vacations (a seat's own), pausing the clocks and giving a
 * seat to a new player (the creator's).
 */
import { duration } from "../clock";
import { h, replace } from "../dom";
import type { GameModel } from "../game-model";

export interface ControlsView {
  element: HTMLElement;
  render(model: GameModel): void;
}

export function controlsView(): ControlsView {
  const element = h("section", { class: "controls", "data-testid": "controls", "aria-label": "Game controls" });
  let controlsKey = "";
  /** What the last seat replacement gave: kept when the controls are drawn again. */
  const result = h("p", { class: "replaced", role: "status" });
  const render = (model: GameModel): void => {
    const envelope = model.envelope;
    const you = model.you;
    const names = model.names;
    const { token, admin } = model;
    // Drawn again only when what they offer changes, not at every move: a name being typed
    // stays.
    const key = JSON.stringify([envelope.status, you, envelope.seats, names, envelope.clock?.paused_since, envelope.clock?.seats.map((clock) => [clock.vacation_since, clock.vacation_left_ms])]);
    if (key === controlsKey) return;
    controlsKey = key;
    const parts: HTMLElement[] = [];
    const active = envelope.status === "active";
    const seat = you === null ? undefined : envelope.seats[you];
    if (token && you !== null && active && seat && !seat.resigned) {
      const resign = async (): Promise<void> => {
        if (!window.confirm("Resign? A bot plays your seat to the end of the game, and you cannot move again.")) return;
        await model.resign(you);
      };
      parts.push(h("button", { type: "button", class: "small danger", "data-testid": "resign", onclick: () => void resign() }, "Resign"));
      // A vacation stops this seat's clock alone, within its allowance for the game.
      const own = envelope.clock?.seats.find((clock) => clock.seat === you);
      if (own) {
        if (own.vacation_since) {
          parts.push(h("button", { type: "button", class: "small", "data-testid": "vacation-end", onclick: () => void model.endVacation(you) }, "I'm back: run my clock again"));
        } else if (own.vacation_left_ms > 0) {
          parts.push(h("button", { type: "button", class: "small", "data-testid": "vacation-start", onclick: () => void model.startVacation(you) }, `Go on vacation (${duration(own.vacation_left_ms)} left)`));
        }
      }
    }
    if (admin && active && envelope.clock) {
      const paused = Boolean(envelope.clock.paused_since);
      parts.push(h("button", { type: "button", class: "small", "data-testid": paused ? "resume" : "pause", onclick: () => void model.toggleClocks(paused) }, paused ? "Start the clocks again" : "Pause every clock"));
    }
    if (admin && envelope.status !== "finished") {
      const claimed = envelope.seats.filter((candidate) => candidate.claimed);
      if (claimed.length > 0) {
        const which = h("select", { "aria-label": "Seat to give to a new player", "data-testid": "replace-seat" }, claimed.map((candidate) => h("option", { value: candidate.seat }, names[candidate.seat] ?? "")));
        const name = h("input", { "aria-label": "The new player's name", placeholder: "new player's name", maxlength: 64, "data-testid": "replace-name" });
        const replaceSeat = async (): Promise<void> => {
          const newName = name.value.trim();
          if (!newName) {
            result.textContent = "Type the new player's name first.";
            return;
          }
          const seatNumber = Number(which.value);
          if (!window.confirm(`Give ${names[seatNumber] ?? "this"} seat to ${newName}? The current player's link stops working.`)) return;
          const newToken = await model.replaceSeat(seatNumber, newName);
          if (!newToken) return;
          const here = h("button", {
            type: "button",
            class: "small",
            onclick: () => model.playSeatHere(seatNumber, newToken, newName),
          }, `Play ${newName}'s seat in this browser`);
          replace(result, `${newName} has the seat now. Their token (shown once, for an API client): `, h("code", {}, newToken), " ", here);
        };
        parts.push(
          h(
            "div",
            { class: "admin" },
            h("h3", {}, "As the game's creator"),
            h("div", { class: "field" }, "Give ", which, "’s seat to ", name, h("button", { type: "button", class: "small", "data-testid": "replace", onclick: () => void replaceSeat() }, "Replace")),
            result,
          ),
        );
      }
    }
    if (parts.length === 0) replace(element);
    else replace(element, h("h2", {}, "Game"), parts);
  };
  return { element, render };
}
