import fs from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

/**
 * The environment each deploy example gives the app, read from the files themselves (compose.yaml,
 * deploy/kubernetes.yaml, the Dockerfile's ENV lines), so the tests that start a release with it
 * follow the files as they change.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

export type Yaml = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Env = Record<string, string>;

/** Every document of a YAML file; a syntax error throws with the parser's message. */
export function parseYaml(file: string): Yaml[] {
  return parseAllDocuments(read(file)).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((error) => error.message).join("; ")}`);
    return document.toJS() as Yaml;
  });
}

/** The image's ENV lines (NODE_ENV=production, DOTENV=off, PORT, DATA_DIR). */
export function imageEnvironment(): Env {
  const joined = read("Dockerfile").replace(/\\\n/g, " ");
  return Object.fromEntries([...joined.matchAll(/^ENV (.+)$/gm)].flatMap((line) => line[1]!.trim().split(/\s+/).map((pair) => pair.split("=") as [string, string])));
}

/**
 * A compose service's `environment` as `docker compose` hands it over: `${VAR:?message}` and
 * `${VAR:-default}` filled from `shell` (a required one unset throws, as compose stops), and an
 * entry without a value passed on only when the shell sets it.
 */
export function composeEnvironment(service: string, shell: Env): Env {
  const [compose] = parseYaml("compose.yaml");
  const environment = compose!.services[service].environment as Record<string, string | null>;
  const fill = (value: string) =>
    value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
      const given = shell[name];
      if (given) return given;
      if (kind === "-") return rest ?? "";
      throw new Error(`compose.yaml (${service}): ${name} is unset${kind === "?" ? `: ${rest}` : ""}`);
    });
  const env: Env = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value === null) {
      if (shell[name]) env[name] = shell[name];
    } else env[name] = fill(String(value));
  }
  return env;
}

/**
 * The secret documented at the top of deploy/kubernetes.yaml, key by key: `$(openssl rand -hex N)`
 * as the shell makes it, and a placeholder ending in `...` filled as an operator would.
 */
export function kubernetesSecret(): Env {
  return Object.fromEntries(
    [...read("deploy/kubernetes.yaml").matchAll(/--from-literal=([A-Z_]+)=(\$\(openssl rand -hex \d+\)|\S+)/g)].map(([, name, value]) => [
      name!,
      value!.replace(/^\$\(openssl rand -hex (\d+)\)$/, (_, n: string) => "ab".repeat(Number(n))).replace(/\.\.\.$/, "Xy7".repeat(8)),
    ]),
  );
}

/** deploy/kubernetes.yaml's documents of one kind. */
export function kubernetesObject(kind: string): Yaml {
  const found = parseYaml("deploy/kubernetes.yaml").find((document) => document.kind === kind);
  if (!found) throw new Error(`deploy/kubernetes.yaml has no ${kind}`);
  return found;
}

/** The app container's own `env` entries in the Deployment. */
export function kubernetesPodEnvironment(): Env {
  const [container] = kubernetesObject("Deployment").spec.template.spec.containers;
  return Object.fromEntries((container.env as Yaml[]).map((variable) => [variable.name as string, String(variable.value)]));
}
