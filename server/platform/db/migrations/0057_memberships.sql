CREATE TABLE "member_post_deliveries" (
	"post_id" text NOT NULL,
	"membership_id" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_post_deliveries_unique" UNIQUE("post_id","membership_id")
);
--> statement-breakpoint
CREATE TABLE "member_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"bio_page_id" text NOT NULL,
	"tier_id" text,
	"author_uid" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "membership_tiers" (
	"id" text PRIMARY KEY NOT NULL,
	"bio_page_id" text NOT NULL,
	"name" text NOT NULL,
	"monthly_price" integer NOT NULL,
	"yearly_price" integer,
	"currency" text DEFAULT 'usd' NOT NULL,
	"benefits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"member_limit" integer,
	"welcome_message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_tiers_status_check" CHECK ("membership_tiers"."status" in ('active', 'paused', 'retired')),
	CONSTRAINT "membership_tiers_monthly_price_check" CHECK ("membership_tiers"."monthly_price" > 0),
	CONSTRAINT "membership_tiers_yearly_price_check" CHECK ("membership_tiers"."yearly_price" is null or "membership_tiers"."yearly_price" > 0),
	CONSTRAINT "membership_tiers_member_limit_check" CHECK ("membership_tiers"."member_limit" is null or "membership_tiers"."member_limit" > 0),
	CONSTRAINT "membership_tiers_currency_check" CHECK ("membership_tiers"."currency" ~ '^[a-z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" text PRIMARY KEY NOT NULL,
	"tier_id" text NOT NULL,
	"bio_page_id" text NOT NULL,
	"creator_uid" text,
	"member_uid" text,
	"member_email" text,
	"member_name" text,
	"private" boolean DEFAULT false NOT NULL,
	"provider" text NOT NULL,
	"provider_checkout_id" text,
	"provider_subscription_id" text,
	"provider_customer_id" text,
	"destination_account_id" text NOT NULL,
	"interval" text DEFAULT 'month' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_message" text,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"posts_muted" boolean DEFAULT false NOT NULL,
	"link_version" integer DEFAULT 1 NOT NULL,
	"checkout_url" text,
	"expires_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_provider_checkout_id_unique" UNIQUE("provider_checkout_id"),
	CONSTRAINT "memberships_provider_subscription_id_unique" UNIQUE("provider_subscription_id"),
	CONSTRAINT "memberships_status_check" CHECK ("memberships"."status" in ('pending', 'active', 'past_due', 'cancelled', 'ended', 'expired')),
	CONSTRAINT "memberships_interval_check" CHECK ("memberships"."interval" in ('month', 'year')),
	CONSTRAINT "memberships_amount_check" CHECK ("memberships"."amount" > 0),
	CONSTRAINT "memberships_currency_check" CHECK ("memberships"."currency" ~ '^[a-z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_kind_check";--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD COLUMN "membership_id" text;--> statement-breakpoint
ALTER TABLE "member_post_deliveries" ADD CONSTRAINT "member_post_deliveries_post_id_member_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."member_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_post_deliveries" ADD CONSTRAINT "member_post_deliveries_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_posts" ADD CONSTRAINT "member_posts_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_posts" ADD CONSTRAINT "member_posts_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_posts" ADD CONSTRAINT "member_posts_author_uid_user_id_fk" FOREIGN KEY ("author_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD CONSTRAINT "membership_tiers_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_creator_uid_user_id_fk" FOREIGN KEY ("creator_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_member_uid_user_id_fk" FOREIGN KEY ("member_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_posts_page_sent_idx" ON "member_posts" USING btree ("bio_page_id","sent_at");--> statement-breakpoint
CREATE INDEX "membership_tiers_page_idx" ON "membership_tiers" USING btree ("bio_page_id","position");--> statement-breakpoint
CREATE INDEX "memberships_page_status_idx" ON "memberships" USING btree ("bio_page_id","status");--> statement-breakpoint
CREATE INDEX "memberships_tier_status_idx" ON "memberships" USING btree ("tier_id","status");--> statement-breakpoint
CREATE INDEX "memberships_creator_created_idx" ON "memberships" USING btree ("creator_uid","created");--> statement-breakpoint
CREATE INDEX "memberships_member_uid_idx" ON "memberships" USING btree ("member_uid") WHERE "memberships"."member_uid" is not null;--> statement-breakpoint
CREATE INDEX "memberships_member_email_idx" ON "memberships" USING btree ("member_email") WHERE "memberships"."member_email" is not null;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sponsor_sessions_membership_created_idx" ON "sponsor_sessions" USING btree ("membership_id","created") WHERE "sponsor_sessions"."membership_id" is not null;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_kind_check" CHECK ("sponsor_sessions"."kind" in ('tip', 'sponsorship', 'membership'));