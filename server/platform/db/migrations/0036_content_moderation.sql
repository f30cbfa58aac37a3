CREATE TABLE "content_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"reporter_key" text NOT NULL,
	"reporter_uid" text,
	"reporter_email" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution" text,
	CONSTRAINT "content_reports_target_type_check" CHECK ("content_reports"."target_type" in ('bio_page', 'opportunity')),
	CONSTRAINT "content_reports_status_check" CHECK ("content_reports"."status" in ('open', 'actioned', 'dismissed')),
	CONSTRAINT "content_reports_note_check" CHECK (char_length("content_reports"."note") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "removed_reason" text;--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "removed_by" text;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "removed_reason" text;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "removed_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "content_reports_open_once_idx" ON "content_reports" USING btree ("target_type","target_id","reporter_key") WHERE "content_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "content_reports_status_idx" ON "content_reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "content_reports_target_idx" ON "content_reports" USING btree ("target_type","target_id");