ALTER TABLE "sponsor_sessions" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "reuse_key" text;--> statement-breakpoint
CREATE INDEX "sponsor_sessions_reuse_key_idx" ON "sponsor_sessions" USING btree ("reuse_key") WHERE "sponsor_sessions"."reuse_key" is not null and "sponsor_sessions"."status" = 'pending';