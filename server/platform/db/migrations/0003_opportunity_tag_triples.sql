-- Tag keys are compared byte by byte (COLLATE "C"), as the application sorts them
-- (server/opportunities/tag-keys.ts). Under a linguistic collation such as en_US,
-- 'newsletter sponsorship' sorts before 'new york' and the stored pair would not match
-- the one a filter asks for.
CREATE OR REPLACE FUNCTION opportunity_tag_pairs(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(a || '|' || b ORDER BY a COLLATE "C", b COLLATE "C"), '{}'::text[])
        FROM unnest(tags) AS a, unnest(tags) AS b WHERE a COLLATE "C" < b COLLATE "C" $$;
--> statement-breakpoint
-- Rows written under another collation get their pairs again (none on a "C" database).
UPDATE "opportunity_posts" SET "tags" = "tags" WHERE "tag_pairs" IS DISTINCT FROM opportunity_tag_pairs("tags");
--> statement-breakpoint
-- Every unordered triple of a post's tags, as 'a|b|c' with a < b < c. A filter on three or
-- more tags looks up triples that cover them: a triple of common tags is rarer again than
-- any pair in it, so the index reads a shorter posting list (docs/decisions/0007-tag-pairs.md).
CREATE FUNCTION opportunity_tag_triples(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(a || '|' || b || '|' || c ORDER BY a COLLATE "C", b COLLATE "C", c COLLATE "C"), '{}'::text[])
        FROM unnest(tags) AS a, unnest(tags) AS b, unnest(tags) AS c
        WHERE a COLLATE "C" < b COLLATE "C" AND b COLLATE "C" < c COLLATE "C" $$;
--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "tag_triples" text[] GENERATED ALWAYS AS (opportunity_tag_triples("tags")) STORED;
--> statement-breakpoint
CREATE INDEX "opportunity_posts_tag_triples_gin_idx" ON "opportunity_posts" USING gin ("tag_triples");
