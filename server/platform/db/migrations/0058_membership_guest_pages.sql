-- A bio page shows its membership tiers and, on its wall, its members by tier (docs/decisions/0084):
-- a tier's change and a membership's start, end, name or privacy redraw cached pages through the
-- same trigger as every other write a guest page shows (migration 0022).
CREATE TRIGGER "guest_pages_membership_tiers" AFTER INSERT OR UPDATE OR DELETE ON "membership_tiers"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_memberships" AFTER INSERT OR DELETE OR UPDATE OF "status", "tier_id", "member_name", "private" ON "memberships"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
