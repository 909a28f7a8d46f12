/**
 * Requests whose bodies are built at run time (the server is their validator), and failures
 * in words: shared by the lobby, the join page and a game's model and views.
 */
import { ApiFailure } from "./api";
import { member } from "./members";
import type { Json } from "../../typescript/src/json";

/** A failure in words, with the problem's code when the server refused. */
export function message(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** POSTs a JSON body built at run time (the server is its validator). */
export function postJson(path: string, body: Json, headers: Record<string, string>): Promise<Response> {
  return fetch(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** A refusal in words: the problem's detail and code. */
export async function problemOf(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => undefined);
  const detail = field(body, "detail") ?? field(body, "title") ?? `the server answered ${response.status}`;
  const code = field(body, "code");
  return code ? `${detail} (${code})` : detail;
}

/** A string member of a JSON object, if it has one. */
export function field(value: unknown, key: string): string | undefined {
  const found = member(value, key);
  return typeof found === "string" ? found : undefined;
}
