/**
 * What answering one request cost: database statements, page renders and calls to the payment
 * provider. Counted inside the request's scope (server/platform/http/request-id.ts), so the background work
 * a process does at the same time is never charged to it, and written on the request's access log
 * line. Counts do not depend on how busy the machine is, so a test can hold a page to its budget
 * (server/main/request-cost.test.ts) where a timing could only flake.
 */
export type RequestCost = { statements: number; renders: number; providerCalls: number };

export type CostKind = keyof RequestCost;

export const newRequestCost = (): RequestCost => ({ statements: 0, renders: 0, providerCalls: 0 });

/**
 * `target` with each of its methods but the `local` ones charging one `kind` to the current
 * request when called (a provider call made by background work charges nothing: `charge` finds no
 * request).
 */
export function chargingCalls<T extends object>(target: T, kind: CostKind, charge: (kind: CostKind) => void, local: readonly (keyof T)[] = []): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== "function" || local.includes(key as keyof T)) return value;
      let method = wrapped.get(key);
      if (!method) {
        method = (...args: unknown[]) => {
          charge(kind);
          return (value as (...args: unknown[]) => unknown).apply(object, args);
        };
        wrapped.set(key, method);
      }
      return method;
    },
  });
}
