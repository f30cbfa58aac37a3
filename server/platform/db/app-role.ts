import pg from "pg";

/**
 * The app's own PostgreSQL role (README "PostgreSQL roles", ADR 0060). Migrations run as the
 * owner of the tables (MIGRATION_DATABASE_URL); the app connects as a role that owns nothing: it
 * reads and writes every table, but may only insert into and read `audit_log`. Not owning the
 * table, it cannot disable the append-only triggers either (that takes the owner), so the app,
 * or anyone who takes over its connection, cannot rewrite history.
 *
 * Run by the owner after every migration, so a table a migration added is granted too. Idempotent.
 */
const DATA_SCHEMAS = ["public", "sandbox"];

export async function grantAppRole(ownerUrl: string, appRole: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(appRole);
    const [{ owns } = { owns: false }] = (
      await client.query<{ owns: boolean }>("select exists (select 1 from pg_tables where schemaname = 'public' and tableowner = $1) as owns", [appRole])
    ).rows;
    if (owns) throw new Error(`The app's role ${appRole} owns tables: give MIGRATION_DATABASE_URL the owner's role, and DATABASE_URL another one`);
    // The product's tables, and the sandbox's in their own schema when it is the provider.
    const schemas = (await client.query<{ name: string }>("select nspname as name from pg_namespace where nspname = any($1)", [DATA_SCHEMAS])).rows.map((row) => client.escapeIdentifier(row.name));
    await client.query("begin");
    for (const schema of schemas) {
      await client.query(`grant usage on schema ${schema} to ${role}`);
      await client.query(`grant select, insert, update, delete on all tables in schema ${schema} to ${role}`);
      await client.query(`grant usage, select, update on all sequences in schema ${schema} to ${role}`);
    }
    await client.query(`revoke update, delete, truncate, references, trigger on public.audit_log from ${role}`);
    // The migrations' journals: /readyz reads them to tell a database that lacks a migration.
    await client.query(`grant usage on schema drizzle to ${role}`);
    await client.query(`grant select on all tables in schema drizzle to ${role}`);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** The role a connection string signs in as. */
export function roleOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || process.env.PGUSER || "postgres";
}
