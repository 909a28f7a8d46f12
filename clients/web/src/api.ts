/**
 * The Beurs API, typed by the contract (src/schema.d.ts, generated from
 * openapi/openapi.json by openapi-typescript) and called with openapi-fetch. Same origin:
 * the page is served by the API it plays on.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Envelope = Schemas["GameEnvelope"];
export type LegalActions = Schemas["LegalActions"];
export type LogPage = Schemas["LogPage"];
export type Audit = Schemas["Audit"];
export type Problem = Schemas["Problem"];
export type RulesetInfo = Schemas["RulesetInfo"];
export type JsonSchema = Schemas["JsonSchema"];
export type HistoryPoint = Schemas["HistoryPoint"];
export type SubmitBody = paths["/v1/games/{id}/actions"]["post"]["requestBody"]["content"]["application/json"];
export type Action = SubmitBody["action"];

export const api = createClient<paths>({ baseUrl: location.origin });

/** A refusal or failure, in words for the page. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The failure of an answer that is not a success. */
export function failure(error: Problem | undefined, response: Response): ApiFailure {
  if (error) return new ApiFailure(error.detail ?? error.title, error.code, response.status);
  return new ApiFailure(`the server answered ${response.status}`, "unexpected", response.status);
}

export function bearer(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/**
 * Words the server is gaining (issue 34) before the contract's schema.d.ts has them: a
 * complete legal action's `label` (a short imperative button text) and a log entry's
 * `headline` (the one line that tells the move) and `details` (only the consequences the
 * headline does not say). Optional: older servers send neither, and the page falls back.
 */
export interface LegalMoveWords {
  label?: string;
}
export interface LogEntryWords {
  headline?: string;
  details?: string[];
}
export type LogEntry = LogPage["entries"][number] & LogEntryWords;
export type MyGame = Schemas["MyGame"];
export type BotKind = Schemas["BotKind"];
