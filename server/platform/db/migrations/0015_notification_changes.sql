-- Issue 17: the live unread count (ADR 0024). Whoever changes an alert — the app, a script,
-- an operator's SQL console — PostgreSQL tells every app process which user's count moved.
-- pg_notify inside a trigger is delivered at COMMIT and never for a rolled-back transaction;
-- identical notifications within one transaction are folded into one.
CREATE FUNCTION "notify_notification_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('notification_changes', OLD.uid);
  ELSE
    PERFORM pg_notify('notification_changes', NEW.uid);
    -- An alert moved to another user changes both counts.
    IF TG_OP = 'UPDATE' AND OLD.uid IS DISTINCT FROM NEW.uid THEN
      PERFORM pg_notify('notification_changes', OLD.uid);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "notifications_changed"
AFTER INSERT OR UPDATE OF "unread", "uid" OR DELETE ON "notifications"
FOR EACH ROW EXECUTE FUNCTION "notify_notification_change"();
