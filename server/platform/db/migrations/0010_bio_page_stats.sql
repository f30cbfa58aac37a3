CREATE TABLE "bio_page_daily_views" (
	"page_id" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bio_page_daily_views_page_id_day_pk" PRIMARY KEY("page_id","day"),
	CONSTRAINT "bio_page_daily_views_count_check" CHECK ("bio_page_daily_views"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bio_page_link_clicks" (
	"page_id" text NOT NULL,
	"link_type" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bio_page_link_clicks_page_id_link_type_day_pk" PRIMARY KEY("page_id","link_type","day"),
	CONSTRAINT "bio_page_link_clicks_count_check" CHECK ("bio_page_link_clicks"."count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "bio_page_daily_views" ADD CONSTRAINT "bio_page_daily_views_page_id_bio_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bio_page_link_clicks" ADD CONSTRAINT "bio_page_link_clicks_page_id_bio_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;