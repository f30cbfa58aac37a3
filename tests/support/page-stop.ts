/**
 * How a page answers when its door stops the request (React Router's thrown `data`: the 404 page,
 * a 401 or 403 before the operation runs): its status and body, or "answered" when the page went on.
 */
export async function pageStop(run: () => Promise<unknown>): Promise<{ status: number; message: unknown } | "answered"> {
  try {
    await run();
    return "answered";
  } catch (thrown) {
    const stop = thrown as { init?: { status?: number }; data?: unknown };
    return { status: stop.init?.status ?? -1, message: stop.data };
  }
}

/** The status alone of `pageStop`. */
export async function pageStatus(run: () => Promise<unknown>): Promise<number | "answered"> {
  const stopped = await pageStop(run);
  return stopped === "answered" ? stopped : stopped.status;
}
