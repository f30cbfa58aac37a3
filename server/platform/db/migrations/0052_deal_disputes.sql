CREATE TABLE "deal_disputes" (
	"deal_id" text PRIMARY KEY NOT NULL,
	"opened_by" text,
	"opened_by_uid" text,
	"reason" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"sponsor_refund" integer,
	"creator_share" integer,
	"decided_by" text,
	"decided_by_email" text,
	"decision_reason" text,
	"decided_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "deal_disputes_opened_by_check" CHECK ("deal_disputes"."opened_by" is null or "deal_disputes"."opened_by" in ('creator', 'sponsor')),
	CONSTRAINT "deal_disputes_decision_check" CHECK ("deal_disputes"."decision" is null or "deal_disputes"."decision" in ('release', 'refund', 'split')),
	CONSTRAINT "deal_disputes_reason_check" CHECK (char_length("deal_disputes"."reason") between 1 and 2000 and char_length(coalesce("deal_disputes"."decision_reason", '')) <= 2000),
	CONSTRAINT "deal_disputes_decided_check" CHECK (("deal_disputes"."decision" is null) = ("deal_disputes"."decided_at" is null) and ("deal_disputes"."decision" is null) = ("deal_disputes"."sponsor_refund" is null) and ("deal_disputes"."decision" is null) = ("deal_disputes"."creator_share" is null) and ("deal_disputes"."sponsor_refund" is null or ("deal_disputes"."sponsor_refund" >= 0 and "deal_disputes"."creator_share" >= 0))),
	CONSTRAINT "deal_disputes_settled_check" CHECK ("deal_disputes"."settled_at" is null or "deal_disputes"."decided_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_state_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_accepted_check";--> statement-breakpoint
DROP INDEX "deals_one_live_per_opportunity_idx";--> statement-breakpoint
ALTER TABLE "deal_disputes" ADD CONSTRAINT "deal_disputes_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_disputes_unsettled_idx" ON "deal_disputes" USING btree ("decided_at") WHERE "deal_disputes"."decided_at" is not null and "deal_disputes"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "deal_disputes_open_idx" ON "deal_disputes" USING btree ("opened_at") WHERE "deal_disputes"."decided_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_live_per_opportunity_idx" ON "deals" USING btree ("opportunity_id","creator_uid","sponsor_uid") WHERE "deals"."opportunity_id" is not null and "deals"."state" in ('proposed', 'agreed', 'funded', 'disputed');--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_state_check" CHECK ("deals"."state" in ('proposed', 'agreed', 'funded', 'disputed', 'completed', 'cancelled', 'declined', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_accepted_check" CHECK (("deals"."state" in ('agreed', 'funded', 'disputed', 'completed', 'cancelled')) <= ("deals"."accepted_at" is not null));