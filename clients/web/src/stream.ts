/**
 * Following a game by its Server-Sent Events stream (`GET /v1/games/{id}/events`, docs/api.md
 * "Streams"). Read with `fetch`, not `EventSource`: a seat's stream needs its token in the
 * `Authorization` header, which `EventSource` cannot send, and tokens never go in URLs.
 */
import { bearer } from "./api";

/** One event of a stream: the fields of one block (comments, the heartbeats, are skipped). */
export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

/**
 * How a stream ended: the server closed it (reconnect after `retry` milliseconds, its last
 * hint), or it could not be read (fall back).
 */
export type StreamEnd = { kind: "ended"; retry: number } | { kind: "refused"; status: number } | { kind: "failed" };

/**
 * Reads the stream of game `id` as `token`'s reader, resuming after `lastId`, and hands each
 * event to `onEvent` in order. Returns when the server ends the stream, when it cannot be
 * read, or when `alive()` turns false (checked at every chunk, heartbeats included).
 */
export async function followStream(
  id: string,
  token: string | undefined,
  lastId: string | undefined,
  onEvent: (event: StreamEvent) => Promise<void>,
  alive: () => boolean,
): Promise<StreamEnd> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...bearer(token) };
  if (lastId) headers["last-event-id"] = lastId;
  let response: Response;
  try {
    response = await fetch(`/v1/games/${encodeURIComponent(id)}/events`, { headers, signal: abort.signal, cache: "no-store" });
  } catch {
    return { kind: "failed" };
  }
  if (!response.ok) return { kind: "refused", status: response.status };
  if (!response.body || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return { kind: "failed" };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let retry = 1000;
  try {
    for (;;) {
      if (!alive()) {
        abort.abort();
        return { kind: "ended", retry };
      }
      const { value, done } = await reader.read();
      if (done) return { kind: "ended", retry };
      buffer += value.replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (event?.retry !== undefined) retry = event.retry;
        if (event && alive()) await onEvent(event);
      }
    }
  } catch {
    return { kind: "failed" };
  }
}

/** The event of one block, or undefined if it holds no field (a heartbeat). */
function parseBlock(block: string): StreamEvent | undefined {
  const event: StreamEvent = { event: "message", data: "" };
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    fields += 1;
    if (name === "event") event.event = value;
    else if (name === "data") data.push(value);
    else if (name === "id") event.id = value;
    else if (name === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
  }
  if (fields === 0) return undefined;
  event.data = data.join("\n");
  return event;
}
