/**
 * The view as a readable page, for any ruleset: sections for the view's parts, tables for
 * lists of records (players by name), lists for lists. What the viewer's seat sees and a
 * spectator does not (the seat's hidden information) is found by comparing the seat's view
 * with the spectator's, and marked "only you see this" with `data-private-owner`.
 */
import type { BoardContext } from "./board";
import { h } from "../dom";
import { words } from "../forms";

/** Parts of a view that are setup details rather than the state of play. */
const SKIP = new Set(["options", "n_seats", "viewer", "ruleset"]);

type Path = (string | number)[];

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function child(value: unknown, key: string | number): unknown {
  if (Array.isArray(value) && typeof key === "number") return value[key];
  if (isRecord(value) && typeof key === "string") return value[key];
  return undefined;
}

class Renderer {
  constructor(
    private readonly ctx: BoardContext,
    private readonly spectator: unknown,
  ) {}

  /** The spectator's value at `path`. */
  private public(path: Path): unknown {
    return path.reduce<unknown>((value, key) => child(value, key), this.spectator);
  }

  /** The seat whose row of a players table is being drawn, if any. */
  private rowSeat: number | undefined;

  /**
   * Marks `element` as the viewer's own hidden information when the spectator sees otherwise,
   * with whose row it is in (`data-private-seat`): a seat's hidden information belongs in its
   * own row, so the browser tests can tell a leak from a coincidence.
   */
  private mark(element: HTMLElement, value: unknown, path: Path): HTMLElement {
    if (this.ctx.you !== null && this.spectator !== undefined && !same(value, this.public(path))) {
      // In another seat's row, what the viewer sees beyond a spectator is what every player
      // at the table sees (Black Thursday's coin suits), not the viewer's own secret.
      if (this.rowSeat !== undefined && this.rowSeat !== this.ctx.you) {
        element.classList.add("table-only");
        return element;
      }
      element.dataset.privateOwner = String(this.ctx.you);
      if (this.rowSeat !== undefined) element.dataset.privateSeat = String(this.rowSeat);
      element.classList.add("private");
      element.title = "Only you see this";
    }
    return element;
  }

  scalar(value: unknown, path: Path, key?: string): HTMLElement {
    let text: string;
    if (value === null || value === undefined) text = "—";
    else if (typeof value === "boolean") text = value ? "yes" : "no";
    else if (typeof value === "number" && key !== undefined && /seat|player|active|actor|current|winner/.test(key)) {
      text = this.ctx.names[value] ?? String(value);
    } else text = typeof value === "string" ? words(value) : String(value);
    return this.mark(h("span", { class: "value" }, text), value, path);
  }

  value(value: unknown, path: Path, key?: string): HTMLElement {
    if (Array.isArray(value)) {
      if (value.length === 0) return this.mark(h("span", { class: "value empty" }, "none"), value, path);
      if (value.every(isRecord)) return this.table(value, path, key);
      return this.mark(
        h("ul", { class: "inline" }, value.map((item, index) => h("li", {}, this.value(item, [...path, index], key)))),
        value,
        path,
      );
    }
    if (isRecord(value)) return this.record(value, path);
    return this.scalar(value, path, key);
  }

  record(value: Record<string, unknown>, path: Path): HTMLElement {
    const list = h("dl", { class: "record" });
    for (const [key, item] of Object.entries(value)) {
      if (path.length === 0 && SKIP.has(key)) continue;
      list.append(h("dt", {}, words(key)), h("dd", {}, this.value(item, [...path, key], key)));
    }
    return this.mark(list, value, path);
  }

  table(rows: Record<string, unknown>[], path: Path, key?: string): HTMLElement {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const bySeat = key === "players" || columns.includes("seat");
    const table = h(
      "table",
      {},
      h("thead", {}, h("tr", {}, bySeat ? h("th", { scope: "col" }, "player") : null, columns.map((column) => h("th", { scope: "col" }, words(column))))),
    );
    const body = h("tbody");
    rows.forEach((row, index) => {
      const seat = typeof row.seat === "number" ? row.seat : index;
      const tr = h("tr", { class: seat === this.ctx.you && bySeat ? "you" : "" });
      if (bySeat) tr.append(h("th", { scope: "row" }, this.ctx.names[seat] ?? `Seat ${seat + 1}`, this.ctx.toAct.includes(seat) ? " ▶" : ""));
      const outer = this.rowSeat;
      if (bySeat) this.rowSeat = seat;
      for (const column of columns) tr.append(h("td", {}, this.value(row[column], [...path, index, column], column)));
      this.rowSeat = outer;
      body.append(tr);
    });
    table.append(body);
    // A table wider than its column scrolls sideways: a keyboard reaches it (tabindex), and
    // assistive technology names it by its path in words.
    const name = path.filter((part) => typeof part === "string").map((part) => words(String(part))).join(", ");
    return this.mark(h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": `Table: ${name || "details"}` }, table), rows, path);
  }
}

/** Draws `view` (a seat's or a spectator's) as sections; `spectator` is the public view. */
export function renderGeneric(view: unknown, ctx: BoardContext, spectator: unknown): Element {
  const renderer = new Renderer(ctx, spectator);
  if (!isRecord(view)) return h("p", {}, "The game has not started.");
  const sections = Object.entries(view)
    .filter(([key]) => !SKIP.has(key))
    .map(([key, value]) => h("section", { class: "part" }, h("h3", {}, words(key)), renderer.value(value, [key], key)));
  return h("div", { class: "generic-board" }, sections);
}
