CREATE TABLE "deal_submissions" (
	"deal_id" text NOT NULL,
	"deliverable" integer NOT NULL,
	"round" integer NOT NULL,
	"live_url" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'submitted' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"auto_approve_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text,
	"review_note" text,
	CONSTRAINT "deal_submissions_deal_id_deliverable_round_pk" PRIMARY KEY("deal_id","deliverable","round"),
	CONSTRAINT "deal_submissions_state_check" CHECK ("deal_submissions"."state" in ('submitted', 'approved', 'changes_requested')),
	CONSTRAINT "deal_submissions_numbers_check" CHECK ("deal_submissions"."deliverable" between 0 and 9 and "deal_submissions"."round" >= 1),
	CONSTRAINT "deal_submissions_note_check" CHECK (char_length("deal_submissions"."note") <= 2000 and char_length(coalesce("deal_submissions"."review_note", '')) <= 2000)
);
--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_state_check";--> statement-breakpoint
ALTER TABLE "deals" DROP CONSTRAINT "deals_accepted_check";--> statement-breakpoint
ALTER TABLE "deal_submissions" ADD CONSTRAINT "deal_submissions_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_submissions_waiting_idx" ON "deal_submissions" USING btree ("auto_approve_at") WHERE "deal_submissions"."state" = 'submitted';--> statement-breakpoint
CREATE INDEX "deals_funded_idx" ON "deals" USING btree ("updated_at") WHERE "deals"."state" = 'funded';--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_state_check" CHECK ("deals"."state" in ('proposed', 'agreed', 'funded', 'completed', 'declined', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_accepted_check" CHECK (("deals"."state" in ('agreed', 'funded', 'completed')) <= ("deals"."accepted_at" is not null));