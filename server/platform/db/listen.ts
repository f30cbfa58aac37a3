import pg from "pg";

/** A LISTEN that stays: `close()` stops it for good. */
export type Listening = { close(): Promise<void> };

export type ListenOptions = {
  /** Called with each notification's payload, in commit order. */
  onNotify(payload: string): void;
  /**
   * Called once the listener is back after its connection dropped: whatever
   * was committed in between was never delivered, so the caller refreshes
   * everything it derives from the channel.
   */
  onReconnect?(): void;
  /**
   * Called as soon as a listening connection is found dropped, before any reconnection: until
   * `onReconnect`, notifications are not delivered, so the caller stops trusting what it derives.
   */
  onLost?(): void;
  onError?(error: Error): void;
  /** First and longest wait between reconnection attempts (doubling in between). */
  backoffMs?: { first: number; max: number };
};

const QUOTED_CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * PostgreSQL: one connection of its own per listening process, outside the
 * pool (a pooled connection is handed to other queries, and LISTEN belongs to
 * the session). When it drops — server restart, failover,
 * pg_terminate_backend — it reconnects with growing waits and says so through
 * `onReconnect`.
 */
export async function listenPostgres(connectionString: string, channel: string, options: ListenOptions): Promise<Listening> {
  if (!QUOTED_CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  const { first, max } = options.backoffMs ?? { first: 100, max: 5_000 };
  let client: pg.Client | null = null;
  let closed = false;
  let wait = first;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: `listen:${channel}` });
    let lost = false;
    // Only a connection that was listening reconnects from here; one that fails while
    // connecting rejects `connect()`, and its caller decides.
    const onLost = (error?: Error) => {
      if (lost || client !== next) return;
      lost = true;
      client = null;
      options.onLost?.();
      if (error) options.onError?.(error);
      next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) options.onNotify(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    wait = first;
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().then(
        () => {
          if (!closed) options.onReconnect?.();
        },
        (error: Error) => {
          options.onError?.(error);
          wait = Math.min(max, wait * 2);
          scheduleReconnect();
        },
      );
    }, wait);
    retry.unref();
  };

  // The first connection fails loudly: a server that cannot listen should not start half-live.
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
