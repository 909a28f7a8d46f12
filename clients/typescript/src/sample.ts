/**
 * A generic JSON Schema sampler: builds a random instance of a schema. It knows nothing about
 * the games. It walks the contract's own `JsonSchema` component (typed, from src/schema.d.ts),
 * so it understands exactly the keywords the contract says legal actions and options use:
 *
 * - `allOf` (merged), `oneOf`/`anyOf` (one branch, merged with its siblings), `const`, `enum`;
 * - `type` null, boolean, integer/number (`minimum`, `maximum`), string (`minLength`,
 *   `maxLength`), array (`items`, `minItems`, `maxItems`, `uniqueItems`), object
 *   (`properties`, `required`, `additionalProperties`, `propertyNames` with an `enum` or
 *   `const`, `minProperties`, `maxProperties`);
 * - the extension `x-sum-of-values: N`: the object's values are integers adding up to N.
 *
 * Other keywords (the component is open) are ignored. The sampler is best effort (`oneOf`
 * branches are not checked for exclusivity, `pattern` is not honoured): callers validate what
 * it returns (Ajv) and sample again when needed.
 */
import { type Json, isJson } from "./json.js";
import type { Rng } from "./rng.js";
import type { components } from "./schema.js";

/** A JSON Schema as the contract types it: an object schema or `true`/`false`. */
export type JsonSchema = components["schemas"]["JsonSchema"];
export type SchemaObject = Exclude<JsonSchema, boolean>;
type JsonType = components["schemas"]["JsonType"];

export const SUM_KEYWORD = "x-sum-of-values";

export class Unsatisfiable extends Error {}

export interface SamplerOptions {
  /**
   * Whether declared but optional properties are filled in: `all` of them (the default:
   * a schema that names a property usually wants it), or a random half.
   */
  optionals?: "all" | "random";
}

/** The default spread for integers without bounds. */
const FREE_RANGE = 10;
const MAX_DEPTH = 64;

export class Sampler {
  private readonly allOptionals: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly root: JsonSchema,
    options: SamplerOptions = {},
  ) {
    this.allOptionals = (options.optionals ?? "all") === "all";
  }

  sample(schema: JsonSchema = this.root): Json {
    return this.at(schema, 0);
  }

  private at(schema: JsonSchema | undefined, depth: number): Json {
    if (depth > MAX_DEPTH) throw new Unsatisfiable("schema too deep");
    if (schema === true || schema === undefined) return null;
    if (schema === false) throw new Unsatisfiable("false schema");
    const s = this.flatten(schema);

    if (s.const !== undefined) {
      const c = s.const;
      if (!isJson(c)) throw new Unsatisfiable("const is not JSON");
      return c;
    }
    if (s.enum !== undefined) {
      const choice = this.rng.pick(s.enum.filter(isJson));
      if (choice === undefined) throw new Unsatisfiable("empty enum");
      return choice;
    }

    const type = this.pickType(s);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return this.rng.bool();
      case "integer":
      case "number":
        return this.number(s, type === "integer");
      case "string":
        return this.string(s);
      case "array":
        return this.array(s, depth);
      case "object":
        return this.object(s, depth);
      default: {
        const unknown: never = type;
        throw new Unsatisfiable(`unknown type ${String(unknown)}`);
      }
    }
  }

  /**
   * Merges `allOf`, and picks one branch of `oneOf`/`anyOf`, until the schema is a single
   * plain schema.
   */
  private flatten(schema: SchemaObject): SchemaObject {
    let s = schema;
    for (let guard = 0; guard < MAX_DEPTH; guard++) {
      if (s.allOf !== undefined) {
        let merged: SchemaObject = { ...s, allOf: undefined };
        for (const part of s.allOf) {
          if (part === false) throw new Unsatisfiable("false allOf member");
          if (part !== true) merged = merge(merged, part);
        }
        s = merged;
        continue;
      }
      const branches = s.oneOf ?? s.anyOf;
      if (branches !== undefined) {
        const branch = this.rng.pick(branches);
        if (branch === undefined) throw new Unsatisfiable("no branch to pick");
        if (branch === false) throw new Unsatisfiable("false branch");
        s = merge({ ...s, oneOf: undefined, anyOf: s.oneOf === undefined ? undefined : s.anyOf }, branch === true ? {} : branch);
        continue;
      }
      return s;
    }
    throw new Unsatisfiable("could not flatten the schema");
  }

  private pickType(s: SchemaObject): JsonType {
    const t = s.type;
    if (typeof t === "string") return t;
    if (t !== undefined) {
      const choice = this.rng.pick(t);
      if (choice === undefined) throw new Unsatisfiable("empty type list");
      return choice;
    }
    if (s.properties !== undefined || s.additionalProperties !== undefined || s.required !== undefined || s[SUM_KEYWORD] !== undefined) return "object";
    if (s.items !== undefined) return "array";
    if (s.minimum !== undefined || s.maximum !== undefined) return "integer";
    return "null";
  }

  private bounds(s: SchemaObject, integer: boolean, fallbackLo: number, fallbackHi: number): [number, number] {
    let lo = s.minimum;
    let hi = s.maximum;
    if (integer) {
      if (lo !== undefined) lo = Math.ceil(lo);
      if (hi !== undefined) hi = Math.floor(hi);
    }
    if (lo === undefined && hi === undefined) return [fallbackLo, fallbackHi];
    if (lo === undefined) return [Math.min(fallbackLo, (hi ?? 0) - FREE_RANGE), hi ?? fallbackHi];
    if (hi === undefined) return [lo, lo + FREE_RANGE];
    if (hi < lo) throw new Unsatisfiable(`empty range [${String(lo)}, ${String(hi)}]`);
    return [lo, hi];
  }

  private number(s: SchemaObject, integer: boolean): number {
    const [lo, hi] = this.bounds(s, integer, 0, FREE_RANGE);
    // Near the bounds more often: edges are where rules bite.
    const r = this.rng.next();
    if (r < 0.15) return lo;
    if (r < 0.3) return hi;
    if (integer) return this.rng.int(lo, Math.min(hi, Number.MAX_SAFE_INTEGER));
    return lo + this.rng.next() * (hi - lo);
  }

  private string(s: SchemaObject): string {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, 8);
    const len = this.rng.int(Math.max(min, Math.min(1, max)), Math.min(max, min + 8));
    let out = "";
    for (let i = 0; i < len; i++) out += String.fromCharCode(97 + this.rng.int(0, 25));
    return out;
  }

  private array(s: SchemaObject, depth: number): Json[] {
    const min = s.minItems ?? 0;
    const unique = s.uniqueItems === true;
    const max = s.items === false ? 0 : (s.maxItems ?? min + 3);
    const length = this.rng.int(min, max);
    if (length < min) throw new Unsatisfiable("array too short");
    const out: Json[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < length; i++) {
      let value: Json | undefined;
      for (let attempt = 0; attempt < (unique ? 50 : 1); attempt++) {
        const candidate = this.at(s.items, depth + 1);
        if (!unique || !seen.has(canonical(candidate))) {
          value = candidate;
          break;
        }
      }
      if (value === undefined) {
        // Not enough distinct items: stop here if the length allows it.
        if (out.length >= min) break;
        throw new Unsatisfiable("not enough distinct items");
      }
      seen.add(canonical(value));
      out.push(value);
    }
    return out;
  }

  private object(s: SchemaObject, depth: number): { [key: string]: Json } {
    const properties = s.properties ?? {};
    const required = s.required ?? [];
    const additional = s.additionalProperties;
    const minProps = s.minProperties ?? 0;
    const maxProps = s.maxProperties ?? Infinity;
    const names = propertyNameChoices(s.propertyNames);
    const valueSchema = (key: string): JsonSchema | undefined => properties[key] ?? additional;

    // Which keys: every required one, some optional declared ones, and (when additional
    // properties are allowed and their names are listed) some of those.
    const keys: string[] = [...required];
    for (const key of this.rng.shuffle(Object.keys(properties))) {
      if (!keys.includes(key) && keys.length < maxProps && (this.allOptionals || this.rng.bool())) keys.push(key);
    }
    if (additional !== false) {
      const candidates = (names ?? []).filter((n) => !keys.includes(n));
      const lo = Math.max(0, minProps - keys.length);
      const hi = Math.max(lo, Math.min(candidates.length, maxProps - keys.length));
      const count = this.rng.int(lo, hi);
      const chosen = this.rng.shuffle(candidates).slice(0, count);
      keys.push(...chosen);
      // Names not listed: invent some when minProperties asks for more.
      for (let i = 0; names === undefined && keys.length < minProps; i++) {
        const key = `k${String(i)}`;
        if (!keys.includes(key)) keys.push(key);
      }
    }
    if (keys.length < minProps) throw new Unsatisfiable("too few properties possible");

    const total = s[SUM_KEYWORD];
    if (total !== undefined) return this.summing(keys, valueSchema, total, names, required, minProps, maxProps);

    const out: { [key: string]: Json } = {};
    for (const key of keys) out[key] = this.at(valueSchema(key), depth + 1);
    return out;
  }

  /**
   * `x-sum-of-values: total`: integer values adding up to `total`. The key set is grown or
   * shrunk (within the required keys, the listed names and min/maxProperties) until the
   * values' bounds can reach the total, then the total is dealt out at random.
   */
  private summing(
    initial: string[],
    valueSchema: (key: string) => JsonSchema | undefined,
    total: number,
    names: string[] | undefined,
    required: string[],
    minProps: number,
    maxProps: number,
  ): { [key: string]: Json } {
    const bound = (key: string): [number, number] => {
      const vs = valueSchema(key);
      const flat = vs === undefined || typeof vs === "boolean" ? {} : this.flatten(vs);
      return this.bounds(flat, true, 0, total);
    };
    const pool = [...new Set([...initial, ...(names ?? [])])];
    const optional = pool.filter((k) => !required.includes(k));
    const feasible = (keys: string[]): boolean => {
      let lo = 0;
      let hi = 0;
      for (const k of keys) {
        const [a, b] = bound(k);
        lo += a;
        hi += b;
      }
      return lo <= total && total <= hi && keys.length >= minProps && keys.length <= maxProps;
    };
    let keys = initial;
    for (let attempt = 0; attempt < 200 && !feasible(keys); attempt++) {
      const count = this.rng.int(0, optional.length);
      keys = [...required, ...this.rng.shuffle(optional).slice(0, count)];
    }
    if (!feasible(keys)) throw new Unsatisfiable(`no key set can sum to ${String(total)}`);

    const values = new Map<string, number>();
    let remaining = total;
    for (const k of keys) {
      const [lo] = bound(k);
      values.set(k, lo);
      remaining -= lo;
    }
    while (remaining > 0) {
      const open = keys.filter((k) => (values.get(k) ?? 0) < bound(k)[1]);
      const k = this.rng.pick(open);
      if (k === undefined) throw new Unsatisfiable("cannot deal out the total");
      const current = values.get(k) ?? 0;
      const add = this.rng.int(1, Math.min(remaining, bound(k)[1] - current));
      values.set(k, current + add);
      remaining -= add;
    }
    const out: { [key: string]: Json } = {};
    for (const k of keys) out[k] = values.get(k) ?? 0;
    return out;
  }
}

/** The names `propertyNames` allows, when it lists them (`const` or an `enum` of strings). */
function propertyNameChoices(schema: JsonSchema | undefined): string[] | undefined {
  if (schema === undefined || typeof schema === "boolean") return undefined;
  if (typeof schema.const === "string") return [schema.const];
  return schema.enum?.filter((name) => typeof name === "string");
}

/** Shallow merge of two schemas; `properties` and `required` are combined. */
function merge(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a, ...b };
  if (a.properties !== undefined && b.properties !== undefined) out.properties = { ...a.properties, ...b.properties };
  if (a.required !== undefined && b.required !== undefined) out.required = [...new Set([...a.required, ...b.required])];
  return out;
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] ?? null)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
