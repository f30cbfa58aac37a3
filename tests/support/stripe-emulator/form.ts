/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket
 * notation for nesting — `metadata[uid]=u1`, `line_items[0][quantity]=1`,
 * `expand[]=latest_charge` (the SDK writes `expand[0]=…`; both are accepted,
 * as Stripe does). Values stay strings; each endpoint converts what it reads.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

function pathOf(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new Error(`Malformed parameter name: ${key}`);
  const rest = [...(match[2] ?? "").matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "");
  return [match[1] ?? "", ...rest];
}

function assign(target: FormObject | FormValue[], path: string[], value: string) {
  const [head, ...rest] = path as [string, ...string[]];
  const container = target as Record<string, FormValue> & FormValue[];
  const key: string | number = Array.isArray(target) ? (head === "" ? target.length : Number(head)) : head;
  if (rest.length === 0) {
    container[key as never] = value as never;
    return;
  }
  // A numeric or empty next segment makes a list; anything else an object.
  const nextIsIndex = rest[0] === "" || /^\d+$/.test(rest[0] ?? "");
  let child = container[key as never] as FormValue | undefined;
  if (child === undefined || typeof child === "string") {
    child = nextIsIndex ? [] : {};
    container[key as never] = child as never;
  }
  assign(child as FormObject | FormValue[], rest, value);
}

export function parseForm(body: string): FormObject {
  const result: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) assign(result, pathOf(key), value);
  return result;
}

/** A parameter read as a string, or undefined. */
export function str(params: FormObject, ...path: string[]): string | undefined {
  let value: FormValue | undefined = params;
  for (const key of path) {
    if (value === undefined || typeof value === "string") return undefined;
    value = (value as Record<string, FormValue>)[key];
  }
  return typeof value === "string" ? value : undefined;
}

export function strings(params: FormObject, key: string): string[] {
  const value = params[key];
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  return Object.values(value).filter((item): item is string => typeof item === "string");
}

export function metadataOf(params: FormObject): Record<string, string> {
  const value = params.metadata;
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
