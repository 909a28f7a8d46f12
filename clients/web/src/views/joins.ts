/**
 * A game's free seats: the links to send the players who are to take them, or (a rematch)
 * who is still to come; and, for the creator, giving a free seat to a bot.
 */
import type { BotKind } from "../api";
import { h, replace } from "../dom";
import type { GameModel } from "../game-model";

/** The bots a seat can be given, and their words. */
const BOTS: [BotKind, string][] = [
  ["basic", "Basic bot"],
  ["strong", "Strong bot"],
  ["random", "Random bot"],
];

export interface JoinsView {
  element: HTMLElement;
  render(model: GameModel): void;
}

export function joinsView(): JoinsView {
  const element = h("section", { class: "joins" });
  const render = (model: GameModel): void => {
    const envelope = model.envelope;
    const id = model.id;
    const open = envelope.seats.filter((seat) => !seat.claimed);
    if (open.length === 0) {
      replace(element);
      return;
    }
    const base = `${location.origin}${location.pathname}`;
    /** A bot for a free seat: its kind, and the button that seats it (the creator's). */
    const botChoice = (seat: number): (HTMLElement | string)[] => {
      const kind = h(
        "select",
        { "aria-label": `Bot for player ${seat + 1}`, "data-testid": "bot-kind", "data-seat": seat },
        BOTS.map(([value, label]) => h("option", { value }, label)),
      );
      const addBot = async (): Promise<void> => {
        const choice = BOTS.find(([value]) => value === kind.value)?.[0] ?? "basic";
        await model.addBot(seat, choice);
      };
      return [kind, " ", h("button", { type: "button", class: "small", "data-testid": "add-bot", "data-seat": seat, onclick: () => void addBot() }, "Add bot")];
    };
    if (typeof envelope.rematch_of === "string") {
      // A rematch is invite-only: each player joins by asking on the finished game's page; the
      // creator may give the seat of a player who does not come back to a bot.
      const previous = envelope.rematch_of;
      replace(
        element,
        h("h2", {}, "Rematch"),
        h(
          "p",
          { "data-testid": "rematch-waiting" },
          "This is a rematch. It starts when every player of the ",
          h("a", { href: `#/game/${previous}` }, "previous game"),
          ` has pressed “Rematch” there: waiting for ${open.length === 1 ? "1 more player" : `${open.length} more players`}.`,
        ),
        model.admin ? h("ul", { class: "seat-invites" }, open.map((seat) => h("li", {}, `Player ${seat.seat + 1}: `, botChoice(seat.seat)))) : null,
      );
      return;
    }
    replace(
      element,
      h("h2", {}, "Invite players"),
      h("p", {}, "Send each player the link of a free seat (the creator takes one too), or give a seat to a bot."),
      h(
        "ul",
        { class: "seat-invites" },
        open.map((seat) => {
          const url = `${base}#/join/${id}/${seat.seat}`;
          return h(
            "li",
            {},
            h("a", { href: url, "data-testid": "join-link", "data-seat": seat.seat }, `Player ${seat.seat + 1}'s link`),
            " ",
            h("button", { type: "button", class: "small", onclick: () => void navigator.clipboard?.writeText(url) }, "Copy link"),
            " or ",
            botChoice(seat.seat),
          );
        }),
      ),
    );
  };
  return { element, render };
}
