/** JSON values and the narrowing helpers the rest of the client uses instead of casts. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object (or any non-array object) whose members are still to be narrowed. */
export type Obj = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isJson(value: unknown): value is Json {
  if (value === null) return true;
  switch (typeof value) {
    case "boolean":
    case "string":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object":
      if (Array.isArray(value)) return value.every(isJson);
      return Object.values(value).every(isJson);
    default:
      return false;
  }
}
