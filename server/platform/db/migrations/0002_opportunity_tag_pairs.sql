-- Every unordered pair of a post's tags, as 'a|b' with a < b. A filter on several
-- tags looks up disjoint pairs that cover them in this column's GIN index: a pair
-- of common tags is far rarer than either tag, so the index reads short posting
-- lists instead of intersecting long ones (see docs/decisions/0007-tag-pairs.md).
CREATE FUNCTION opportunity_tag_pairs(tags text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(a || '|' || b ORDER BY a, b), '{}'::text[])
        FROM unnest(tags) AS a, unnest(tags) AS b WHERE a < b $$;
--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "tag_pairs" text[] GENERATED ALWAYS AS (opportunity_tag_pairs("tags")) STORED;
--> statement-breakpoint
CREATE INDEX "opportunity_posts_tag_pairs_gin_idx" ON "opportunity_posts" USING gin ("tag_pairs");
