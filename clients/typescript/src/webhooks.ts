/**
 * A webhook receiver's first step, typed by the contract's top-level `webhooks` section: a raw
 * body is parsed, narrowed to the union of every notification body the contract lists by Ajv
 * guards compiled from `webhooks.<type>.post.requestBody` (no cast), then told apart by `type`
 * and by `data.ruleset`. The union and the guards are built from the section's keys, and both
 * switches end in a `never` check, so a notification type or a ruleset the contract adds and
 * this code does not handle is a compile error. (Signatures, the `webhook-signature` header,
 * are a separate concern and not checked here.)
 */
import type { ValidateFunction } from "ajv";
import type { Contract, WebhookBody } from "./contract.js";
import { isObject } from "./json.js";
import type { webhooks } from "./schema.js";

/** Every notification type of the contract. */
export type NotificationType = keyof webhooks;
export type TurnNotification = WebhookBody<"turn">;
/** Any notification the contract lists. */
export type Notification = { [K in NotificationType]: WebhookBody<K> }[NotificationType];

export type Received = { ok: true; notification: Notification; summary: string } | { ok: false; reason: string };

/** One guard per notification type: a type the contract adds and this map lacks does not compile. */
type Guards = { [K in NotificationType]: ValidateFunction<WebhookBody<K>> };

/** Builds a receiver from the contract: `receive(raw)` parses, checks and describes a body. */
export function webhookReceiver(contract: Contract): (raw: string) => Received {
  const guards: Guards = {
    turn: contract.webhookBody("turn"),
    action: contract.webhookBody("action"),
    finished: contract.webhookBody("finished"),
    reminder: contract.webhookBody("reminder"),
    timeout: contract.webhookBody("timeout"),
  };
  const isType = (type: unknown): type is NotificationType => typeof type === "string" && Object.hasOwn(guards, type);
  return (raw) => {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      return { ok: false, reason: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
    const type = isObject(body) ? body["type"] : undefined;
    if (!isType(type)) return { ok: false, reason: `type ${String(type)} names no webhook of the contract` };
    const notification = narrow(guards, type, body);
    if (notification !== undefined) return { ok: true, notification, summary: describe(notification) };
    // Why not: one line per distinct error of the guard the body's `type` names (each branch
    // of a `oneOf` by ruleset reports its own).
    const reasons = (guards[type].errors ?? []).map((e) => contract.ajv.errorsText([e], { dataVar: "body" }));
    return { ok: false, reason: [...new Set(reasons)].join("; ") };
  };
}

/** `body` as the notification of type `type`, if its guard accepts it. */
function narrow<K extends NotificationType>(guards: Guards, type: K, body: unknown): WebhookBody<K> | undefined {
  const guard: ValidateFunction<WebhookBody<K>> = guards[type];
  return guard(body) ? body : undefined;
}

function describe(n: Notification): string {
  switch (n.type) {
    case "turn":
      return `turn: seat ${String(n.data.seat)} of ${n.data.game_id} is waited on at version ${String(n.data.version)}; ${viewNote(n.data)}`;
    case "action":
      return `action: seq ${String(n.data.seq)} by seat ${String(n.data.seat)} in ${n.data.game_id}, ${String(n.data.events.length)} events, game ${n.data.status}`;
    case "finished":
      return `finished: ${n.data.game_id} ended by ${n.data.outcome.reason}, winners ${n.data.outcome.winners.join(",")}; ${viewNote(n.data)}`;
    case "reminder":
      return `reminder: seat ${String(n.data.seat)} of ${n.data.game_id}, deadline ${n.data.deadline}`;
    case "timeout":
      return `timeout: seat ${String(n.data.seat)} of ${n.data.game_id}, ${n.data.policy}`;
    default: {
      const unhandled: never = n;
      return unhandled;
    }
  }
}

/** One field of the game's own view, after narrowing by `ruleset`. */
function viewNote(data: TurnNotification["data"] | WebhookBody<"finished">["data"]): string {
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
