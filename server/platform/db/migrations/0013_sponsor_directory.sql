DROP INDEX "external_sponsors_added_idx";--> statement-breakpoint
ALTER TABLE "external_sponsors" ALTER COLUMN "website" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "external_sponsors" ALTER COLUMN "details" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "external_sponsors" ALTER COLUMN "added_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "external_sponsors" ADD COLUMN "name_prefixes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "external_sponsors" ADD COLUMN "blurb" text NOT NULL;--> statement-breakpoint
ALTER TABLE "external_sponsors" ADD COLUMN "preview" text NOT NULL;--> statement-breakpoint
ALTER TABLE "external_sponsors" ADD COLUMN "in_preview_sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "external_sponsors_name_prefixes_gin_idx" ON "external_sponsors" USING gin ("name_prefixes");--> statement-breakpoint
CREATE INDEX "external_sponsors_preview_sample_idx" ON "external_sponsors" USING btree ("name","id") WHERE "external_sponsors"."in_preview_sample";--> statement-breakpoint
CREATE INDEX "external_sponsors_added_idx" ON "external_sponsors" USING btree ("added_at","id");--> statement-breakpoint
ALTER TABLE "external_sponsors" DROP COLUMN "summary";--> statement-breakpoint
ALTER TABLE "external_sponsors" DROP COLUMN "description";