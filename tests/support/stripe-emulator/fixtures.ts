import fixtures from "#tests/support/stripe-emulator/fixtures.json" with { type: "json" };

/**
 * Stripe's own example object for each resource the emulator answers with
 * (fixtures.json: an extract of Stripe's published fixtures3.json, MIT, see
 * FIXTURES-LICENSE). Every object starts as a copy of its fixture, so it has
 * all of Stripe's fields; what the emulator knows is written over it through
 * the `stripe` package's own types, so the compiler checks names and types.
 */
export type FixtureName = keyof typeof fixtures.resources;

export function fixture(name: FixtureName): Record<string, unknown> {
  return structuredClone(fixtures.resources[name]) as Record<string, unknown>;
}

export function fromFixture<T>(name: FixtureName, overrides: Partial<T>): T {
  return { ...fixture(name), ...overrides } as T;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** An id like Stripe's: a prefix and 24 random letters and digits (`pi_3Qx…`). */
export function newId(prefix: string, length = 24): string {
  let id = "";
  for (let i = 0; i < length; i++) id += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return `${prefix}_${id}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
