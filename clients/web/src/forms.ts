/**
 * Forms generated from the JSON Schemas of legal-action families and of a ruleset's options.
 * The generator knows the keywords the contract's `JsonSchema` component lists, nothing about
 * the games: a `const` is fixed, an integer is a number input with its bounds shown beside
 * it, an `enum` a select, a boolean a checkbox, an array of enumerated items a group of
 * checkboxes, an array of numbers or strings a comma-separated list, an array of objects a
 * list of rows to add and remove, a `oneOf` a choice of its branches, an object whose property
 * names are enumerated (a map, maybe with `x-sum-of-values`) one number input per name, an
 * object with properties a fieldset. Only what none of these fits is a JSON text area.
 *
 * Nothing is filled in at random: a field starts at the schema's `default`, else an integer
 * at its minimum, else empty (nothing chosen), so that "Play" never makes a move the player
 * did not pick. Titles are the schema's `title`, else the property name in words; a value
 * that names a seat shows the player's name, a die its place counted from 1.
 */
import type { JsonSchema } from "./api";
import { h } from "./dom";
import { isJson, type Json } from "../../typescript/src/json";
import { SUM_KEYWORD } from "../../typescript/src/sample";

type SchemaObject = Exclude<JsonSchema, boolean>;

/** A form field: its element and how to read its value back (throws when it is incomplete). */
export interface Field {
  element: HTMLElement;
  read(): Json | undefined;
}

/** What a form needs to say values in words: each seat's player name, by seat. */
export interface FormContext {
  names: string[];
  /** Words for codes the view explains (a coin's handle → "h1 (suns, 4)"), by code. */
  labels?: Map<string, string>;
}

/**
 * Words for the codes a view explains: every object in it with a `handle` is described by its
 * other plain fields, so a form offers "h1 (suns, 4)" rather than a bare "h1".
 */
export function viewLabels(view: unknown): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) {
      const record = Object.entries(value);
      const handle = record.find(([key]) => key === "handle")?.[1];
      if (typeof handle === "string") {
        const rest = record.filter(([key, item]) => key !== "handle" && (typeof item === "string" || typeof item === "number")).map(([, item]) => words(String(item)));
        if (rest.length > 0 && !labels.has(handle)) labels.set(handle, `${handle} (${rest.join(", ")})`);
      }
      record.forEach(([, item]) => visit(item));
    }
  };
  visit(view);
  return labels;
}

let fieldCounter = 0;
function fieldId(): string {
  fieldCounter += 1;
  return `field-${fieldCounter}`;
}

function labelled(label: string, input: HTMLElement & { id: string }, hint?: string): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, hint ? h("small", { class: "hint" }, hint) : null);
}

/** Human words for a property name: `first_player` → "first player". */
export function words(name: string): string {
  return name.replace(/_/g, " ");
}

/** A title in words, capitalised: `first_player` → "First player". */
export function humanise(name: string): string {
  const text = words(name).trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A family's label without the action's internal name: "auction_bid: bid from 16 to 1000000
 * fl" → "Bid from 16 to 1,000,000 fl".
 */
export function familyTitle(label: string): string {
  const bare = label.replace(/^[a-z0-9]+(?:_[a-z0-9]+)*:\s*/, "").replace(/\b\d{5,}\b/g, (digits) => Number(digits).toLocaleString("en"));
  return humanise(bare);
}

function titleOf(schema: JsonSchema, name: string): string {
  if (typeof schema !== "boolean" && typeof schema.title === "string" && schema.title.trim() !== "") return schema.title;
  return humanise(name);
}

/** Names of properties whose integers are seats (player names shown). */
const SEAT_NAME = /^(?:(?:first|start|starting|current|active)_)?(?:seat|player)$|_seat$|^(?:buyer|seller|giver|receiver|from|to|about|target|owner|whom|promisor|promisee)$/i;
/** Names of properties whose integers are dice, counted from 0 (shown from 1). */
const DIE_NAME = /^dice?$/i;

/** A value in words, for an option or a checkbox: never JSON. */
function display(value: Json, name: string, ctx: FormContext): string {
  if (value === null) return "none";
  if (typeof value === "number" && Number.isInteger(value)) {
    if (SEAT_NAME.test(name)) return ctx.names[value] ?? `Player ${value + 1}`;
    if (DIE_NAME.test(name)) return `Die ${value + 1}`;
    return String(value);
  }
  if (typeof value === "string") return ctx.labels?.get(value) ?? words(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map((item) => display(item, name, ctx)).join(", ");
  return Object.entries(value)
    .map(([key, item]) => `${words(key)} ${display(item, key, ctx)}`)
    .join(", ");
}

/** Each `enum` value's words when the schema gives them (`x-enum-labels`), by its JSON. */
function enumWords(schema: SchemaObject): Map<string, string> {
  const values = Array.isArray(schema.enum) ? schema.enum : [];
  const labels: unknown = schema["x-enum-labels"];
  const words = new Map<string, string>();
  if (Array.isArray(labels)) values.forEach((value, index) => typeof labels[index] === "string" && words.set(JSON.stringify(value), labels[index]));
  return words;
}

function enumOf(schema: SchemaObject): Json[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.filter(isJson);
  return undefined;
}

function types(schema: SchemaObject): string[] {
  const type: unknown = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

function isInteger(schema: SchemaObject): boolean {
  const list = types(schema);
  return list.includes("integer") || list.includes("number");
}

/** Bounds of an integer schema (or of a union of integer ranges), with whether null is allowed. */
function integerBounds(schema: SchemaObject): { min?: number; max?: number; nullable: boolean } | undefined {
  if (isInteger(schema)) {
    return { min: schema.minimum ?? undefined, max: schema.maximum ?? undefined, nullable: types(schema).includes("null") };
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    let min = Infinity;
    let max = -Infinity;
    let nullable = false;
    let numbers = 0;
    for (const branch of branches) {
      if (typeof branch === "boolean") return undefined;
      if (types(branch).length === 1 && types(branch)[0] === "null") {
        nullable = true;
        continue;
      }
      if (!isInteger(branch)) return undefined;
      numbers += 1;
      min = Math.min(min, branch.minimum ?? -Infinity);
      max = Math.max(max, branch.maximum ?? Infinity);
    }
    if (numbers === 0) return undefined;
    return { min: Number.isFinite(min) ? min : undefined, max: Number.isFinite(max) ? max : undefined, nullable };
  }
  return undefined;
}

/** A bound worth showing: technical limits of 64-bit integers are not a player's range. */
function shown(bound: number | undefined): number | undefined {
  return bound !== undefined && Math.abs(bound) < 2 ** 31 ? bound : undefined;
}

const number = (value: number): string => value.toLocaleString("en");

/** A `<select>` of labelled values; the first option is "Choose…" unless one is preselected. */
function selectField(title: string, name: string, choices: { label: string; value: Json }[], initial: Json | undefined): Field {
  const select = h("select", { id: fieldId(), name, required: true });
  const start = choices.findIndex((choice) => JSON.stringify(choice.value) === JSON.stringify(initial));
  // A single choice is no choice: it is selected, never a random pick among several.
  const chosen = start >= 0 ? start : choices.length === 1 ? 0 : -1;
  if (chosen < 0) select.append(h("option", { value: "", selected: true, disabled: true }, "Choose…"));
  choices.forEach((choice, index) => select.append(h("option", { value: String(index), selected: index === chosen }, choice.label)));
  return {
    element: labelled(title, select),
    read: () => {
      if (select.value === "") throw new Error(`choose ${title.toLowerCase()}`);
      return choices[Number(select.value)]?.value;
    },
  };
}

/** The field for `schema`, starting at `initial` (or the schema's default). */
function field(name: string, schema: JsonSchema, initial: Json | undefined, ctx: FormContext): Field {
  if (typeof schema === "boolean") return jsonField(name, initial);
  if (schema.const !== undefined && isJson(schema.const)) {
    const value: Json = schema.const;
    return { element: h("span", { hidden: true }), read: () => value };
  }
  const start = initial !== undefined ? initial : isJson(schema.default) ? schema.default : undefined;
  const title = titleOf(schema, name);
  const choices = enumOf(schema);
  const said = enumWords(schema);
  if (choices) return selectField(title, name, choices.map((value) => ({ label: said.get(JSON.stringify(value)) ?? display(value, name, ctx), value })), start);
  const bounds = integerBounds(schema);
  if (bounds) return integerField(title, name, bounds, start, ctx);
  if (types(schema).includes("boolean")) {
    const input = h("input", { id: fieldId(), name, type: "checkbox", checked: start === true });
    return { element: labelled(title, input), read: () => input.checked };
  }
  if (types(schema).includes("array") && schema.items && typeof schema.items !== "boolean") {
    const items = enumOf(schema.items);
    if (items && schema.uniqueItems) return checkboxes(title, name, schema, items, start, ctx);
    if (isInteger(schema.items) || types(schema.items).includes("string")) return listField(title, name, schema.items, start);
    if (types(schema.items).includes("object") || unionBranches(schema.items)) return rowsField(title, name, schema, schema.items, start, ctx);
  }
  if (types(schema).includes("object")) {
    const names = schema.propertyNames && typeof schema.propertyNames !== "boolean" ? enumOf(schema.propertyNames) : undefined;
    if (names && !schema.properties) return mapField(title, name, schema, names, start, ctx);
    if (schema.properties) return objectField(title, name, schema, start, ctx);
  }
  if (unionBranches(schema)) return unionField(title, name, schema, start, ctx);
  if (types(schema).includes("string")) return textField(title, name, schema, start);
  return jsonField(name, start);
}

function integerField(title: string, name: string, bounds: { min?: number; max?: number; nullable: boolean }, start: Json | undefined, ctx: FormContext): Field {
  // A seat (a player to choose, or "random" when null is allowed): the players by name.
  if (SEAT_NAME.test(name) && ctx.names.length > 0) {
    const seats = ctx.names.map((player, seat) => ({ label: player, value: seat })).filter(({ value }) => (bounds.min ?? 0) <= value && value <= (bounds.max ?? Infinity));
    const choices: { label: string; value: Json }[] = bounds.nullable ? [{ label: "Random", value: null }, ...seats] : seats;
    return selectField(title, name, choices, start === undefined && bounds.nullable ? null : start);
  }
  const min = shown(bounds.min);
  const max = shown(bounds.max);
  const value = typeof start === "number" ? start : start === null && bounds.nullable ? "" : (min ?? (bounds.nullable ? "" : 0));
  const input = h("input", {
    id: fieldId(),
    name,
    type: "number",
    inputmode: "numeric",
    step: 1,
    min,
    max,
    value,
    required: !bounds.nullable,
    placeholder: bounds.nullable ? "none" : undefined,
  });
  const hint =
    min !== undefined && max !== undefined ? `${number(min)} to ${number(max)}` : min !== undefined ? `at least ${number(min)}` : max !== undefined ? `at most ${number(max)}` : undefined;
  return {
    element: labelled(title, input, hint),
    read: () => {
      if (input.value === "") {
        if (bounds.nullable) return null;
        throw new Error(`fill in ${title.toLowerCase()}`);
      }
      return Number(input.value);
    },
  };
}

function checkboxes(title: string, name: string, schema: SchemaObject, items: Json[], initial: Json | undefined, ctx: FormContext): Field {
  const chosen = Array.isArray(initial) ? initial.map((item) => JSON.stringify(item)) : [];
  const boxes = items.map((item) => {
    const input = h("input", { id: fieldId(), type: "checkbox", name, checked: chosen.includes(JSON.stringify(item)), "data-value": JSON.stringify(item) });
    return { item, input };
  });
  const said = typeof schema.items === "object" ? enumWords(schema.items) : new Map<string, string>();
  const min = schema.minItems ?? undefined;
  const max = schema.maxItems ?? undefined;
  const counts =
    min !== undefined && max !== undefined
      ? min === max
        ? `choose ${min}`
        : `choose ${min} to ${Math.min(max, items.length)}`
      : min !== undefined
        ? `choose at least ${min}`
        : undefined;
  const element = h(
    "fieldset",
    { class: "choices", "data-min": min, "data-max": max },
    h("legend", {}, title, counts ? ` (${counts})` : ""),
    boxes.map(({ item, input }) => h("label", { class: "choice" }, input, " ", said.get(JSON.stringify(item)) ?? display(item, name, ctx))),
  );
  return {
    element,
    read: () => {
      const picked = boxes.filter(({ input }) => input.checked).map(({ item }) => item);
      if ((min !== undefined && picked.length < min) || (max !== undefined && picked.length > max)) throw new Error(`${title.toLowerCase()}: ${counts ?? "choose"}`);
      return picked;
    },
  };
}

/** An array of numbers or plain strings, typed as a comma-separated list. */
function listField(title: string, name: string, items: SchemaObject, initial: Json | undefined): Field {
  const numbers = isInteger(items);
  const start = Array.isArray(initial) ? initial.map((item) => String(item)).join(", ") : "";
  const input = h("input", { id: fieldId(), name, type: "text", value: start, inputmode: numbers ? "numeric" : undefined, spellcheck: false });
  return {
    element: labelled(title, input, numbers ? "numbers, separated by commas" : "separated by commas"),
    read: () => {
      const parts = input.value
        .split(/[,\s]+/)
        .map((part) => part.trim())
        .filter((part) => part !== "");
      if (!numbers) return parts;
      return parts.map((part) => {
        const value = Number(part);
        if (!Number.isInteger(value)) throw new Error(`${title.toLowerCase()}: ${part} is not a whole number`);
        return value;
      });
    },
  };
}

/** The branches of a `oneOf`/`anyOf` that is a choice between shapes, or undefined. */
function unionBranches(schema: SchemaObject): SchemaObject[] | undefined {
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const objects = branches.filter((branch): branch is SchemaObject => typeof branch !== "boolean");
  return objects.length === branches.length ? objects : undefined;
}

/** One choice of a union: a fixed value (an enum member, a const, null) or a shape to fill in. */
interface Alternative {
  label: string;
  value?: Json;
  schema?: SchemaObject;
}

/**
 * The choices of a union, nested unions flattened. A shape without a title inside a titled
 * union is named by that title and the players its fixed seat fields name ("Give a
 * certificate: giver Ann"), so that one shape per giver reads as a choice of who gives.
 */
function alternatives(branches: SchemaObject[], name: string, ctx: FormContext, parent?: string): Alternative[] {
  return branches.flatMap((branch): Alternative[] => {
    const nested = unionBranches(branch);
    if (nested && !branch.properties) return alternatives(nested, name, ctx, typeof branch.title === "string" ? branch.title : parent);
    const values = enumOf(branch);
    if (values) return values.map((value) => ({ label: display(value, name, ctx), value }));
    if (branch.const !== undefined && isJson(branch.const)) return [{ label: display(branch.const, name, ctx), value: branch.const }];
    if (types(branch).length === 1 && types(branch)[0] === "null") return [{ label: "None", value: null }];
    // A shape: named by its title, else by the constant that tags it (`kind: coins`), else by
    // its only required property.
    const tag = Object.entries(branch.properties ?? {}).find(([, property]) => typeof property !== "boolean" && property.const !== undefined);
    const tagValue = tag && typeof tag[1] !== "boolean" ? tag[1].const : undefined;
    const seats = Object.entries(branch.properties ?? {}).flatMap(([key, property]) =>
      typeof property !== "boolean" && SEAT_NAME.test(key) && typeof property.const === "number" ? [`${words(key)} ${display(property.const, key, ctx)}`] : [],
    );
    const label =
      typeof branch.title === "string"
        ? branch.title
        : parent !== undefined
          ? seats.length > 0
            ? `${parent}: ${seats.join(", ")}`
            : parent
          : typeof tagValue === "string"
          ? humanise(tagValue)
          : branch.required?.length === 1 && branch.required[0]
            ? humanise(branch.required[0])
            : "Other";
    return [{ label, schema: branch }];
  });
}

/** A choice between a union's branches, with the chosen shape's fields below the choice. */
function unionField(title: string, name: string, schema: SchemaObject, initial: Json | undefined, ctx: FormContext): Field {
  const options = alternatives(unionBranches(schema) ?? [], name, ctx);
  const shapes = options.filter((option) => option.schema);
  // One shape is no choice: its fields, under the union's title.
  const only = options.length === 1 ? options[0]?.schema : undefined;
  if (only) return field(name, { ...only, title: only.title ?? title }, initial, ctx);
  // A start that is no fixed value belongs to the first shape it could be.
  let chosen = options.findIndex((option) => option.schema === undefined && JSON.stringify(option.value) === JSON.stringify(initial));
  if (chosen < 0 && initial !== undefined && initial !== null && shapes.length > 0) chosen = options.indexOf(shapes[0] as Alternative);
  if (chosen < 0 && options.length === 1) chosen = 0;
  const select = h("select", { id: fieldId(), name, required: true });
  if (chosen < 0) select.append(h("option", { value: "", selected: true, disabled: true }, "Choose…"));
  options.forEach((option, index) => select.append(h("option", { value: String(index), selected: index === chosen }, option.label)));
  const body = h("div", { class: "union-body" });
  let inner: Field | undefined;
  const show = (): void => {
    const option = options[Number(select.value)];
    inner = option?.schema ? field("", option.schema, select.value === String(chosen) ? initial : undefined, ctx) : undefined;
    body.replaceChildren(...(inner ? [inner.element] : []));
  };
  select.addEventListener("change", show);
  if (select.value !== "") show();
  return {
    element: h("div", { class: "union" }, labelled(title || "Kind", select), body),
    read: () => {
      if (select.value === "") throw new Error(`choose ${title.toLowerCase()}`);
      const option = options[Number(select.value)];
      return option?.schema ? inner?.read() : option?.value;
    },
  };
}

/** An array of objects: a list of rows, each a sub-form, with "Add" and "Remove". */
function rowsField(title: string, name: string, schema: SchemaObject, items: SchemaObject, initial: Json | undefined, ctx: FormContext): Field {
  const rows: { element: HTMLElement; field: Field }[] = [];
  const list = h("ol", { class: "rows" });
  // "Terms" → "Add a term"; a list whose name is not a plural gets rows.
  const one = /[^s]s$/i.test(title) ? title.slice(0, -1).toLowerCase() : "row";
  const add = (start: Json | undefined): void => {
    const inner = field("", items, start, ctx);
    const row: { element: HTMLElement; field: Field } = { element: h("li", { class: "row" }), field: inner };
    const remove = h("button", { type: "button", class: "small", "data-testid": "remove-row" }, "Remove");
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      row.element.remove();
    });
    row.element.append(inner.element, remove);
    rows.push(row);
    list.append(row.element);
  };
  if (Array.isArray(initial)) initial.forEach((item) => add(item));
  for (let index = rows.length; index < (schema.minItems ?? 0); index++) add(undefined);
  const more = h("button", { type: "button", class: "small", "data-testid": "add-row" }, `Add a ${one}`);
  more.addEventListener("click", () => add(undefined));
  return {
    element: h("fieldset", { class: "list", "data-name": name }, h("legend", {}, title), list, more),
    read: () => rows.map((row) => row.field.read()).filter(isJson),
  };
}

function mapField(title: string, name: string, schema: SchemaObject, names: Json[], initial: Json | undefined, ctx: FormContext): Field {
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
      min: 0,
      max: shown(bounds?.max),
      value: typeof value === "number" ? value : "",
      placeholder: "0",
    });
    return { key: keyText, input };
  });
  const sum = schema[SUM_KEYWORD];
  const keyWords = schema.propertyNames && typeof schema.propertyNames === "object" ? enumWords(schema.propertyNames) : new Map<string, string>();
  const element = h(
    "fieldset",
    { class: "map", "data-sum": typeof sum === "number" ? sum : undefined },
    h("legend", {}, title, typeof sum === "number" ? ` (must add up to ${sum})` : ""),
    inputs.map(({ key, input }) => labelled(keyWords.get(JSON.stringify(key)) ?? display(key, name, ctx), input)),
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

function objectField(title: string, name: string, schema: SchemaObject, initial: Json | undefined, ctx: FormContext): Field {
  const start = initial !== null && typeof initial === "object" && !Array.isArray(initial) ? initial : {};
  const fields = Object.entries(schema.properties ?? {}).map(([key, sub]) => ({ key, field: field(key, sub, start[key], ctx) }));
  const element = h("fieldset", { class: "object" }, name ? h("legend", {}, title) : null, fields.map(({ field }) => field.element));
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

/** Free text (a promise, a name), within the schema's length. */
function textField(title: string, name: string, schema: SchemaObject, initial: Json | undefined): Field {
  const nullable = types(schema).includes("null");
  const input = h("input", { id: fieldId(), name, type: "text", value: typeof initial === "string" ? initial : "", maxlength: schema.maxLength ?? undefined, required: !nullable && (schema.minLength ?? 0) > 0 });
  return { element: labelled(title, input), read: () => (input.value === "" && nullable ? null : input.value) };
}

/** The last resort, for shapes no control fits (nested lists in some options): JSON text. */
function jsonField(name: string, initial: Json | undefined): Field {
  const area = h("textarea", { id: fieldId(), name, rows: 3, spellcheck: false }, initial === undefined ? "" : JSON.stringify(initial));
  return {
    element: labelled(`${humanise(name)} (advanced: JSON)`, area),
    read: () => {
      if (area.value.trim() === "") return undefined;
      const parsed: unknown = JSON.parse(area.value);
      return isJson(parsed) ? parsed : undefined;
    },
  };
}

/** A form body for `schema`: its fields and how to read the value they describe. */
export function schemaFields(schema: JsonSchema, initial: Json | undefined, ctx: FormContext): Field {
  return field("", schema, initial, ctx);
}
