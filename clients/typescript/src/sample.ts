/**
 * A generic JSON Schema sampler: builds a random instance of a schema. It knows nothing about
 * the games; it understands the keywords the legal-action schemas use:
 *
 * - `$ref` (JSON pointers into the schema's own root, or into a resolver the caller gives),
 *   `allOf` (merged), `oneOf`/`anyOf` (one branch, merged with its siblings), `const`, `enum`;
 * - `type` null, boolean, integer/number (`minimum`, `maximum`, `exclusiveMinimum`,
 *   `exclusiveMaximum`, `multipleOf`), string (`enum`, `minLength`, `maxLength`), array
 *   (`items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`), object (`properties`,
 *   `required`, `additionalProperties` (false or a schema), `propertyNames` with an `enum` or
 *   `const`, `minProperties`, `maxProperties`);
 * - the extension `x-sum-of-values: N`: the object's values are integers adding up to N.
 *
 * The sampler is best effort (e.g. `oneOf` branches are not checked for exclusivity, patterns
 * are not honoured): callers validate what it returns (Ajv) and sample again when needed.
 */
import { type Json, type Obj, isJson, isObject, num, stringArray } from "./json.js";
import type { Rng } from "./rng.js";

export const SUM_KEYWORD = "x-sum-of-values";

export class Unsatisfiable extends Error {}

export type RefResolver = (ref: string) => unknown;

export interface SamplerOptions {
  /**
   * Whether declared but optional properties are filled in: `all` of them (the default:
   * a schema that names a property usually wants it), or a random half.
   */
  optionals?: "all" | "random";
  /** Resolves `$ref`s that do not point into the schema itself. */
  external?: RefResolver;
}

/** The default spread for integers without bounds. */
const FREE_RANGE = 10;
const MAX_DEPTH = 64;

export class Sampler {
  private readonly external: RefResolver | undefined;
  private readonly allOptionals: boolean;

  constructor(
    private readonly rng: Rng,
    private readonly root: unknown,
    options: SamplerOptions = {},
  ) {
    this.external = options.external;
    this.allOptionals = (options.optionals ?? "all") === "all";
  }

  sample(schema: unknown = this.root): Json {
    return this.at(schema, 0);
  }

  private at(schema: unknown, depth: number): Json {
    if (depth > MAX_DEPTH) throw new Unsatisfiable("schema too deep (recursive $ref?)");
    if (schema === true || schema === undefined) return null;
    if (schema === false) throw new Unsatisfiable("false schema");
    if (!isObject(schema)) throw new Unsatisfiable(`not a schema: ${JSON.stringify(schema)}`);
    const s = this.flatten(schema, depth);

    if ("const" in s) {
      const c = s["const"];
      if (!isJson(c)) throw new Unsatisfiable("const is not JSON");
      return c;
    }
    if (Array.isArray(s["enum"])) {
      const options = s["enum"].filter(isJson);
      const choice = this.rng.pick(options);
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
      default:
        throw new Unsatisfiable(`unknown type ${type}`);
    }
  }

  /**
   * Resolves `$ref`, merges `allOf`, and picks one branch of `oneOf`/`anyOf`, until the
   * schema is a single plain schema.
   */
  private flatten(schema: Obj, depth: number): Obj {
    let s: Obj = schema;
    for (let guard = 0; guard < MAX_DEPTH; guard++) {
      const ref = s["$ref"];
      if (typeof ref === "string") {
        const target = this.resolve(ref);
        if (!isObject(target)) throw new Unsatisfiable(`$ref ${ref} is not an object schema`);
        s = merge(without(s, "$ref"), target);
        continue;
      }
      const all = s["allOf"];
      if (Array.isArray(all)) {
        let merged = without(s, "allOf");
        for (const part of all) {
          if (!isObject(part)) throw new Unsatisfiable("allOf member is not an object schema");
          merged = merge(merged, part);
        }
        s = merged;
        continue;
      }
      const key = Array.isArray(s["oneOf"]) ? "oneOf" : Array.isArray(s["anyOf"]) ? "anyOf" : undefined;
      if (key !== undefined) {
        const branches = s[key];
        const branch: unknown = Array.isArray(branches) ? this.rng.pick(branches) : undefined;
        if (branch === false) throw new Unsatisfiable("false branch");
        s = merge(without(s, key), isObject(branch) ? branch : {});
        continue;
      }
      return s;
    }
    if (depth >= 0) throw new Unsatisfiable("could not flatten the schema");
    return s;
  }

  private resolve(ref: string): unknown {
    if (ref.startsWith("#")) {
      const found = pointer(this.root, ref.slice(1));
      if (found !== undefined) return found;
    }
    if (this.external !== undefined) {
      const found = this.external(ref);
      if (found !== undefined) return found;
    }
    throw new Unsatisfiable(`unresolved $ref ${ref}`);
  }

  private pickType(s: Obj): string {
    const t = s["type"];
    if (typeof t === "string") return t;
    const types = stringArray(t);
    if (types !== undefined) {
      const choice = this.rng.pick(types);
      if (choice === undefined) throw new Unsatisfiable("empty type list");
      return choice;
    }
    if ("properties" in s || "additionalProperties" in s || "required" in s || SUM_KEYWORD in s) return "object";
    if ("items" in s || "prefixItems" in s) return "array";
    if ("minimum" in s || "maximum" in s) return "integer";
    return "null";
  }

  private bounds(s: Obj, integer: boolean, fallbackLo: number, fallbackHi: number): [number, number] {
    const step = integer ? 1 : 0;
    let lo = num(s["minimum"]);
    const exLo = num(s["exclusiveMinimum"]);
    if (exLo !== undefined) lo = Math.max(lo ?? -Infinity, integer ? Math.floor(exLo) + step : exLo);
    let hi = num(s["maximum"]);
    const exHi = num(s["exclusiveMaximum"]);
    if (exHi !== undefined) hi = Math.min(hi ?? Infinity, integer ? Math.ceil(exHi) - step : exHi);
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

  private number(s: Obj, integer: boolean): number {
    const [lo, hi] = this.bounds(s, integer, 0, FREE_RANGE);
    const multiple = num(s["multipleOf"]);
    if (multiple !== undefined && multiple > 0) {
      const first = Math.ceil(lo / multiple);
      const last = Math.floor(hi / multiple);
      if (last < first) throw new Unsatisfiable("no multiple in range");
      return this.rng.int(first, last) * multiple;
    }
    // Near the bounds more often: edges are where rules bite.
    const r = this.rng.next();
    if (r < 0.15) return lo;
    if (r < 0.3) return hi;
    if (integer) return this.rng.int(lo, Math.min(hi, Number.MAX_SAFE_INTEGER));
    return lo + this.rng.next() * (hi - lo);
  }

  private string(s: Obj): string {
    const min = num(s["minLength"]) ?? 0;
    const max = num(s["maxLength"]) ?? Math.max(min, 8);
    const len = this.rng.int(Math.max(min, Math.min(1, max)), Math.min(max, min + 8));
    let out = "";
    for (let i = 0; i < len; i++) out += String.fromCharCode(97 + this.rng.int(0, 25));
    return out;
  }

  private array(s: Obj, depth: number): Json[] {
    const prefix: readonly unknown[] = Array.isArray(s["prefixItems"]) ? s["prefixItems"] : [];
    const items = s["items"];
    const min = num(s["minItems"]) ?? 0;
    const maxDeclared = num(s["maxItems"]);
    const unique = s["uniqueItems"] === true;
    const open = items !== false;
    const maxPossible = open ? (maxDeclared ?? Math.max(min, prefix.length) + 3) : Math.min(prefix.length, maxDeclared ?? prefix.length);
    const length = this.rng.int(min, maxPossible);
    if (length < min) throw new Unsatisfiable("array too short");
    const out: Json[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < length; i++) {
      const itemSchema: unknown = i < prefix.length ? prefix[i] : items;
      let value: Json | undefined;
      for (let attempt = 0; attempt < (unique ? 50 : 1); attempt++) {
        const candidate = this.at(itemSchema, depth + 1);
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

  private object(s: Obj, depth: number): { [key: string]: Json } {
    const properties = isObject(s["properties"]) ? s["properties"] : {};
    const required = stringArray(s["required"]) ?? [];
    const additional = s["additionalProperties"];
    const minProps = num(s["minProperties"]) ?? 0;
    const maxProps = num(s["maxProperties"]) ?? Infinity;
    const names = propertyNameChoices(s["propertyNames"]);
    const valueSchema = (key: string): unknown => (key in properties ? properties[key] : additional);

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

    const total = num(s[SUM_KEYWORD]);
    if (total !== undefined) return this.summing(keys, valueSchema, total, names, required, minProps, maxProps, depth);

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
    valueSchema: (key: string) => unknown,
    total: number,
    names: string[] | undefined,
    required: string[],
    minProps: number,
    maxProps: number,
    depth: number,
  ): { [key: string]: Json } {
    const bound = (key: string): [number, number] => {
      const vs = valueSchema(key);
      const flat = isObject(vs) ? this.flatten(vs, depth + 1) : {};
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

function propertyNameChoices(schema: unknown): string[] | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema["const"] === "string") return [schema["const"]];
  return stringArray(schema["enum"]);
}

function without(s: Obj, key: string): Obj {
  const out: { [key: string]: unknown } = {};
  for (const [k, v] of Object.entries(s)) if (k !== key) out[k] = v;
  return out;
}

/** Shallow merge of two schemas; `properties` and `required` are combined. */
function merge(a: Obj, b: Obj): Obj {
  const out: { [key: string]: unknown } = { ...a, ...b };
  const pa = a["properties"];
  const pb = b["properties"];
  if (isObject(pa) && isObject(pb)) out["properties"] = { ...pa, ...pb };
  const ra = stringArray(a["required"]);
  const rb = stringArray(b["required"]);
  if (ra !== undefined && rb !== undefined) out["required"] = [...new Set([...ra, ...rb])];
  return out;
}

/** RFC 6901 JSON pointer (`/a/b~1c`), percent-decoded as in a URI fragment. */
export function pointer(root: unknown, path: string): unknown {
  if (path === "") return root;
  let node: unknown = root;
  for (const raw of path.split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      node = node[Number(segment)];
    } else if (isObject(node)) {
      node = node[segment];
    } else {
      return undefined;
    }
  }
  return node;
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
