import { OUTAGE_RETRY_AFTER_SECONDS } from "#server/platform/db/unavailable";

/**
 * What a request gets while the database cannot be reached: 503 with Retry-After, and a short
 * page that says it is temporary. No details: the log has them (once per outage).
 */
export const OUTAGE_STATUS = 503;

export const OUTAGE_HEADERS = {
  "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS),
  "Cache-Control": "no-store",
  "Content-Type": "text/html; charset=utf-8",
} as const;

export const OUTAGE_HTML =
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>Back in a moment</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5">` +
  `<main><h1>Back in a moment</h1><p>We cannot reach our database right now, so this page cannot be shown. ` +
  `Nothing you did caused this, and nothing you saved is lost. Please try again in a minute.</p>` +
  `<p><a href="">Try again</a></p></main></body></html>`;

/** The outage answer as a fetch Response (React Router's entry). */
export function outageResponse(): Response {
  return new Response(OUTAGE_HTML, { status: OUTAGE_STATUS, headers: OUTAGE_HEADERS });
}
