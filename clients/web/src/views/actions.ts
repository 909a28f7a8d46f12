/**
 * The moves panel: the seat's legal moves as buttons, the moves to build as forms (their
 * fields start at their defaults), and taking the last move back. A form's ticked items are
 * ticked on the board too, and the other way (the picks it gives the board).
 */
import type { JsonSchema, LegalActions } from "../api";
import type { BoardPick } from "../boards/board";
import { h, replace } from "../dom";
import { familyTitle, schemaFields, viewLabels } from "../forms";
import type { GameModel, LegalRead } from "../game-model";
import { member } from "../members";
import { field, message } from "../requests";
import { isJson, type Json } from "../../../typescript/src/json";

export interface ActionsView {
  element: HTMLElement;
  /** The picks the moves of `legal` offer, ticked in this panel's forms, for the board. */
  picks(legal: LegalActions): BoardPick[];
  /**
   * Lists the seat's legal actions (`read`: undefined when it has none to read): its moves
   * while it is the seat's turn, and (even when it is not) taking its last move back, which
   * is a secondary button apart from the moves.
   */
  render(model: GameModel, read: LegalRead | undefined): void;
}

/** The moves panel; `board` is the board's element, whose items a form's boxes tick. */
export function actionsView(board: HTMLElement): ActionsView {
  const element = h("section", { class: "actions", "data-testid": "actions", "aria-label": "Your moves" });

  /**
   * The pick a schema entry offers (an array of items with `x-enum-labels`: docs/api.md,
   * "Picks"), or none. Its items are ticked in the entry's form in the moves panel, which
   * keeps them across redraws and plays the move.
   */
  const pickFrom = (schema: JsonSchema): BoardPick[] => {
    if (typeof schema !== "object") return [];
    const tag = member(member(schema.properties, "type"), "const");
    const found = Object.entries(schema.properties ?? {}).find(([, property]) => typeof property === "object" && Array.isArray(member(property.items, "x-enum-labels")));
    if (typeof tag !== "string" || !found) return [];
    const [fieldName, property] = found;
    if (typeof property !== "object" || typeof property.items !== "object") return [];
    const values = (property.items.enum ?? []).filter(isJson);
    const labels = member(property.items, "x-enum-labels");
    const box = (value: Json): HTMLInputElement | null =>
      element.querySelector(`form[data-tag="${CSS.escape(tag)}"] input[type="checkbox"][data-value="${CSS.escape(JSON.stringify(value))}"]`);
    return [
      {
        tag,
        field: fieldName,
        items: values.map((value, index) => ({ value, label: Array.isArray(labels) && typeof labels[index] === "string" ? labels[index] : String(value) })),
        min: property.minItems ?? 0,
        max: property.maxItems ?? values.length,
        chosen: (value) => box(value)?.checked ?? false,
        toggle: (value) => {
          const input = box(value);
          if (!input) return false;
          input.checked = !input.checked;
          return input.checked;
        },
      },
    ];
  };

  /** A move to build: its fields start at their defaults, never at a random pick. */
  const familyForm = (model: GameModel, label: string, schema: JsonSchema, names: string[]): HTMLElement => {
    const tag = typeof schema === "object" ? member(member(schema.properties, "type"), "const") : undefined;
    const form = h("form", { class: "family", "data-testid": "action-form", "data-tag": typeof tag === "string" ? tag : undefined });
    // A box ticked here is ticked on the board too (and the other way: pickFrom).
    form.addEventListener("change", (event) => {
      const box = event.target;
      if (!(box instanceof HTMLInputElement) || box.type !== "checkbox" || !box.dataset.value) return;
      for (const item of board.querySelectorAll('[data-testid="board-pick"]')) {
        if (item.getAttribute("data-value") !== box.dataset.value) continue;
        item.classList.toggle("chosen", box.checked);
        item.setAttribute("aria-checked", String(box.checked));
      }
    });
    const fields = schemaFields(schema, undefined, { names, labels: viewLabels(model.envelope.view) });
    replace(form, h("fieldset", {}, h("legend", {}, familyTitle(label)), fields.element, h("div", { class: "form-buttons" }, h("button", { type: "submit" }, "Play"))));
    form.onsubmit = (event) => {
      event.preventDefault();
      let value: Json | undefined;
      try {
        value = fields.read();
      } catch (error) {
        model.setProblem(`Not a complete move yet: ${message(error)}.`);
        return;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        model.setProblem("Fill in the move first.");
        return;
      }
      // The engine has the final word on what the schema cannot say.
      void model.play(value);
    };
    return form;
  };

  const render = (model: GameModel, read: LegalRead | undefined): void => {
    const envelope = model.envelope;
    const you = model.you;
    const yourTurn = model.yourTurn;
    const names = model.names;
    if (!model.token || you === null || envelope.status !== "active" || read === undefined) {
      delete element.dataset.key;
      replace(element, h("h2", {}, "Your moves"), h("p", {}, you === null ? "Take a seat to play." : envelope.status === "finished" ? "The game is over." : "Not your turn."));
      return;
    }
    if ("failed" in read) {
      delete element.dataset.key;
      replace(element, h("h2", {}, "Your moves"), h("p", { class: "error" }, read.failed));
      return;
    }
    const legal = read.legal;
    // The same moves as on screen (another seat moved in a simultaneous phase): keep them, and
    // what is typed into their forms, and play them at the new version.
    const key = JSON.stringify([yourTurn, legal.actions]);
    if (element.dataset.key === key) return;
    element.dataset.key = key;
    const buttons: HTMLElement[] = [];
    const forms: HTMLElement[] = [];
    let undo: HTMLElement | null = null;
    legal.actions.forEach((entry) => {
      if ("action" in entry && member(entry.action, "type") === "undo") {
        undo = h(
          "div",
          { class: "undo" },
          h("button", { type: "button", class: "secondary", "data-testid": "undo", "data-text": entry.text, onclick: () => void model.play(entry.action) }, field(entry, "label") ?? "Take back your last move"),
          h("small", { class: "hint" }, "Possible until another player moves."),
        );
      } else if (!yourTurn) {
        // Only taking a move back is offered out of turn.
      } else if ("action" in entry) {
        const sealed = entry.sealed;
        // The server's short imperative label when it sends one, else the move's sentence.
        const label = field(entry, "label") ?? entry.text;
        buttons.push(
          h(
            "button",
            { type: "button", class: sealed ? "action sealed" : "action", "data-testid": "action", "data-text": entry.text, title: label === entry.text ? null : entry.text, onclick: () => void model.play(entry.action) },
            label,
            sealed ? h("span", { class: "sealed-note" }, " (sealed: only you see it until it is revealed)") : null,
          ),
        );
      } else {
        forms.push(familyForm(model, entry.label, entry.schema, names));
      }
    });
    replace(
      element,
      h("h2", {}, "Your moves"),
      yourTurn ? null : h("p", {}, "Not your turn."),
      buttons.length ? h("div", { class: "buttons" }, buttons) : null,
      forms,
      undo,
    );
  };

  return { element, picks: (legal) => legal.actions.flatMap((entry) => ("schema" in entry ? pickFrom(entry.schema) : [])), render };
}
