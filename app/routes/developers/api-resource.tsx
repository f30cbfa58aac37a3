import { Link } from "react-router";
import { apiReference, apiResourceLinks } from "#server/features/api/reference";
import { OperationSection } from "#app/components/developers/OperationSection";
import { API_REFERENCE_PATH, ApiReferenceFrame } from "#app/components/developers/ApiReferenceFrame";
import { pageMeta } from "#page-kit/meta";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/api-resource";

// Plain reading: the page needs no JavaScript.
export const handle = { hydrate: false };

/** GET /developers/api/:resource: one resource's operations; a resource the API does not have is the site's 404. */
export function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.config.PUBLIC_ORIGIN;
  const group = apiReference(origin).groups.find((candidate) => candidate.slug === params.resource);
  if (!group) refuse("not-found");
  return { group, resources: apiResourceLinks(origin) };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData ? `${args.loaderData.group.tag} · API reference` : "API reference",
    description: args.loaderData
      ? `The Sponsorgrid API's ${args.loaderData.group.tag.toLowerCase()} operations: ${args.loaderData.group.operations.map((operation) => operation.summary.toLowerCase()).join("; ")}.`
      : undefined,
  });

export default function ApiResource({ loaderData }: Route.ComponentProps) {
  const { group, resources } = loaderData;
  return (
    <ApiReferenceFrame resources={resources} current={`${API_REFERENCE_PATH}/${group.slug}`}>
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">
        <Link to={API_REFERENCE_PATH} className="no-underline">
          API reference
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold sm:text-4xl">{group.tag}</h1>
      <p className="mt-3">
        Every call needs a key (see <Link to={`${API_REFERENCE_PATH}#authentication`}>Authentication</Link>); errors, paging and idempotency work as the{" "}
        <Link to={API_REFERENCE_PATH}>overview</Link> says.
      </p>
      <nav aria-label={`${group.tag} operations`} className="mt-6 rounded-2xl bg-secondary/30 p-5">
        <ul className="space-y-1">
          {group.operations.map((operation) => (
            <li key={operation.id}>
              <a href={`#${operation.id}`}>{operation.summary}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">
        {group.operations.map((operation) => (
          <OperationSection key={operation.id} operation={operation} />
        ))}
      </div>
    </ApiReferenceFrame>
  );
}
