/**
 * A webhook receiver's first step, typed by the contract's top-level `webhooks` section: a raw
 * body is parsed, narrowed to the union of the three notification bodies by Ajv guards
 * compiled from `webhooks.<type>.post.requestBody` (no cast), then told apart by `type` and by
 * `data.ruleset`. Both switches end in a `never` check, so a notification type or a ruleset
 * the contract adds and this code does not handle is a compile error. (Signatures, the
 * `webhook-signature` header, are a separate concern and not checked here.)
 */
import type { Contract, WebhookBody } from "./contract.js";
import { isObject } from "./json.js";

export type TurnNotification = WebhookBody<"turn">;
export type ActionNotification = WebhookBody<"action">;
export type FinishedNotification = WebhookBody<"finished">;
export type Notification = TurnNotification | ActionNotification | FinishedNotification;

export type Received = { ok: true; notification: Notification; summary: string } | { ok: false; reason: string };

/** Builds a receiver from the contract: `receive(raw)` parses, checks and describes a body. */
export function webhookReceiver(contract: Contract): (raw: string) => Received {
  const isTurn = contract.webhookBody<TurnNotification>("turn");
  const isAction = contract.webhookBody<ActionNotification>("action");
  const isFinished = contract.webhookBody<FinishedNotification>("finished");
  return (raw) => {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      return { ok: false, reason: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (isTurn(body) || isAction(body) || isFinished(body)) return { ok: true, notification: body, summary: describe(body) };
    // Why not: the errors of the guard the body's `type` names, if any.
    const type = isObject(body) ? body["type"] : undefined;
    const guard = type === "turn" ? isTurn : type === "action" ? isAction : type === "finished" ? isFinished : undefined;
    if (guard === undefined) return { ok: false, reason: `type ${String(type)} names no webhook of the contract` };
    // One line per distinct error (each branch of a `oneOf` by ruleset reports its own).
    const reasons = (guard.errors ?? []).map((e) => contract.ajv.errorsText([e], { dataVar: "body" }));
    return { ok: false, reason: [...new Set(reasons)].join("; ") };
  };
}

function describe(n: Notification): string {
  switch (n.type) {
    case "turn":
      return `turn: seat ${String(n.data.seat)} of ${n.data.game_id} is waited on at version ${String(n.data.version)}; ${viewNote(n.data)}`;
    case "action":
      return `action: seq ${String(n.data.seq)} by seat ${String(n.data.seat)} in ${n.data.game_id}, ${String(n.data.events.length)} events, game ${n.data.status}`;
    case "finished":
      return `finished: ${n.data.game_id} ended by ${n.data.outcome.reason}, winners ${n.data.outcome.winners.join(",")}; ${viewNote(n.data)}`;
    default: {
      const unhandled: never = n;
      return unhandled;
    }
  }
}

/** One field of the game's own view, after narrowing by `ruleset`. */
function viewNote(data: TurnNotification["data"] | FinishedNotification["data"]): string {
  switch (data.ruleset) {
    case "tulipmania-1637":
      return `tulipmania turn ${String(data.view.turn_number)}`;
    case "tulip-bubble":
      return `tulip-bubble round ${String(data.view.round)}`;
    case "tulip-traders":
      return `tulip-traders round ${String(data.view.round)}`;
    case "tulpenfieber":
      return `tulpenfieber turn ${String(data.view.turn_number)}`;
    case "black-thursday":
      return `black-thursday, ${String(data.view.promises.length)} promises`;
    default: {
      const unhandled: never = data;
      return unhandled;
    }
  }
}
