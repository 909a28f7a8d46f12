/**
 * One line per log entry: the server's `headline` and `details` when it sends them, else the
 * same shape made from the older fields, so that no move is told twice.
 */
import type { LogEntry } from "./api";

export interface EntryWords {
  /** The one line that tells the move. */
  headline: string;
  /** Only the consequences the headline does not say. */
  details: string[];
}

const said = (line: unknown): line is string => typeof line === "string" && line.trim() !== "";

/** The entry in words; `who` is the acting seat's player name. */
export function entryWords(entry: LogEntry, who: string): EntryWords {
  if (said(entry.headline)) {
    const headline = entry.headline;
    return { headline, details: (entry.details ?? []).filter(said).filter((line) => line !== headline) };
  }
  const events = entry.event_texts.filter(said);
  const seated = typeof entry.seat === "number";
  const line = said(entry.action_text) ? entry.action_text : events[0] ?? (seated ? `${who} made a sealed move.` : "The game was set up.");
  const details = events.filter((event) => event !== line);
  // Who chose the move when the player did not: older servers' sentences do not say it.
  if (entry.by === "clock") return { headline: `Time ran out for ${who}: ${line}`, details };
  if (entry.by === "bot" && seated) return { headline: `${line} (bot)`, details };
  return { headline: line, details };
}

/**
 * The turn or round an entry announces ("Turn 2: Ben plays with 4 dice.", "Round 3 opened…",
 * "Ben's turn began (turn 4)."), in words for a heading above the entries that follow it.
 */
export function announcedGroup(said: EntryWords): string | undefined {
  let found: string | undefined;
  for (const line of [said.headline, ...said.details]) {
    for (const match of line.matchAll(/\b(round|turn) (\d+)\b/gi)) {
      found = `${(match[1] ?? "").charAt(0).toUpperCase()}${(match[1] ?? "").slice(1).toLowerCase()} ${match[2]}`;
    }
  }
  return found;
}
