# syntax=docker/dockerfile:1
# Sponsorgrid's image: the release that scripts/release.sh builds (the same script CI tests,
# ADR 0043), run by Node as a non-root user from a read-only folder. README.md, "Deploy".
#   docker build -t sponsorgrid .
#   docker run -p 3000:3000 -v sponsorgrid-data:/data -e SESSION_SECRET=… sponsorgrid

FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
# npm ci, build, prune to production dependencies; then nobody may write the release, its owner included.
RUN bash scripts/release.sh /release && chmod -R a-w /release

FROM node:24-bookworm-slim
# pg_dump and pg_restore for `node server.js backup|restore` on PostgreSQL. pg_dump refuses a server
# of a newer major version, so PG_MAJOR must be the deployed server's: compose.yaml's postgres:16, or
# `docker build --build-arg PG_MAJOR=17 .` for a 17 (tests/unit/deploy-files.test.ts holds the two
# together). Debian's own client is 15, so the client comes from the PostgreSQL project's apt
# repository, whose signing key node fetches over HTTPS, as the project's instructions do with curl
# (neither curl nor gnupg is kept in the image).
ARG PG_MAJOR=16
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates; \
    node -e "fetch('https://www.postgresql.org/media/keys/ACCC4CF8.asc').then(async (r) => { if (!r.ok) throw new Error('HTTP ' + r.status); require('node:fs').writeFileSync('/usr/share/keyrings/apt.postgresql.org.asc', await r.text()); })"; \
    echo "deb [signed-by=/usr/share/keyrings/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list; \
    apt-get update; \
    apt-get install -y --no-install-recommends "postgresql-client-${PG_MAJOR}"; \
    rm -rf /var/lib/apt/lists/*; \
    pg_dump --version | grep -q " ${PG_MAJOR}\."
# Settings come from the environment only: DOTENV=off never reads a .env file.
# DATA_DIR holds the embedded database (without DATABASE_URL), its lock and the generated cookie
# secret (without SESSION_SECRET): the only place the server writes.
ENV NODE_ENV=production \
    DOTENV=off \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root, mode without write bits, run as `node` (uid 1000): the app folder is read-only.
COPY --from=build /release /app
# /backups: where compose's backup service and the Kubernetes CronJob write (a volume made from
# this folder starts owned by `node`).
RUN mkdir -p /data /backups && chown node:node /data /backups
VOLUME /data
USER node
EXPOSE 3000
# /readyz: 200 when the database answers and migrations are applied, 503 with the reason otherwise
# (and from SIGTERM on). The first start migrates and adds the demo data: give it time.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The flags of `npm run serve` (package.json; bench/README.md, Memory). npm is not needed at run time.
CMD ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "server.js"]
