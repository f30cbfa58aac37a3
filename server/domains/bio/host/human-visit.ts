import type { IncomingHttpHeaders } from "node:http";
import { isbot } from "isbot";

/**
 * Whether a request is a person opening the page (or following a link): a
 * GET, not a crawler or link-preview fetcher by its User-Agent (`isbot`; no
 * User-Agent at all counts as a bot too), and not a speculative prefetch or
 * prerender, which browsers mark (`Sec-Purpose`, `Purpose`, Firefox's
 * `X-Moz`). A HEAD asks only for headers: not a view.
 *
 * A conditional GET (If-None-Match) that ends in 304 is a view: the page is
 * sent with `Cache-Control: no-cache`, so every time a person opens it their
 * browser asks, and a 304 only means the bytes were already there.
 */
export function isHumanVisit(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== "GET") return false;
  const purpose = headers["sec-purpose"] ?? headers["purpose"] ?? headers["x-moz"];
  if (purpose !== undefined && /prefetch|prerender/i.test(String(purpose))) return false;
  const agent = headers["user-agent"];
  return agent !== undefined && agent !== "" && !isBotAgent(agent);
}

// isbot runs one large regular expression; browsers send few distinct User-Agents, so answers are kept (bounded).
const answers = new Map<string, boolean>();
function isBotAgent(agent: string): boolean {
  let answer = answers.get(agent);
  if (answer === undefined) {
    answer = isbot(agent);
    if (answers.size < 1_000 && agent.length <= 512) answers.set(agent, answer);
  }
  return answer;
}
