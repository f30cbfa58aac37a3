CREATE TABLE "account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text,
	"collection" text,
	"doc_id" text,
	"description" text NOT NULL,
	"subtype" text,
	"type" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"uid" text PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"payments_enabled" boolean DEFAULT false NOT NULL,
	"user_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_user_type_check" CHECK ("profiles"."user_type" is null or "profiles"."user_type" in ('creator', 'sponsor')),
	CONSTRAINT "profiles_name_length_check" CHECK (char_length("profiles"."name") < 100)
);
--> statement-breakpoint
CREATE TABLE "hearts" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"uid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hearts_post_uid_unique" UNIQUE("post_id","uid"),
	CONSTRAINT "hearts_id_check" CHECK ("hearts"."id" = "hearts"."post_id" || '_' || "hearts"."uid")
);
--> statement-breakpoint
CREATE TABLE "opportunity_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"organization" text DEFAULT '' NOT NULL,
	"description" text NOT NULL,
	"bullets" text[],
	"website" text DEFAULT '' NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"min_contribution_cents" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"application_deadline" timestamp with time zone,
	"date_posted" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"poster_uid" text NOT NULL,
	"poster_name" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"total_hearts" integer DEFAULT 0 NOT NULL,
	"featured_at" timestamp with time zone,
	CONSTRAINT "opportunity_posts_id_format_check" CHECK ("opportunity_posts"."id" ~ '^[0-9]{10}_[A-Za-z0-9]+$'),
	CONSTRAINT "opportunity_posts_min_contribution_check" CHECK ("opportunity_posts"."min_contribution_cents" >= 0),
	CONSTRAINT "opportunity_posts_total_hearts_check" CHECK ("opportunity_posts"."total_hearts" >= 0),
	CONSTRAINT "opportunity_posts_tags_count_check" CHECK (cardinality("opportunity_posts"."tags") <= 30),
	CONSTRAINT "opportunity_posts_currency_check" CHECK ("opportunity_posts"."currency" ~ '^[a-z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"kind" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "tags_kind_name_pk" PRIMARY KEY("kind","name"),
	CONSTRAINT "tags_kind_check" CHECK ("tags"."kind" in ('state', 'sponsorship_type', 'industry', 'other', 'event_date', 'external_sponsor')),
	CONSTRAINT "tags_name_check" CHECK ("tags"."name" = lower("tags"."name") and char_length("tags"."name") between 1 and 60)
);
--> statement-breakpoint
CREATE TABLE "totals" (
	"name" text PRIMARY KEY NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "totals_total_check" CHECK ("totals"."total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "external_sponsors" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_array" text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bizb_pages" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"custom_ending" text NOT NULL,
	"name" text NOT NULL,
	"blurb" text DEFAULT '' NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sponsorships" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payments_enabled" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"featured_at" timestamp with time zone,
	CONSTRAINT "bizb_pages_custom_ending_unique" UNIQUE("custom_ending"),
	CONSTRAINT "bizb_pages_custom_ending_check" CHECK ("bizb_pages"."custom_ending" ~ '^[a-z0-9_]{1,99}$'),
	CONSTRAINT "bizb_pages_links_check" CHECK (jsonb_typeof("bizb_pages"."links") = 'array' and jsonb_array_length("bizb_pages"."links") <= 10),
	CONSTRAINT "bizb_pages_sponsorships_check" CHECK (jsonb_typeof("bizb_pages"."sponsorships") = 'array' and jsonb_array_length("bizb_pages"."sponsorships") <= 10)
);
--> statement-breakpoint
CREATE TABLE "bizb_views" (
	"page_id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "bizb_views_count_check" CHECK ("bizb_views"."count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "connected_accounts" (
	"uid" text PRIMARY KEY NOT NULL,
	"state_token" text NOT NULL,
	"account_type" text DEFAULT 'individual' NOT NULL,
	"provider_account_id" text,
	"completed" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connected_accounts_state_token_unique" UNIQUE("state_token"),
	CONSTRAINT "connected_accounts_provider_account_id_unique" UNIQUE("provider_account_id"),
	CONSTRAINT "connected_accounts_type_check" CHECK ("connected_accounts"."account_type" in ('individual', 'company'))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pro_memberships" (
	"uid" text PRIMARY KEY NOT NULL,
	"plan" text NOT NULL,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pro_memberships_provider_subscription_id_unique" UNIQUE("provider_subscription_id"),
	CONSTRAINT "pro_memberships_plan_check" CHECK ("pro_memberships"."plan" in ('launchpad', 'star_power', 'limitless')),
	CONSTRAINT "pro_memberships_status_check" CHECK ("pro_memberships"."status" in ('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid'))
);
--> statement-breakpoint
CREATE TABLE "sponsor_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"poster_uid" text NOT NULL,
	"bizb_page_id" text,
	"post_id" text,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"fee" integer,
	"net" integer,
	"sponsor_email" text,
	"message" text NOT NULL,
	"payment_intent_id" text,
	"completed" boolean DEFAULT false NOT NULL,
	"refunded" boolean DEFAULT false NOT NULL,
	"refund_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sponsor_sessions_amount_check" CHECK ("sponsor_sessions"."amount" > 0),
	CONSTRAINT "sponsor_sessions_fee_check" CHECK ("sponsor_sessions"."fee" is null or "sponsor_sessions"."fee" >= 0),
	CONSTRAINT "sponsor_sessions_net_check" CHECK ("sponsor_sessions"."net" is null or "sponsor_sessions"."net" >= 0),
	CONSTRAINT "sponsor_sessions_currency_check" CHECK ("sponsor_sessions"."currency" ~ '^[a-z]{3}$'),
	CONSTRAINT "sponsor_sessions_refund_check" CHECK (not "sponsor_sessions"."refunded" or "sponsor_sessions"."completed")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"unread" boolean DEFAULT true NOT NULL,
	"button_text" text,
	"button_destination" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"read_on" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hearts" ADD CONSTRAINT "hearts_post_id_opportunity_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."opportunity_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hearts" ADD CONSTRAINT "hearts_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD CONSTRAINT "opportunity_posts_poster_uid_user_id_fk" FOREIGN KEY ("poster_uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bizb_pages" ADD CONSTRAINT "bizb_pages_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bizb_views" ADD CONSTRAINT "bizb_views_page_id_bizb_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."bizb_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bizb_views" ADD CONSTRAINT "bizb_views_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connected_accounts" ADD CONSTRAINT "connected_accounts_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pro_memberships" ADD CONSTRAINT "pro_memberships_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_poster_uid_user_id_fk" FOREIGN KEY ("poster_uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_bizb_page_id_bizb_pages_id_fk" FOREIGN KEY ("bizb_page_id") REFERENCES "public"."bizb_pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_post_id_opportunity_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."opportunity_posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_user_id_idx" ON "account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "session_user_id_idx" ON "session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "verification_identifier_idx" ON "verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "logs_uid_description_idx" ON "logs" USING btree ("uid","description");--> statement-breakpoint
CREATE INDEX "hearts_uid_created_idx" ON "hearts" USING btree ("uid","created_at");--> statement-breakpoint
CREATE INDEX "opportunity_posts_tags_gin_idx" ON "opportunity_posts" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "opportunity_posts_poster_idx" ON "opportunity_posts" USING btree ("poster_uid","id");--> statement-breakpoint
CREATE INDEX "opportunity_posts_featured_idx" ON "opportunity_posts" USING btree ("featured_at") WHERE "opportunity_posts"."featured_at" is not null;--> statement-breakpoint
CREATE INDEX "external_sponsors_name_idx" ON "external_sponsors" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "external_sponsors_name_array_gin_idx" ON "external_sponsors" USING gin ("name_array");--> statement-breakpoint
CREATE INDEX "external_sponsors_tags_gin_idx" ON "external_sponsors" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "external_sponsors_added_idx" ON "external_sponsors" USING btree ("added_at");--> statement-breakpoint
CREATE INDEX "bizb_pages_uid_idx" ON "bizb_pages" USING btree ("uid","updated_at");--> statement-breakpoint
CREATE INDEX "bizb_pages_featured_idx" ON "bizb_pages" USING btree ("featured_at") WHERE "bizb_pages"."featured_at" is not null;--> statement-breakpoint
CREATE INDEX "bizb_views_uid_idx" ON "bizb_views" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "sponsor_sessions_poster_created_idx" ON "sponsor_sessions" USING btree ("poster_uid","created");--> statement-breakpoint
CREATE INDEX "alerts_uid_created_idx" ON "alerts" USING btree ("uid","created");--> statement-breakpoint
CREATE INDEX "alerts_uid_unread_idx" ON "alerts" USING btree ("uid") WHERE "alerts"."unread";