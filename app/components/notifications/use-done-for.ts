import { useEffect, useRef, useState } from "react";
import { DONE_MS, type NotificationAnswer } from "./types";

/**
 * True while a successful answer is shown as 'Done!' (SPEC §4, §9: 2 s);
 * `after` runs once its time is over. A new answer starts its own 2 s.
 */
export function useDoneFor(answer: NotificationAnswer | undefined, after: () => void): boolean {
  const [expired, setExpired] = useState<NotificationAnswer | undefined>(undefined);
  const then = useRef(after);
  useEffect(() => {
    then.current = after;
  });
  useEffect(() => {
    if (answer?.kind !== "SUCCESS") return;
    const timer = setTimeout(() => {
      setExpired(answer);
      then.current();
    }, DONE_MS);
    return () => clearTimeout(timer);
  }, [answer]);
  return answer?.kind === "SUCCESS" && expired !== answer;
}
