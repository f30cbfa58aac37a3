import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config";
import { imageEnvironment, kubernetesPodEnvironment, kubernetesSecret, parseYaml, type Yaml } from "#tests/support/deploy-examples";

/**
 * The deploy recipe's files, checked as far as this machine can without a container runtime
 * (ADR 0043): nginx's own parser reads the nginx files, a YAML parser the compose and Kubernetes
 * files, and the Dockerfile is held to what the image promises. tests/unit/release.test.ts runs
 * the release itself.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const SERVE_FLAGS: string[] = JSON.parse(read("package.json"))
  .scripts.serve.split(" ")
  .filter((word: string) => word.startsWith("--"));

/**
 * What a real deployment sets (README "Deploy", Environment): each example names every one, so an
 * operator filling it in misses none. The payment choice is PAYMENT_PROVIDER and Stripe's keys.
 */
const REAL_DEPLOYMENT = ["DATABASE_URL", "SESSION_SECRET", "PUBLIC_ORIGIN", "BIO_ORIGIN", "TRUST_PROXY", "PAYMENT_PROVIDER", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL", "METRICS_TOKEN"];

/** The major version in `postgres:16`, `postgres:16.4-bookworm`. */
const postgresMajor = (image: string) => Number(/^postgres:(\d+)/.exec(image)?.[1]);

describe("deploy/nginx.conf and deploy/nginx-compose.conf", () => {
  let dir: string;
  let production: string;
  let compose: string;

  /** `nginx -t`, then the whole configuration as nginx read it (`-T`: includes inlined). */
  const check = (name: string) => {
    const args = ["-p", `${dir}/`, "-c", path.join(dir, name), "-e", path.join(dir, "error.log")];
    const tested = spawnSync("nginx", ["-t", ...args], { encoding: "utf8" });
    expect(tested.stderr).toContain("test is successful");
    expect(tested.status).toBe(0);
    return spawnSync("nginx", ["-T", "-q", ...args], { encoding: "utf8" }).stdout;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sponsorgrid-nginx-test-"));
    // A throwaway certificate where the placeholders point, and the logs in the temporary folder.
    for (const host of ["app", "bio"]) {
      fs.mkdirSync(path.join(dir, host));
      execFileSync("openssl", [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
        "-subj", `/CN=${host}.sponsorgrid.example`,
        "-keyout", path.join(dir, host, "privkey.pem"), "-out", path.join(dir, host, "fullchain.pem"),
      ], { stdio: "ignore" });
    }
    const local = (text: string) => text.replaceAll("/etc/ssl/sponsorgrid/", `${dir}/`).replaceAll("/var/log/nginx/", `${dir}/`);
    for (const name of ["nginx.conf", "nginx-compose.conf", "sponsorgrid-proxy.conf"]) {
      let text = local(read(`deploy/${name}`));
      // "app" resolves only inside compose's network; nginx -t looks the name up.
      if (name === "nginx-compose.conf") text = text.replace(/server app:3000\b/, "server 127.0.0.1:3000");
      fs.writeFileSync(path.join(dir, name), text);
    }
    production = check("nginx.conf");
    compose = check("nginx-compose.conf");
  });

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("terminates TLS for the app host and the bio host, and sends plain HTTP to HTTPS", () => {
    for (const host of ["sponsorgrid.example", "bio.sponsorgrid.example"]) {
      expect(production).toMatch(new RegExp(`listen 443 ssl[^}]*server_name ${host.replaceAll(".", "\\.")};[^}]*ssl_certificate `));
    }
    expect(production).toMatch(/listen 80;[\s\S]*return 301 https:\/\/\$host\$request_uri;/);
  });

  it("balances over several app processes", () => {
    const upstream = /upstream sponsorgrid_app \{([^}]*)\}/.exec(production)?.[1] ?? "";
    expect(upstream.match(/^\s*server /gm)?.length).toBeGreaterThanOrEqual(2);
  });

  it("tells the app who the client is and which request this is, in the headers TRUST_PROXY reads", () => {
    for (const config of [production, compose]) {
      expect(config).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
      expect(config).toContain("proxy_set_header X-Forwarded-Proto $scheme;");
      expect(config).toContain("proxy_set_header X-Forwarded-Host $host;");
      expect(config).toContain("proxy_set_header Host $host;");
      expect(config).toContain("proxy_set_header X-Request-Id $request_id;");
      expect(config).toContain("client_max_body_size 10m;");
    }
  });

  it("passes the notification stream unbuffered and keeps it open well past its 25 s heartbeat", () => {
    for (const config of [production, compose]) {
      const stream = /location = \/api\/notifications\/stream \{([^}]*)\}/.exec(config)?.[1] ?? "";
      expect(stream).toContain("proxy_buffering off;");
      expect(stream).toMatch(/proxy_read_timeout (\d+)h;/);
    }
  });
});

describe("compose.yaml", () => {
  const [compose] = parseYaml("compose.yaml");

  it("brings up PostgreSQL with a volume and a health check, and the app's replicas once it is healthy", () => {
    const { postgres, app } = compose!.services;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(postgres.volumes[0]).toMatch(/:\/var\/lib\/postgresql\/data$/);
    expect(postgres.healthcheck.test).toContain("pg_isready");
    expect(app.build).toBe(".");
    expect(app.deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(app.depends_on.postgres.condition).toBe("service_healthy");
    // The app as its own role, which owns nothing; migrations as the owner (ADR 0060).
    expect(app.environment.DATABASE_URL).toMatch(/^postgres:\/\/sponsorgrid_app:\$\{APP_DB_PASSWORD:\?[^}]+\}@postgres:5432\/sponsorgrid$/);
    expect(app.environment.MIGRATION_DATABASE_URL).toMatch(/^postgres:\/\/sponsorgrid:\$\{POSTGRES_PASSWORD:\?[^}]+\}@postgres:5432\/sponsorgrid$/);
    expect(postgres.volumes).toContain("./deploy/postgres-init:/docker-entrypoint-initdb.d:ro");
    expect(read("deploy/postgres-init/app-role.sh")).toMatch(/create role sponsorgrid_app login password :'app_password';/);
    expect(app.environment.TRUST_PROXY).toBe("1");
  });

  it("refuses to start without the secrets and origins, saying what to set", () => {
    const { postgres, app } = compose!.services;
    for (const value of [postgres.environment.POSTGRES_PASSWORD, postgres.environment.APP_DB_PASSWORD, app.environment.SESSION_SECRET, app.environment.PUBLIC_ORIGIN, app.environment.BIO_ORIGIN]) {
      // ${VAR:?message}: compose stops with the message when VAR is unset or empty.
      const [, name, message] = /^\$\{(\w+):\?([^}]+)\}$/.exec(value) ?? [];
      expect(message, value).toMatch(new RegExp(`^set ${name} to .{20,}`));
    }
  });

  it("passes optional settings only when set (an empty one would be refused at start)", () => {
    const optional = Object.entries(compose!.services.app.environment).filter(([, value]) => value === null);
    expect(optional.length).toBeGreaterThan(10);
    const config = read("server/platform/config.ts");
    for (const [name] of optional) expect(config, name).toContain(`${name}:`);
  });

  it("names every variable a real deployment sets, the payment provider chosen outright", () => {
    const { app } = compose!.services;
    expect(Object.keys(app.environment)).toEqual(expect.arrayContaining(REAL_DEPLOYMENT));
    expect(app.environment.PAYMENT_PROVIDER).toMatch(/^\$\{PAYMENT_PROVIDER:\?set PAYMENT_PROVIDER to stripe .*sandbox/);
    // Its header's start command sets every required variable.
    const required = [...read("compose.yaml").matchAll(/\$\{(\w+):\?/g)].map((match) => match[1]!);
    const header = read("compose.yaml").split("\nname:")[0]!;
    for (const name of new Set(required)) expect(header, name).toMatch(new RegExp(`\\b${name}=`));
  });

  it("backs up every day with the app's image, as the tables' owner, into a volume, keeping the newest and handing each to a copy command", () => {
    const { app, backup } = compose!.services;
    expect(backup.image).toBe(app.image);
    expect(backup.build).toBe(app.build);
    const [, script] = /^\.\/(deploy\/[\w-]+\.sh):(\S+):ro$/.exec(backup.volumes.find((mount: string) => mount.startsWith("./deploy/"))) ?? [];
    expect(fs.existsSync(path.join(ROOT, script!))).toBe(true);
    expect(backup.command).toEqual(["sh", backup.volumes[0].split(":")[1]]);
    expect(backup.volumes).toContain(`backups:${backup.environment.BACKUP_DIR}`);
    expect(compose!.volumes).toHaveProperty("backups");
    // The Dockerfile makes the folder, owned by the user the image runs as, so a new volume is too.
    expect(read("Dockerfile")).toMatch(new RegExp(`^RUN mkdir -p .*${backup.environment.BACKUP_DIR}\\b.* && chown node:node .*${backup.environment.BACKUP_DIR}\\b`, "m"));
    expect(backup.environment.DATABASE_URL).toBe(app.environment.DATABASE_URL);
    expect(backup.environment.MIGRATION_DATABASE_URL).toBe(app.environment.MIGRATION_DATABASE_URL);
    expect(backup.environment.BACKUP_KEEP).toMatch(/^\$\{BACKUP_KEEP:-\d+\}$/);
    expect(backup.environment.BACKUP_AT).toMatch(/^\$\{BACKUP_AT:-\d\d:\d\d\}$/);
    expect(backup.environment).toHaveProperty("BACKUP_COPY_COMMAND", null);
    // No server runs in it, so the image's /readyz check would call it unhealthy.
    expect(backup.healthcheck.disable).toBe(true);
    expect(backup.depends_on.postgres.condition).toBe("service_healthy");
    expect(backup.restart).toBe("unless-stopped");
  });

  it("puts nginx in front with this folder's configuration, once the app is healthy", () => {
    const { nginx } = compose!.services;
    expect(nginx.depends_on.app.condition).toBe("service_healthy");
    for (const mount of nginx.volumes as string[]) {
      const [source] = mount.split(":");
      expect(fs.existsSync(path.join(ROOT, source!)), mount).toBe(true);
    }
    expect(nginx.volumes).toContain("./deploy/nginx-compose.conf:/etc/nginx/nginx.conf:ro");
  });
});

describe("deploy/kubernetes.yaml", () => {
  const documents = parseYaml("deploy/kubernetes.yaml");
  const byKind = (kind: string) => documents.find((document) => document.kind === kind)!;

  it("runs two non-root pods with a read-only root, DATA_DIR mounted, probed on /livez and /readyz", () => {
    const deployment = byKind("Deployment");
    expect(deployment.spec.replicas).toBe(2);
    const pod = deployment.spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const [container] = pod.containers;
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(container.livenessProbe.httpGet.path).toBe("/livez");
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.volumeMounts.map((mount: Yaml) => mount.mountPath)).toContain("/data");
    expect(container.envFrom).toEqual([{ secretRef: { name: "sponsorgrid" } }]);
  });

  it("starts with the documented secret: its variables and the pod's pass the production settings check", () => {
    const podEnv = kubernetesPodEnvironment();
    // The image's own ENV lines (NODE_ENV=production, DATA_DIR, DOTENV=off).
    const imageEnv = imageEnvironment();
    expect(imageEnv).toMatchObject({ NODE_ENV: "production", DOTENV: "off", DATA_DIR: "/data" });
    const secret = kubernetesSecret();
    expect(Object.keys(secret)).toEqual(expect.arrayContaining(["DATABASE_URL", "SESSION_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL", "METRICS_TOKEN"]));
    const env = { ...imageEnv, ...podEnv, ...secret };
    expect(() => loadConfig(env)).not.toThrow();
    // Without the Stripe keys it refuses to start, unless the sandbox is chosen outright, as the comment says.
    const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _hook, ...noStripe } = env;
    expect(() => loadConfig(noStripe)).toThrow(/PAYMENT_PROVIDER/);
    expect(loadConfig({ ...noStripe, PAYMENT_PROVIDER: "sandbox" }).PAYMENT_PROVIDER).toBe("sandbox");
  });

  it("has a Job that runs the migrations alone, with the app's image and secret", () => {
    const job = byKind("Job");
    const [container] = job.spec.template.spec.containers;
    const [app] = byKind("Deployment").spec.template.spec.containers;
    expect(container.command).toEqual(["node", "server.js", "migrate"]);
    expect(container.image).toBe(app.image);
    expect(container.envFrom).toEqual(app.envFrom);
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it("names every variable a real deployment sets, in the pod or its documented secret, with the two roles", () => {
    const [container] = byKind("Deployment").spec.template.spec.containers;
    const secretKeys = [...read("deploy/kubernetes.yaml").matchAll(/--from-literal=([A-Z_]+)=/g)].map((match) => match[1]!);
    const named = [...container.env.map((variable: Yaml) => variable.name), ...secretKeys];
    // PAYMENT_PROVIDER is stripe by default with the keys; the comment names the sandbox instead.
    expect(named).toEqual(expect.arrayContaining(REAL_DEPLOYMENT.filter((name) => name !== "PAYMENT_PROVIDER")));
    expect(read("deploy/kubernetes.yaml")).toMatch(/put PAYMENT_PROVIDER=sandbox in it instead/);
    expect(secretKeys).toContain("MIGRATION_DATABASE_URL");
  });

  it("backs up every night with the app's image and secret (the owner's URL in it), into a claim, keeping the newest 14", () => {
    const cron = byKind("CronJob");
    const [app] = byKind("Deployment").spec.template.spec.containers;
    const pod = cron.spec.jobTemplate.spec.template.spec;
    const [container] = pod.containers;
    expect(cron.spec.schedule).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(cron.spec.concurrencyPolicy).toBe("Forbid");
    expect(container.image).toBe(app.image);
    expect(container.envFrom).toEqual(app.envFrom);
    expect(container.command).toEqual(["node", "server.js", "backup", "--dir", "/backups", "--keep", "14"]);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const mounts = Object.fromEntries(container.volumeMounts.map((mount: Yaml) => [mount.mountPath, mount.name]));
    // The read-only root leaves /tmp, where pg_dump's output waits, writable only as a volume.
    expect(Object.keys(mounts).sort()).toEqual(["/backups", "/tmp"]);
    const claim = pod.volumes.find((volume: Yaml) => volume.name === mounts["/backups"]).persistentVolumeClaim.claimName;
    expect(byKind("PersistentVolumeClaim").metadata.name).toBe(claim);
    expect(read("deploy/kubernetes.yaml")).toMatch(/BACKUP_COPY_COMMAND/);
  });

  it("exposes the pods through a Service and an Ingress for both hosts that does not buffer the stream", () => {
    expect(byKind("Service").spec.selector).toEqual(byKind("Deployment").spec.selector.matchLabels);
    const ingress = byKind("Ingress");
    expect(ingress.spec.rules).toHaveLength(2);
    expect(ingress.metadata.annotations["nginx.ingress.kubernetes.io/proxy-buffering"]).toBe("off");
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it("builds with the release script CI tests, and runs the Node major package.json asks for, which CI installs and tests with", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/^RUN bash scripts\/release\.sh \/release\b/m);
    expect(runtime).toMatch(/^COPY --from=build \/release \/app$/m);
    const engines: string = JSON.parse(read("package.json")).engines.node;
    expect(engines).toMatch(/^>=\d+$/);
    const major = Number(engines.slice(2));
    for (const stage of stages) expect(stage).toMatch(new RegExp(`^node:${major}-bookworm-slim\\b`));
    expect(read(".ci/run")).toMatch(new RegExp(`^NODE_MAJOR=${major}$`, "m"));
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(major);
    // npm refuses an older Node outright rather than install with a warning.
    expect(read(".npmrc")).toMatch(/^engine-strict=true$/m);
  });

  it("runs as a non-root user with settings from the environment only, DATA_DIR a volume", () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/DOTENV=off/);
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime)?.[1];
    expect(dataDir).toBe("/data");
    expect(runtime).toMatch(new RegExp(`^VOLUME ${dataDir}$`, "m"));
    expect(runtime).toMatch(/^RUN mkdir -p \/data \/backups && chown node:node \/data \/backups$/m);
  });

  it("carries pg_dump and pg_restore of the major version compose's PostgreSQL runs, from the PostgreSQL project's signed repository, and no apt lists", () => {
    const major = Number(/^ARG PG_MAJOR=(\d+)$/m.exec(runtime)?.[1]);
    const [compose] = parseYaml("compose.yaml");
    expect(major).toBe(postgresMajor(compose!.services.postgres.image));
    const install = /^RUN set -eux;[\s\S]*?(?=^\S)/m.exec(runtime)?.[0] ?? "";
    expect(install).toMatch(/apt-get install -y --no-install-recommends "postgresql-client-\$\{PG_MAJOR\}"/);
    expect(install).toMatch(/https:\/\/www\.postgresql\.org\/media\/keys\/ACCC4CF8\.asc/);
    expect(install).toMatch(/deb \[signed-by=(\S+)\] https:\/\/apt\.postgresql\.org\/pub\/repos\/apt bookworm-pgdg main/);
    expect(install).toMatch(/rm -rf \/var\/lib\/apt\/lists\/\*/);
    expect(install).not.toMatch(/install -y (?!--no-install-recommends)/);
    // The build fails rather than ship another major.
    expect(install).toMatch(/pg_dump --version \| grep -q " \$\{PG_MAJOR\}\\\."/);
  });

  it("reports health from /readyz and starts node with the serve script's flags", () => {
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/readyz/m);
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? "[]");
    expect(cmd).toEqual(["node", ...SERVE_FLAGS, "server.js"]);
  });

  it("sends no installed modules, build output, data or settings to the build", () => {
    const ignored = read(".dockerignore").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "build", "data", ".env", ".git"]));
  });
});

describe("README's backup lines", () => {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("### Backups and restore\n"), readme.indexOf("\n## Test it\n"));
  const blocks = [...section.matchAll(/```(?:sh|cron)\n([\s\S]*?)```/g)].map((match) => match[1]!);

  it("run where the image and a release do: `node server.js`, never npm scripts or tsx", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(block).not.toMatch(/\bnpm\b|\btsx\b/);
    const commands = blocks.join("\n").match(/node server\.js (backup|restore)[^\n#]*/g) ?? [];
    expect(commands.length).toBeGreaterThanOrEqual(6);
    // Only the options the commands take (server/tools/backup/commands.ts).
    for (const command of commands) {
      for (const option of command.match(/--[\w-]+/g) ?? []) expect(["--dir", "--keep", "--out", "--force"], command).toContain(option);
    }
  });
});

