/**
 * Forms generated from the JSON Schemas of legal-action families and of a ruleset's options.
 * The generator knows the keywords the contract's `JsonSchema` component lists, nothing about
 * the games: a `const` is fixed, an integer is a number input with its bounds, an `enum` a
 * select, a boolean a checkbox, an array of enumerated items a group of checkboxes, an object
 * whose property names are enumerated (a map, maybe with `x-sum-of-values`) one number input
 * per name, an object with properties a fieldset. Anything else is a JSON text area. Every
 * field starts from a valid sample (clients/typescript's generic sampler), so "Play" works
 * as it stands and a person changes what they want.
 */
import type { JsonSchema } from "./api";
import { h } from "./dom";
import { isJson, type Json } from "../../typescript/src/json";
import { Rng } from "../../typescript/src/rng";
import { Sampler, SUM_KEYWORD } from "../../typescript/src/sample";

type SchemaObject = Exclude<JsonSchema, boolean>;

/** A form field: its element and how to read its value back. */
interface Field {
  element: HTMLElement;
  read(): Json | undefined;
}

let fieldCounter = 0;
function fieldId(): string {
  fieldCounter += 1;
  return `field-${fieldCounter}`;
}

function labelled(label: string, input: HTMLElement & { id: string }, hint?: string): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, hint ? h("small", {}, hint) : null);
}

/** Human words for a property name: `first_player` → "first player". */
export function words(name: string): string {
  return name.replace(/_/g, " ");
}

function enumOf(schema: SchemaObject): Json[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.filter(isJson);
  return undefined;
}

function integerBounds(schema: SchemaObject): { min?: number; max?: number } | undefined {
  if (schema.type === "integer" || schema.type === "number") {
    return { min: schema.minimum ?? undefined, max: schema.maximum ?? undefined };
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    let min = Infinity;
    let max = -Infinity;
    for (const branch of branches) {
      if (typeof branch === "boolean" || (branch.type !== "integer" && branch.type !== "number")) return undefined;
      min = Math.min(min, branch.minimum ?? -Infinity);
      max = Math.max(max, branch.maximum ?? Infinity);
    }
    return { min: Number.isFinite(min) ? min : undefined, max: Number.isFinite(max) ? max : undefined };
  }
  return undefined;
}

function display(value: Json): string {
  return typeof value === "string" ? words(value) : JSON.stringify(value);
}

/** The field for `schema`, starting at `initial`. */
function field(name: string, schema: JsonSchema, initial: Json | undefined): Field {
  if (typeof schema === "boolean") return jsonField(name, initial);
  if (schema.const !== undefined && isJson(schema.const)) {
    const value: Json = schema.const;
    return { element: h("span", { hidden: true }), read: () => value };
  }
  const choices = enumOf(schema);
  if (choices) {
    const select = h("select", { id: fieldId(), name });
    choices.forEach((choice, index) => {
      select.append(h("option", { value: String(index), selected: JSON.stringify(choice) === JSON.stringify(initial) }, display(choice)));
    });
    return { element: labelled(words(name), select), read: () => choices[Number(select.value)] };
  }
  const bounds = integerBounds(schema);
  if (bounds) {
    const input = h("input", {
      id: fieldId(),
      name,
      type: "number",
      inputmode: "numeric",
      step: 1,
      min: bounds.min,
      max: bounds.max,
      value: typeof initial === "number" ? initial : bounds.min ?? 0,
      required: true,
    });
    const hint = bounds.min !== undefined && bounds.max !== undefined ? `${bounds.min} to ${bounds.max}` : undefined;
    return { element: labelled(words(name), input, hint), read: () => (input.value === "" ? undefined : Number(input.value)) };
  }
  if (schema.type === "boolean") {
    const input = h("input", { id: fieldId(), name, type: "checkbox", checked: initial === true });
    return { element: labelled(words(name), input), read: () => input.checked };
  }
  if (schema.type === "array" && schema.items && typeof schema.items !== "boolean") {
    const items = enumOf(schema.items);
    if (items && schema.uniqueItems) return checkboxes(name, schema, items, initial);
  }
  if (schema.type === "object") {
    const names = schema.propertyNames && typeof schema.propertyNames !== "boolean" ? enumOf(schema.propertyNames) : undefined;
    if (names && !schema.properties) return mapField(name, schema, names, initial);
    if (schema.properties) return objectField(name, schema, initial);
  }
  return jsonField(name, initial);
}

function checkboxes(name: string, schema: SchemaObject, items: Json[], initial: Json | undefined): Field {
  const chosen = Array.isArray(initial) ? initial.map((item) => JSON.stringify(item)) : [];
  const boxes = items.map((item) => {
    const input = h("input", { id: fieldId(), type: "checkbox", name, checked: chosen.includes(JSON.stringify(item)) });
    return { item, input };
  });
  const counts =
    schema.minItems !== undefined && schema.maxItems !== undefined
      ? schema.minItems === schema.maxItems
        ? `choose ${schema.minItems}`
        : `choose ${schema.minItems} to ${schema.maxItems}`
      : undefined;
  const element = h(
    "fieldset",
    { class: "choices" },
    h("legend", {}, words(name), counts ? ` (${counts})` : ""),
    boxes.map(({ item, input }) => h("label", { class: "choice" }, input, " ", display(item))),
  );
  return { element, read: () => boxes.filter(({ input }) => input.checked).map(({ item }) => item) };
}

function mapField(name: string, schema: SchemaObject, names: Json[], initial: Json | undefined): Field {
  const start = initial !== null && typeof initial === "object" && !Array.isArray(initial) ? initial : {};
  const valueSchema = schema.additionalProperties;
  const bounds = valueSchema && typeof valueSchema !== "boolean" ? integerBounds(valueSchema) : undefined;
  const inputs = names.map((key) => {
    const keyText = String(key);
    const value = start[keyText];
    const input = h("input", {
      id: fieldId(),
      name: `${name}.${keyText}`,
      type: "number",
      inputmode: "numeric",
      step: 1,
      min: bounds?.min,
      max: bounds?.max,
      value: typeof value === "number" ? value : "",
      placeholder: "0",
    });
    return { key: keyText, input };
  });
  const sum = schema[SUM_KEYWORD];
  const element = h(
    "fieldset",
    { class: "map" },
    h("legend", {}, words(name), typeof sum === "number" ? ` (must add up to ${sum})` : ""),
    inputs.map(({ key, input }) => labelled(display(key), input)),
  );
  return {
    element,
    read: () => {
      const out: { [key: string]: Json } = {};
      for (const { key, input } of inputs) {
        if (input.value !== "" && Number(input.value) !== 0) out[key] = Number(input.value);
      }
      return out;
    },
  };
}

function objectField(name: string, schema: SchemaObject, initial: Json | undefined): Field {
  const start = initial !== null && typeof initial === "object" && !Array.isArray(initial) ? initial : {};
  const fields = Object.entries(schema.properties ?? {}).map(([key, sub]) => ({ key, field: field(key, sub, start[key]) }));
  const element = h("fieldset", { class: "object" }, name ? h("legend", {}, words(name)) : null, fields.map(({ field }) => field.element));
  return {
    element,
    read: () => {
      const out: { [key: string]: Json } = {};
      for (const { key, field } of fields) {
        const value = field.read();
        if (value !== undefined) out[key] = value;
      }
      return out;
    },
  };
}

function jsonField(name: string, initial: Json | undefined): Field {
  const area = h("textarea", { id: fieldId(), name, rows: 4, spellcheck: false }, JSON.stringify(initial ?? null, null, 1));
  return {
    element: labelled(`${words(name)} (JSON)`, area),
    read: () => {
      const parsed: unknown = JSON.parse(area.value);
      return isJson(parsed) ? parsed : undefined;
    },
  };
}

/** A valid random instance of `schema`, or undefined when the sampler cannot make one. */
export function sample(schema: JsonSchema, seed: number): Json | undefined {
  try {
    return new Sampler(new Rng(seed), schema).sample();
  } catch {
    return undefined;
  }
}

/** A form body for `schema`: its fields and how to read the value they describe. */
export function schemaFields(schema: JsonSchema, initial: Json | undefined): Field {
  return field("", schema, initial);
}
