/**
 * The log, one line per entry (a headline, its consequences in smaller type beneath), read a
 * page at a time after the last entry shown. Entries since this seat's last move are marked:
 * what happened while you were away.
 */
import { h } from "../dom";
import type { GameModel, LogLine } from "../game-model";

export interface LogView {
  element: HTMLElement;
  /** The entries, oldest first: each an `li` with its `data-seq`. */
  list: HTMLOListElement;
  /** Adds the entries after those shown. */
  render(model: GameModel): Promise<void>;
}

export function logView(): LogView {
  // The log scrolls on its own: a keyboard reaches it (tabindex), named by its section.
  const list = h("ol", { class: "log", tabindex: 0, "aria-label": "The log, oldest first" });
  const element = h("section", { class: "log-section", "data-testid": "log", "aria-live": "polite", "aria-label": "What happened" }, h("h2", {}, "What happened"), list);
  const append = (lines: LogLine[]): void => {
    for (const line of lines) {
      const { seat, note, said, group } = line;
      list.append(
        h(
          "li",
          { class: note ? "entry note" : seat === null ? "entry setup" : "entry", "data-seq": line.seq, "data-seat": seat ?? "", "data-group": group },
          h("span", { class: "headline" }, said.headline),
          said.details.length ? h("ul", { class: "details" }, said.details.map((detail) => h("li", {}, detail))) : null,
        ),
      );
      // A move taken back stays in the log, struck through.
      if (line.undoes !== undefined) {
        const item = list.querySelector<HTMLElement>(`li[data-seq="${line.undoes}"]`);
        item?.classList.add("undone");
        if (item) item.title = "Taken back";
      }
    }
  };
  const render = async (model: GameModel): Promise<void> => {
    if (!(await model.readLog(append))) return;
    for (const item of list.children) {
      if (item instanceof HTMLElement) item.classList.toggle("since", model.lastOwnSeq >= 0 && Number(item.dataset.seq) > model.lastOwnSeq);
    }
    list.scrollTop = list.scrollHeight;
  };
  return { element, list, render };
}
