-- The public bio page shows its membership tiers and the places left in a limited one: a write to a
-- tier, or a membership starting or ending its run (its status changing), moves the guest page
-- generation so the cached page is drawn again (0022_guest_page_trigger). A renewal that changes
-- only a membership's dates redraws nothing. Drizzle cannot express a trigger, so these are by hand.
CREATE TRIGGER "guest_pages_membership_tiers" AFTER INSERT OR UPDATE OR DELETE ON "membership_tiers"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_membership_status" AFTER UPDATE OF "status" ON "memberships"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "guest_pages_changed"();
