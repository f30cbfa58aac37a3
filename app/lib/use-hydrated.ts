import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** True once React runs in the browser; false in the server render and during hydration. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
