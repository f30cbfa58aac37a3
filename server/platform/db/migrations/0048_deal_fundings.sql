CREATE TABLE "deal_fundings" (
	"id" text PRIMARY KEY NOT NULL,
	"deal_id" text NOT NULL,
	"terms_version" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"platform_fee" integer NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"checkout_id" text,
	"checkout_url" text,
	"expires_at" timestamp with time zone,
	"payment_intent_id" text,
	"charge_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "deal_fundings_paymentIntentId_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "deal_fundings_state_check" CHECK ("deal_fundings"."state" in ('open', 'paid', 'expired', 'failed')),
	CONSTRAINT "deal_fundings_amount_check" CHECK ("deal_fundings"."amount" > 0 and "deal_fundings"."platform_fee" between 0 and "deal_fundings"."amount"),
	CONSTRAINT "deal_fundings_currency_check" CHECK ("deal_fundings"."currency" ~ '^[a-z]{3}$'),
	CONSTRAINT "deal_fundings_paid_check" CHECK (("deal_fundings"."state" = 'paid') = ("deal_fundings"."payment_intent_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_state_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_accepted_check";--> statement-breakpoint
DROP INDEX "deals_one_live_per_opportunity_idx";--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "session_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "funding_id" text;--> statement-breakpoint
ALTER TABLE "deal_fundings" ADD CONSTRAINT "deal_fundings_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_fundings_one_live_idx" ON "deal_fundings" USING btree ("deal_id") WHERE "deal_fundings"."state" in ('open', 'paid');--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_funding_id_deal_fundings_id_fk" FOREIGN KEY ("funding_id") REFERENCES "public"."deal_fundings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_funding_idx" ON "ledger_entries" USING btree ("funding_id","created") WHERE "ledger_entries"."funding_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_live_per_opportunity_idx" ON "deals" USING btree ("opportunity_id","creator_uid","sponsor_uid") WHERE "deals"."opportunity_id" is not null and "deals"."state" in ('proposed', 'agreed', 'funded');--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK (("ledger_entries"."kind" in ('payment', 'refund', 'dispute', 'dispute_reversal') and "ledger_entries"."session_id" is not null and "ledger_entries"."funding_id" is null) or ("ledger_entries"."kind" in ('deal_payment', 'deal_refund', 'deal_release') and "ledger_entries"."funding_id" is not null and "ledger_entries"."session_id" is null));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_state_check" CHECK ("deals"."state" in ('proposed', 'agreed', 'funded', 'declined', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_accepted_check" CHECK (("deals"."state" in ('agreed', 'funded')) <= ("deals"."accepted_at" is not null));