CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" text NOT NULL,
	"kind" text NOT NULL,
	"gross" integer NOT NULL,
	"provider_fee" integer NOT NULL,
	"platform_fee" integer NOT NULL,
	"net" integer NOT NULL,
	"currency" text NOT NULL,
	"provider_reference" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_reference_unique" UNIQUE("kind","provider_reference"),
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('payment', 'refund', 'dispute', 'dispute_reversal')),
	CONSTRAINT "ledger_entries_currency_check" CHECK ("ledger_entries"."currency" ~ '^[a-z]{3}$'),
	CONSTRAINT "ledger_entries_net_check" CHECK ("ledger_entries"."net" = "ledger_entries"."gross" - "ledger_entries"."platform_fee")
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"session_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"provider_refund_id" text,
	"requested_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_requests_status_check" CHECK ("refund_requests"."status" in ('requested', 'pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_fee_check";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_net_check";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_refund_check";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "kind" text DEFAULT 'tip' NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "provider_checkout_id" text;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "sponsor_uid" text;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "platform_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" text DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_session_id_sponsor_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sponsor_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_session_id_sponsor_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sponsor_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_requested_by_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_session_idx" ON "ledger_entries" USING btree ("session_id","created");--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_sponsor_uid_user_id_fk" FOREIGN KEY ("sponsor_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sponsor_sessions_sponsor_created_idx" ON "sponsor_sessions" USING btree ("sponsor_uid","created");--> statement-breakpoint
-- payment_events: the old id was the provider's event id; it becomes (provider, event_id).
ALTER TABLE "payment_events" ADD COLUMN "event_id" text;--> statement-breakpoint
UPDATE "payment_events" SET "event_id" = "id";--> statement-breakpoint
ALTER TABLE "payment_events" ALTER COLUMN "event_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "payload" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ALTER COLUMN "payload" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "payment_events" SET "handled_at" = "processed_at";--> statement-breakpoint
ALTER TABLE "payment_events" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "payment_events" DROP COLUMN "processed_at";--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_pkey" PRIMARY KEY("provider","event_id");--> statement-breakpoint
-- sponsor_sessions: rows from before (none are written by any release) keep their status in words.
ALTER TABLE "sponsor_sessions" ADD COLUMN "provider" text DEFAULT 'stripe' NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ALTER COLUMN "provider" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "destination_account_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ALTER COLUMN "destination_account_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
UPDATE "sponsor_sessions" SET "status" = CASE WHEN "refunded" THEN 'refunded' WHEN "completed" THEN 'completed' ELSE 'pending' END;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP COLUMN "fee";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP COLUMN "net";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP COLUMN "completed";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP COLUMN "refunded";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP COLUMN "refund_id";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_provider_checkout_id_unique" UNIQUE("provider_checkout_id");--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_payment_intent_id_unique" UNIQUE("payment_intent_id");--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_platform_fee_check" CHECK ("sponsor_sessions"."platform_fee" >= 0 and "sponsor_sessions"."platform_fee" <= "sponsor_sessions"."amount");--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_kind_check" CHECK ("sponsor_sessions"."kind" in ('tip', 'sponsorship'));--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_post_check" CHECK ("sponsor_sessions"."kind" = 'sponsorship' or "sponsor_sessions"."post_id" is null);--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_status_check" CHECK ("sponsor_sessions"."status" in ('pending', 'completed', 'refunded', 'failed', 'expired', 'disputed'));