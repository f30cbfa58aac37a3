#!/bin/sh
# The app's own role (README "PostgreSQL roles"): it reads and writes the tables but owns none, so
# it cannot rewrite the audit log. Run once by the postgres image, when its volume is first made;
# for a volume made before, run the same statement once by hand. The server grants the role what
# it may do after each migration, which it runs as POSTGRES_USER (MIGRATION_DATABASE_URL).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v app_password="$APP_DB_PASSWORD" <<'SQL'
create role sponsorgrid_app login password :'app_password';
SQL
