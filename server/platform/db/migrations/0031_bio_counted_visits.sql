CREATE TABLE "bio_counted_visits" (
	"key" text PRIMARY KEY NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bio_counted_visits_counted_at_idx" ON "bio_counted_visits" USING btree ("counted_at");