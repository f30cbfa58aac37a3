ALTER TABLE "profiles" ADD COLUMN "photo_id" text;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "theme" jsonb;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "accept_tips" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "tip_presets" jsonb DEFAULT '[300,500,1000]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "tip_minimum" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "thank_you_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "wall_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "goal_title" text;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD COLUMN "goal_target" integer;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "supporter_name" text;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "hidden_from_wall" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_tip_minimum_check" CHECK ("bio_pages"."tip_minimum" > 0);--> statement-breakpoint
ALTER TABLE "bio_pages" ADD CONSTRAINT "bio_pages_goal_target_check" CHECK ("bio_pages"."goal_target" is null or "bio_pages"."goal_target" > 0);