/**
 * The move clock's countdown: elements carrying `data-deadline` (RFC 3339) show the time left
 * and are updated every second by one ticker for the whole page.
 */
import { h } from "./dom";

/** Time left until `deadline` in words: "4:05 left", "2 h 10 min left", "time is up". */
export function timeLeft(deadline: string, now: number = Date.now()): string {
  const ms = new Date(deadline).getTime() - now;
  if (!Number.isFinite(ms)) return "";
  if (ms <= 0) return "time is up";
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h left`;
  if (hours > 0) return `${hours} h ${minutes} min left`;
  return `${minutes}:${String(seconds % 60).padStart(2, "0")} left`;
}

/** A live countdown to `deadline`. */
export function countdown(deadline: string): HTMLElement {
  return h("span", { class: "countdown", "data-deadline": deadline, "data-testid": "countdown" }, timeLeft(deadline));
}

let ticking = false;

/** Starts the page's ticker (once). */
export function startTicker(): void {
  if (ticking) return;
  ticking = true;
  setInterval(() => {
    const now = Date.now();
    for (const element of document.querySelectorAll<HTMLElement>("[data-deadline]")) {
      const deadline = element.dataset.deadline;
      if (deadline) element.textContent = timeLeft(deadline, now);
    }
  }, 1000);
}

/** A length of time in words: "6 d 23 h", "2 h 5 min", "4 min 10 s". */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min ${seconds % 60} s`;
}
