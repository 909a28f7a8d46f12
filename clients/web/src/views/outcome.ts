/**
 * A finished game's outcome: who won and the scores, checking the server's seed commitment in
 * the browser, and playing again.
 */
import { h, replace } from "../dom";
import { words } from "../forms";
import type { GameModel } from "../game-model";

export interface OutcomeView {
  element: HTMLElement;
  render(model: GameModel): void;
}

export function outcomeView(): OutcomeView {
  const element = h("section", { class: "outcome" });

  /** Recomputes the seed commitment from the revealed secret, into `out`. */
  const verifySeed = async (model: GameModel, commitment: string, out: HTMLElement): Promise<void> => {
    out.textContent = "Checking…";
    out.textContent = await model.verifySeed(commitment);
  };

  /**
   * Playing again: a player of the game (or its creator) asks for the rematch, which the first
   * request creates and every later one joins; this browser keeps the new game's token and
   * goes there.
   */
  const rematchPart = (model: GameModel): HTMLElement | null => {
    const asker = model.rematchAsker();
    if (!asker) return null;
    const created = typeof model.envelope.rematch === "string";
    const result = h("p", { class: "error", role: "alert", "data-testid": "rematch-error" });
    const ask = async (): Promise<void> => {
      result.textContent = "";
      const refused = await model.askRematch(asker);
      if (refused !== undefined) result.textContent = refused;
    };
    return h(
      "div",
      { class: "rematch" },
      h("h3", {}, "Play again"),
      h("p", {}, created ? "A rematch has been created: join it with the same players." : "A new game with the same players and rules; the next player starts."),
      h("button", { type: "button", "data-testid": "rematch", onclick: () => void ask() }, created ? "Rematch created — join" : "Rematch"),
      result,
    );
  };

  const render = (model: GameModel): void => {
    const envelope = model.envelope;
    const names = model.names;
    const id = model.id;
    const result = envelope.outcome;
    if (!result) {
      replace(element);
      return;
    }
    const winners = result.winners.map((seat) => names[seat] ?? "").join(" and ");
    const verifyResult = h("p", { "data-testid": "verify-result", role: "status" });
    const verify = h("button", { type: "button", "data-testid": "verify", onclick: () => void verifySeed(model, envelope.seed_commitment, verifyResult) }, "Verify in your browser");
    replace(
      element,
      h(
        "div",
        { "data-testid": "outcome", class: "outcome-box" },
        h("h2", {}, `${winners} won`),
        h("p", {}, `The game ended: ${words(result.reason)}.`),
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Rank"))),
          h("tbody", {}, names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, result.scores[seat] ?? ""), h("td", {}, result.ranks[seat] ?? "")))),
        ),
        h("h3", {}, "Was it fair?"),
        h("p", {}, "Before the first card was dealt, the server published a commitment to its secret. Now the secret is revealed: check that it matches."),
        verify,
        verifyResult,
        h("p", {}, "To replay every shuffle and die roll too: ", h("code", {}, `beurs verify ${location.origin}/v1/games/${id}/audit`)),
        rematchPart(model),
      ),
    );
  };
  return { element, render };
}
