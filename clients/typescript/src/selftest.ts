/**
 * The sampler against schemas shaped like the legal-action entries, including ones the
 * contract does not use yet (`x-sum-of-values`, `required`, `additionalProperties: false`).
 * Each sample must validate (Ajv, with the same extension keyword as play.ts).
 */
import { Contract, loadDocument } from "./contract.js";
import { Rng } from "./rng.js";
import { Sampler } from "./sample.js";

const cases: { name: string; schema: { [key: string]: unknown } }[] = [
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
        $refd: { $ref: "#/$defs/amount" },
      },
      $defs: { amount: { type: "integer", exclusiveMinimum: 0, maximum: 5 } },
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
if (failed > 0) process.exitCode = 1;
