import net from "node:net";
import { freePort } from "./server-process";

export type TcpRelay = {
  port: number;
  /** Drops every open connection and refuses new ones, as a database restart or network fault looks. */
  cut(): Promise<void>;
  /** Accepts connections again. */
  restore(): Promise<void>;
};

/** Relays loopback connections to `target` until cut. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const port = await freePort();
  let server: net.Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await listen();
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server!.close(() => resolve());
      }),
    restore: listen,
  };
}

/** `url` with its host and port replaced by the relay's. */
export function throughRelay(url: string, relay: TcpRelay): string {
  const relayed = new URL(url);
  relayed.hostname = "127.0.0.1";
  relayed.port = String(relay.port);
  return relayed.toString();
}
