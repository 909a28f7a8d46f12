/** Reading JSON whose shape the contract does not pin (a view drawn by hand, a problem body). */

/** The member `key` of a JSON object, or undefined when `value` is not an object or lacks it. */
export function member(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const found: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
  return found;
}
