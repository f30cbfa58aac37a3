import type { AnyApiOperation } from "./operation";

/** `/opportunities/{id}` (the document's style) as Express writes it: `/opportunities/:id`. */
export function expressPathOf(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

/**
 * The route pattern a request under /api/v1 was answered by, for the request-time histogram
 * (`/api/v1/opportunities/{id}`), never its raw path; "api: unmatched" for anything else.
 */
export function apiRoutePatterns(operations: readonly AnyApiOperation[]): (path: string) => string {
  const patterns = operations.map((operation) => ({
    pattern: `/api/v1${operation.path}`,
    regex: new RegExp(`^/api/v1${operation.path.replace(/\{[A-Za-z0-9_]+\}/g, "[^/]+")}/?$`),
  }));
  return (path) => patterns.find((candidate) => candidate.regex.test(path))?.pattern ?? "api: unmatched";
}
