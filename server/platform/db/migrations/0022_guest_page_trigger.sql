-- Guest pages (server/page-cache/, the bio host) are kept per generation of the sequence
-- guest_page_generation. Whoever writes a row a guest page shows — the app, the seed, a script,
-- an operator's SQL console — moves it, here, once per statement: no writer can forget to.
--
-- The sequence moves at the statement, before its transaction commits. So that a reader never
-- renders the old rows under the new generation, every such transaction also holds a shared
-- advisory lock (key 7_301_015, "guest pages") until it ends, and the generation is read through
-- settled_guest_page_generation(), which answers NULL while any of them is still open. Writers
-- share the lock, so they never wait for each other.
-- pg_notify is delivered at COMMIT: on the embedded database it moves the generation the one
-- process keeps in memory, before the writer's response goes out.
CREATE FUNCTION "guest_pages_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7301015);
  PERFORM nextval('guest_page_generation');
  PERFORM pg_notify('guest_pages_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "settled_guest_page_generation"() RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  -- Held until the reading statement ends; a writer waiting for its shared lock waits that long.
  IF NOT pg_try_advisory_xact_lock(7301015) THEN
    RETURN NULL;
  END IF;
  RETURN (SELECT last_value::text || ':' || is_called::text FROM guest_page_generation);
END
$$;
--> statement-breakpoint
CREATE TRIGGER "guest_pages_opportunity_posts" AFTER INSERT OR UPDATE OR DELETE ON "opportunity_posts"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_hearts" AFTER INSERT OR UPDATE OR DELETE ON "hearts"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_totals" AFTER INSERT OR UPDATE OR DELETE ON "totals"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_tags" AFTER INSERT OR UPDATE OR DELETE ON "tags"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_bio_pages" AFTER INSERT OR UPDATE OR DELETE ON "bio_pages"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
-- A bio page offers sponsorships only while its owner can take payments.
CREATE TRIGGER "guest_pages_profiles" AFTER INSERT OR UPDATE OF "payments_enabled" OR DELETE ON "profiles"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
-- A disabled account's posts and bio pages leave every guest page.
CREATE TRIGGER "guest_pages_user" AFTER UPDATE OF "disabled" OR DELETE ON "user"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
