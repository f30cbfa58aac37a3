import { fromNodeHeaders } from "better-auth/node";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { AppLoadContext } from "react-router";
import type { NotificationStreams } from "./stream";

export const NOTIFICATION_STREAM_PATH = "/api/notifications/stream";

/** A reader that lets this much pile up unread is gone or stuck: end its stream. */
const MAX_BUFFERED_BYTES = 64 * 1024;

/**
 * `GET /api/notifications/stream`: the signed-in user's unread count as server-sent events
 * (`event: unread`, `data: {"count":N}`), first at once, then whenever it changes. Mounted
 * before compression (which would hold the events back) and answered here, never by React
 * Router. 401 for a guest, so the browser's EventSource stops instead of retrying.
 */
export function notificationStreamHandler({ streams, auth, logger }: { streams: NotificationStreams; auth: AppLoadContext["auth"]; logger: Logger }): RequestHandler {
  const sessionOf = async (headers: Headers) => {
    const result = await auth.api.getSession({ headers, query: { disableCookieCache: true } });
    return result && !result.user.disabled ? result : null;
  };

  return async (req, res) => {
    res.setHeader("Cache-Control", "private, no-store");
    let session: Awaited<ReturnType<typeof sessionOf>>;
    try {
      session = await sessionOf(fromNodeHeaders(req.headers));
    } catch (error) {
      logger.warn({ err: error }, "notification stream: session could not be read");
      res.status(503).set("Retry-After", "5").type("text/plain").send("Try again in a moment");
      return;
    }
    if (!session) {
      res.status(401).type("text/plain").send("Sign in first");
      return;
    }
    // The tab went away while its session was read: nothing to open (its 'close' has been and gone).
    if (req.socket.destroyed) return;
    if (streams.size >= streams.limits.total) {
      res.status(503).set("Retry-After", "10").type("text/plain").send("Too many open streams; try again in a moment");
      return;
    }

    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "private, no-store, no-transform",
      // nginx and friends: pass each event on at once.
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    });
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true);

    const sessionId = session.session.id;
    const cookie = req.headers.cookie ?? "";
    const opened = streams.open({
      uid: session.user.id,
      sessionKey: sessionId,
      sessionValid: async () => (await sessionOf(new Headers({ cookie })))?.session.id === sessionId,
      sink: {
        write(chunk) {
          if (res.writableLength > MAX_BUFFERED_BYTES) throw new Error("stream reader is not reading");
          res.write(chunk);
        },
        end: () => res.end(),
      },
    });
    if (opened.kind === "ERROR") {
      res.end();
      return;
    }
    res.on("close", opened.close);
  };
}
