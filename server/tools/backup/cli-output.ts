import { BackupFileError } from "./format";
import { BackupRefusal } from "./refusal";

/** A refusal says what to do in its message; anything else is shown whole, stack included. */
export function describeFailure(error: unknown, ...expected: Array<new (...args: never[]) => Error>): string {
  const known = [BackupRefusal, BackupFileError, ...expected];
  if (known.some((kind) => error instanceof kind)) return (error as Error).message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
