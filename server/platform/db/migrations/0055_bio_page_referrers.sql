CREATE TABLE "bio_page_daily_referrers" (
	"page_id" text NOT NULL,
	"day" date NOT NULL,
	"site" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bio_page_daily_referrers_page_id_day_site_pk" PRIMARY KEY("page_id","day","site"),
	CONSTRAINT "bio_page_daily_referrers_count_check" CHECK ("bio_page_daily_referrers"."count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "bio_page_daily_referrers" ADD CONSTRAINT "bio_page_daily_referrers_page_id_bio_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;