/**
 * Every port and address of one end-to-end run, from the one setting E2E_PORT (default 3100):
 * the app on E2E_PORT itself, and the test services and the CORS spec's two sites at fixed
 * offsets above it. Two runs side by side on one machine need bases at least 100 apart (3100 and
 * 3200, say): the offsets differ by at most 93, so no port of one run is a port of the other.
 */
function basePort(): number {
  const port = Number(process.env.E2E_PORT ?? 3100);
  if (!Number.isInteger(port) || port < 1024 || port > 65_535 - 100) throw new Error(`E2E_PORT must be a port from 1024 to 65435, not "${process.env.E2E_PORT}"`);
  return port;
}

export const E2E_PORT = basePort();

export const E2E_PORTS = {
  app: E2E_PORT,
  smtp: E2E_PORT + 25,
  oidc: E2E_PORT + 90,
  control: E2E_PORT + 91,
  corsAllowedSite: E2E_PORT + 92,
  corsOtherSite: E2E_PORT + 93,
} as const;

/** PUBLIC_ORIGIN of the app under test (Playwright's baseURL). */
export const APP_ORIGIN = `http://localhost:${E2E_PORT}`;
/** The bio host's name and port, as pages print a bio page's address ("bio.localhost:3100/ending"). */
export const BIO_HOST = `bio.localhost:${E2E_PORT}`;
/** BIO_ORIGIN of the app under test (the server's default for its port). */
export const BIO_ORIGIN = `http://${BIO_HOST}`;

/** The embedded database's folder of this run: emptied at each start, one per port so runs side by side keep apart. */
export const E2E_DATA_DIR = `.e2e-data-${E2E_PORT}`;
