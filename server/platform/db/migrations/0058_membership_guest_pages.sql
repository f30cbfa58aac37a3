-- A bio page shows its membership tiers with the places left, and on its wall its members by tier
-- (docs/decisions/0084): a write to a tier, and a membership starting or ending its run, changing
-- tier, name or privacy, redraw cached pages through the trigger every guest-page write uses
-- (0022_guest_page_trigger). A renewal that moves only a membership's dates redraws nothing; a new
-- row (a checkout opened, or one written whole by an operator or a seed) redraws once per statement.
-- Drizzle cannot express a trigger, so these are by hand.
CREATE TRIGGER "guest_pages_membership_tiers" AFTER INSERT OR UPDATE OR DELETE ON "membership_tiers"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_membership_shown" AFTER UPDATE OF "status", "tier_id", "member_name", "private" ON "memberships"
FOR EACH ROW WHEN (
  OLD."status" IS DISTINCT FROM NEW."status" OR OLD."tier_id" IS DISTINCT FROM NEW."tier_id"
  OR OLD."member_name" IS DISTINCT FROM NEW."member_name" OR OLD."private" IS DISTINCT FROM NEW."private"
) EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_membership_added_or_deleted" AFTER INSERT OR DELETE ON "memberships"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
