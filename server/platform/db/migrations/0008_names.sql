ALTER TABLE "bizb_views" RENAME TO "bio_page_views";--> statement-breakpoint
ALTER TABLE "bizb_pages" RENAME TO "bio_pages";--> statement-breakpoint
ALTER TABLE "alerts" RENAME TO "notifications";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" RENAME COLUMN "bizb_page_id" TO "bio_page_id";--> statement-breakpoint
ALTER TABLE "bio_pages" DROP CONSTRAINT "bizb_pages_custom_ending_unique";--> statement-breakpoint
ALTER TABLE "bio_pages" DROP CONSTRAINT "bizb_pages_custom_ending_check";--> statement-breakpoint
ALTER TABLE "bio_pages" DROP CONSTRAINT "bizb_pages_links_check";--> statement-breakpoint
ALTER TABLE "bio_pages" DROP CONSTRAINT "bizb_pages_sponsorships_check";--> statement-breakpoint
ALTER TABLE "bio_page_views" DROP CONSTRAINT "bizb_views_count_check";--> statement-breakpoint
ALTER TABLE "bio_pages" DROP CONSTRAINT "bizb_pages_uid_user_id_fk";
--> statement-breakpoint
ALTER TABLE "bio_page_views" DROP CONSTRAINT "bizb_views_page_id_bizb_pages_id_fk";
--> statement-breakpoint
ALTER TABLE "bio_page_views" DROP CONSTRAINT "bizb_views_uid_user_id_fk";
--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_bizb_page_id_bizb_pages_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "alerts_uid_user_id_fk";
--> statement-breakpoint
DROP INDEX "bizb_pages_uid_idx";--> statement-breakpoint
DROP INDEX "bizb_pages_featured_idx";--> statement-breakpoint
DROP INDEX "bizb_views_uid_idx";--> statement-breakpoint
DROP INDEX "alerts_uid_created_idx";--> statement-breakpoint
DROP INDEX "alerts_uid_unread_idx";--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bio_page_views" ADD CONSTRAINT "bio_page_views_page_id_bio_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bio_page_views" ADD CONSTRAINT "bio_page_views_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bio_pages_uid_idx" ON "bio_pages" USING btree ("uid","updated_at");--> statement-breakpoint
CREATE INDEX "bio_pages_featured_idx" ON "bio_pages" USING btree ("featured_at") WHERE "bio_pages"."featured_at" is not null;--> statement-breakpoint
CREATE INDEX "bio_page_views_uid_idx" ON "bio_page_views" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "notifications_uid_created_idx" ON "notifications" USING btree ("uid","created");--> statement-breakpoint
CREATE INDEX "notifications_uid_unread_idx" ON "notifications" USING btree ("uid") WHERE "notifications"."unread";--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_custom_ending_unique" UNIQUE("custom_ending");--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_custom_ending_check" CHECK ("bio_pages"."custom_ending" ~ '^[a-z0-9_]{1,99}$');--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_links_check" CHECK (jsonb_typeof("bio_pages"."links") = 'array' and jsonb_array_length("bio_pages"."links") <= 10);--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_sponsorships_check" CHECK (jsonb_typeof("bio_pages"."sponsorships") = 'array' and jsonb_array_length("bio_pages"."sponsorships") <= 10);--> statement-breakpoint
ALTER TABLE "bio_page_views" ADD CONSTRAINT "bio_page_views_count_check" CHECK ("bio_page_views"."count" >= 0);