-- A bio page shows its supporter wall and goal bar, both read from payments (docs/decisions/0035):
-- a payment, a refund or a dispute (a ledger entry) and an owner hiding or showing a supporter
-- redraw cached pages, through the same trigger as every other write a guest page shows
-- (migration 0022). The ledger is append-only; a delete only follows a deleted session.
CREATE TRIGGER "guest_pages_ledger_entries" AFTER INSERT OR DELETE ON "ledger_entries"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
--> statement-breakpoint
CREATE TRIGGER "guest_pages_sponsor_sessions" AFTER UPDATE OF "hidden_from_wall", "supporter_name", "private" ON "sponsor_sessions"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
