import type { Config } from "#server/platform/config";
import { isLocalMachineRequest } from "#server/platform/loopback";

/**
 * Who may read /dev/mailbox, which holds live verification and password-reset links: only this
 * machine, and only where DEV_MAILBOX is on (the default outside production). Being "this
 * machine" is judged from the request, which a same-host proxy that forwards no client address
 * makes look local — so in production the mailbox is off whatever the proxy sends.
 */
export function mayReadMailbox(config: Pick<Config, "DEV_MAILBOX">, clientIp: string, headers: Headers): boolean {
  return config.DEV_MAILBOX && isLocalMachineRequest(clientIp, headers);
}
