import type { Server } from "node:http";

/** The port is taken (EADDRINUSE) or not ours to take (EACCES): said in one line, not a stack trace. */
export class PortUnavailableError extends Error {
  constructor(
    readonly port: number,
    readonly reason: "in-use" | "no-permission",
  ) {
    super(
      reason === "in-use"
        ? `Port ${port} is already in use: another program (perhaps another Sponsorgrid) listens on it. Stop it, or set PORT to a free port.`
        : `Port ${port} cannot be opened by this user: choose a port above 1023 with PORT, or run with the right to bind it.`,
    );
    this.name = "PortUnavailableError";
  }
}

/** Starts listening; a port that cannot be had rejects with a PortUnavailableError instead of crashing the process. */
export function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new PortUnavailableError(port, "in-use"));
      else if (error.code === "EACCES") reject(new PortUnavailableError(port, "no-permission"));
      else reject(error);
    };
    server.once("error", failed);
    const listening = () => {
      server.off("error", failed);
      resolve();
    };
    if (host) server.listen(port, host, listening);
    else server.listen(port, listening);
  });
}
