/**
 * Checks that need no server:
 *
 * - the sampler against schemas shaped like the legal-action entries (`x-sum-of-values`,
 *   `required`, `additionalProperties: false`, `oneOf`, `uniqueItems`, …), typed as the
 *   contract's `JsonSchema`: each sample must validate (Ajv, with the same extension keyword
 *   as play.ts);
 * - the webhook receiver (src/webhooks.ts) on hand-written bodies: a turn notification typed
 *   by the contract (so the compiler checks it too) must be accepted and described, and
 *   broken ones must be rejected.
 */
import { Contract, loadDocument } from "./contract.js";
import { Rng } from "./rng.js";
import { type JsonSchema, Sampler } from "./sample.js";
import { type TurnNotification, webhookReceiver } from "./webhooks.js";

const cases: { name: string; schema: JsonSchema }[] = [
  {
    name: "place_investment with x-sum-of-values",
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["type", "alloc"],
      properties: {
        type: { const: "place_investment" },
        alloc: {
          type: "object",
          "x-sum-of-values": 3,
          minProperties: 1,
          propertyNames: { enum: ["M:S-Y", "M:D-PkPu", "M:S-O", "M:L-O", "M:L-Pk", "M:D-Pk"] },
          additionalProperties: { type: "integer", minimum: 1, maximum: 3 },
        },
      },
    },
  },
  {
    name: "x-sum-of-values with zero allowed and maxProperties",
    schema: {
      type: "object",
      "x-sum-of-values": 17,
      maxProperties: 3,
      propertyNames: { enum: ["a", "b", "c", "d", "e"] },
      additionalProperties: { type: "integer", minimum: 0, maximum: 9 },
    },
  },
  {
    name: "unique items from an enum, oneOf terms, anyOf integers, nullable",
    schema: {
      type: "object",
      additionalProperties: false,
      required: ["dice", "terms", "declared", "note"],
      properties: {
        dice: { type: "array", items: { enum: [0, 1, 2, 3] }, minItems: 1, maxItems: 4, uniqueItems: true },
        terms: {
          type: "array",
          maxItems: 2,
          items: {
            oneOf: [
              { type: "object", required: ["kind", "to"], additionalProperties: false, properties: { kind: { const: "coins" }, to: { enum: [0, 2] } } },
              { type: "object", required: ["kind"], additionalProperties: false, properties: { kind: { const: "reveal" }, ok: { type: "boolean" } } },
            ],
          },
        },
        declared: { anyOf: [{ type: "integer", minimum: 1, maximum: 16 }, { type: "integer", minimum: 1, maximum: 1000000 }] },
        note: { type: ["string", "null"], enum: ["x", null] },
        name: { type: "string", minLength: 2, maxLength: 4 },
        amount: { allOf: [{ type: "integer", minimum: 1 }, { type: "integer", maximum: 5 }] },
        anything: true,
      },
    },
  },
];

const contract = new Contract(loadDocument(process.env["BEURS_OPENAPI"]));
const rng = new Rng(Number(process.env["BEURS_PLAY_SEED"] ?? "1637"));
let failed = 0;
for (const { name, schema } of cases) {
  const validate = contract.entrySchema(schema);
  const sampler = new Sampler(rng, schema);
  let bad = 0;
  for (let i = 0; i < 500; i++) {
    const value = sampler.sample();
    if (!validate(value)) {
      bad++;
      if (bad <= 3) console.log(`  ${name}: ${JSON.stringify(value)}: ${contract.ajv.errorsText(validate.errors)}`);
    }
  }
  console.log(`sampler ${name}: ${String(500 - bad)}/500 valid`);
  if (bad > 0) failed++;
}

// A turn notification as the contract types it, for a real ruleset id (the literal is checked
// against the contract's `tulpenfieber.TurnData` by the compiler).
const turn: TurnNotification = {
  type: "turn",
  timestamp: "2026-01-02T03:04:05Z",
  data: {
    ruleset: "tulpenfieber",
    game_id: "g_selftest",
    seat: 0,
    seq: 3,
    version: 4,
    to_act: [0],
    waiting_on: [0],
    view: {
      players: [],
      active: 0,
      phase: { phase: "await_first_roll" },
      turn: { dice: [], roll_number: 0, rolls_bought: 0, bonus_claims: 0 },
      legal_spaces: [],
      bonus_supply: 4,
      turn_number: 1,
    },
  },
};
const receive = webhookReceiver(contract);
const bodies: { name: string; raw: string; valid: boolean }[] = [
  { name: "a tulpenfieber turn notification", raw: JSON.stringify(turn), valid: true },
  { name: "the same with an unknown ruleset", raw: JSON.stringify({ ...turn, data: { ...turn.data, ruleset: "chess" } }), valid: false },
  { name: "the same without its view", raw: JSON.stringify({ ...turn, data: { ...turn.data, view: undefined } }), valid: false },
  { name: "a body that is not JSON", raw: '{"type": "turn"', valid: false },
];
for (const { name, raw, valid } of bodies) {
  const received = receive(raw);
  const ok = received.ok === valid;
  console.log(`webhook ${name}: ${received.ok ? `accepted (${received.summary})` : `rejected (${received.reason})`}${ok ? "" : " — WRONG"}`);
  if (!ok) failed++;
}
if (failed > 0) process.exitCode = 1;
