CREATE TABLE "bio_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"bio_page_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"details" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"turnaround_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bio_packages_title_check" CHECK (char_length("bio_packages"."title") between 1 and 80),
	CONSTRAINT "bio_packages_details_check" CHECK (char_length("bio_packages"."details") between 1 and 500),
	CONSTRAINT "bio_packages_price_check" CHECK ("bio_packages"."price" > 0),
	CONSTRAINT "bio_packages_turnaround_check" CHECK ("bio_packages"."turnaround_days" between 1 and 90)
);
--> statement-breakpoint
ALTER TABLE "bio_packages" ADD CONSTRAINT "bio_packages_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bio_packages_page_idx" ON "bio_packages" USING btree ("bio_page_id","position");--> statement-breakpoint
-- The public bio page shows its packages: any write to them moves the guest page generation,
-- so the cached page is drawn again (0022_guest_page_trigger). Drizzle cannot express a trigger,
-- so this one is written by hand.
CREATE TRIGGER "guest_pages_bio_packages" AFTER INSERT OR UPDATE OR DELETE ON "bio_packages"
FOR EACH STATEMENT EXECUTE FUNCTION "guest_pages_changed"();
