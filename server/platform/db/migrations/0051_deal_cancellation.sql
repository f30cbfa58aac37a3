ALTER TABLE "deal_fundings" DROP CONSTRAINT "deal_fundings_state_check";--> statement-breakpoint
ALTER TABLE "deal_fundings" DROP CONSTRAINT "deal_fundings_paid_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_state_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_accepted_check";--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "cancel_requested_by" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE INDEX "deal_fundings_refunding_idx" ON "deal_fundings" USING btree ("deal_id") WHERE "deal_fundings"."state" = 'refunding';--> statement-breakpoint
ALTER TABLE "deal_fundings" ADD CONSTRAINT "deal_fundings_state_check" CHECK ("deal_fundings"."state" in ('open', 'paid', 'expired', 'failed', 'refunding', 'refunded'));--> statement-breakpoint
ALTER TABLE "deal_fundings" ADD CONSTRAINT "deal_fundings_paid_check" CHECK (("deal_fundings"."state" in ('paid', 'refunding', 'refunded')) = ("deal_fundings"."payment_intent_id" is not null));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_state_check" CHECK ("deals"."state" in ('proposed', 'agreed', 'funded', 'completed', 'cancelled', 'declined', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_accepted_check" CHECK (("deals"."state" in ('agreed', 'funded', 'completed', 'cancelled')) <= ("deals"."accepted_at" is not null));