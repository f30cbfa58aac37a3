// Waits until the servers start-e2e-servers.ts started answer, each within its own start-up
// timeout, and fails at once if one of them has died (its stderr is in STARTED_SERVERS_FILES.log).
// Run it just before `E2E_SERVERS_STARTED=1 npx playwright test`: Playwright starts servers of its
// own when the addresses do not answer yet, and those would clash with the ones still booting.
import fs from "node:fs";
import { e2eServers, STARTED_SERVERS_FILES } from "./e2e-servers";
import { isRunning, startedPids } from "./started-e2e-servers";

const pids = startedPids();
// Only their names, addresses and timeouts are read here: the secret is no matter.
const servers = e2eServers("");
if (pids.length !== servers.length) {
  console.error(`No servers started on this port (${STARTED_SERVERS_FILES.pids}): run tests/support/start-e2e-servers.ts first.`);
  process.exit(1);
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

await Promise.all(
  servers.map(async (server, index) => {
    const deadline = Date.now() + server.timeout;
    while (!(await answers(server.url))) {
      const died = !isRunning(pids[index]!);
      if (died || Date.now() > deadline) {
        console.error(`${server.name} ${died ? "has stopped" : `did not answer ${server.url} in ${server.timeout / 1000} s`}:`);
        console.error(fs.readFileSync(STARTED_SERVERS_FILES.log, "utf8").slice(-4_000));
        process.exit(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(`${server.name} answers at ${server.url}`);
  }),
);
