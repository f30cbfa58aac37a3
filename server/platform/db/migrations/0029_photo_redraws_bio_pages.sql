-- A bio page shows its owner's profile photo: a new, replaced or removed photo (profiles.photo_id,
-- also cleared by the photos foreign key) moves the guest page generation, so the cached page is
-- drawn again (0022_guest_page_trigger). Drizzle cannot express a trigger, so this one is written by hand.
DROP TRIGGER "guest_pages_profiles" ON "profiles";
--> statement-breakpoint
CREATE TRIGGER "guest_pages_profiles" AFTER INSERT OR UPDATE OF "payments_enabled", "photo_id" OR DELETE ON "profiles"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
