import { Form, useNavigation } from "react-router";
import { API_RESOURCES, type ApiScope } from "#isomorphic/api-scopes";

export type ApiKeyRow = {
  id: string;
  name: string;
  display: string;
  scopes: ApiScope[];
  created: string;
  expires: string | null;
  expired: boolean;
  lastUsed: string | null;
  revoked: string | null;
};

/** "Opportunities: read and write", one line per resource the key may use. */
export function accessLines(scopes: readonly ApiScope[]): string[] {
  return API_RESOURCES.flatMap((resource) => {
    const read = scopes.includes(`${resource.id}:read`);
    const write = scopes.includes(`${resource.id}:write`);
    if (read && write) return [`${resource.label}: read and write`];
    if (read) return [`${resource.label}: read`];
    if (write) return [`${resource.label}: write`];
    return [];
  });
}

function StateBadge({ row }: { row: ApiKeyRow }) {
  const [text, style] = row.revoked
    ? ["Revoked", "bg-red-50 text-red-800 border-red-700/30"]
    : row.expired
      ? ["Expired", "bg-ink/5 text-ink border-ink/20"]
      : ["Active", "bg-secondary/40 text-ink border-primary/30"];
  return <span className={`rounded-full border px-2.5 py-0.5 text-sm font-semibold ${style}`}>{text}</span>;
}

/**
 * The account's keys, newest first. A key that still works has a Revoke button behind a
 * confirmation (a <details>, so it works without JavaScript); revoking takes effect at once.
 */
export function ApiKeyList({ rows }: { rows: ApiKeyRow[] }) {
  const busy = useNavigation().formData;
  if (rows.length === 0) {
    return (
      <div className="mt-4 rounded-2xl border border-dashed border-ink/25 p-6" data-testid="api-keys-empty">
        <p className="font-semibold">No keys yet</p>
        <p className="mt-2 text-muted">
          Create a key below when you want a script, a spreadsheet or another service to read or change your Sponsorgrid data for you. Nobody
          can use the API for your account without one.
        </p>
      </div>
    );
  }
  return (
    <ul className="mt-4 space-y-4" aria-label="API keys">
      {rows.map((row) => {
        const revoking = busy?.get("intent") === "revoke" && busy.get("keyId") === row.id;
        return (
          <li key={row.id} className="rounded-2xl border border-primary/15 p-4 shadow-sm sm:p-5" data-testid="api-key-row">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-lg font-bold break-all">{row.name}</h3>
              <StateBadge row={row} />
            </div>
            <p className="mt-1 font-mono text-sm break-all">{row.display}</p>
            <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-muted">Permissions</dt>
                <dd>
                  <ul>
                    {accessLines(row.scopes).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </dd>
              </div>
              <div>
                <dt className="text-muted">Created</dt>
                <dd>{row.created}</dd>
              </div>
              <div>
                <dt className="text-muted">{row.expired ? "Expired" : "Expires"}</dt>
                <dd>{row.expires ?? "Never"}</dd>
              </div>
              <div>
                <dt className="text-muted">Last used</dt>
                <dd data-testid="api-key-last-used">{row.lastUsed ?? "Never used"}</dd>
              </div>
              {row.revoked ? (
                <div>
                  <dt className="text-muted">Revoked</dt>
                  <dd>{row.revoked}</dd>
                </div>
              ) : null}
            </dl>
            {row.revoked ? null : (
              <details className="mt-4">
                <summary className="cursor-pointer font-semibold text-red-800">Revoke<span className="sr-only"> {row.name}</span></summary>
                <Form method="post" className="mt-3 space-y-3 rounded-lg border border-red-700/30 p-4">
                  <p>
                    Anything using <strong>{row.name}</strong> stops working at once. This can't be undone: you would make a new key instead.
                  </p>
                  <input type="hidden" name="keyId" value={row.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="revoke"
                    disabled={revoking}
                    className="inline-flex items-center justify-center rounded-full bg-red-700 px-6 py-3 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
                  >
                    {revoking ? "Revoking..." : `Yes, revoke ${row.name}`}
                  </button>
                </Form>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}
