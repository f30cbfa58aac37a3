CREATE TABLE "deal_activity" (
	"deal_id" text NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"actor_uid" text,
	"from_state" text,
	"to_state" text NOT NULL,
	"terms_version" integer,
	"network" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_activity_deal_id_seq_pk" PRIMARY KEY("deal_id","seq")
);
--> statement-breakpoint
CREATE TABLE "deal_terms" (
	"deal_id" text NOT NULL,
	"version" integer NOT NULL,
	"proposed_by" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"deliverables" jsonb NOT NULL,
	"usage_rights" text NOT NULL,
	"usage_days" integer DEFAULT 0 NOT NULL,
	"exclusivity_days" integer DEFAULT 0 NOT NULL,
	"disclosure_required" boolean DEFAULT true NOT NULL,
	"sponsor_approves" boolean DEFAULT true NOT NULL,
	"auto_approve_days" integer DEFAULT 3 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_terms_deal_id_version_pk" PRIMARY KEY("deal_id","version"),
	CONSTRAINT "deal_terms_proposed_by_check" CHECK ("deal_terms"."proposed_by" in ('creator', 'sponsor')),
	CONSTRAINT "deal_terms_price_check" CHECK ("deal_terms"."price" > 0),
	CONSTRAINT "deal_terms_currency_check" CHECK ("deal_terms"."currency" ~ '^[a-z]{3}$'),
	CONSTRAINT "deal_terms_usage_rights_check" CHECK ("deal_terms"."usage_rights" in ('none', 'organic', 'paid')),
	CONSTRAINT "deal_terms_days_check" CHECK ("deal_terms"."usage_days" between 0 and 3650 and "deal_terms"."exclusivity_days" between 0 and 365 and "deal_terms"."auto_approve_days" between 1 and 30),
	CONSTRAINT "deal_terms_deliverables_check" CHECK (jsonb_typeof("deal_terms"."deliverables") = 'array' and jsonb_array_length("deal_terms"."deliverables") between 1 and 10),
	CONSTRAINT "deal_terms_message_length_check" CHECK (char_length("deal_terms"."message") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "deals" (
	"id" text PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"opportunity_id" text,
	"title" text NOT NULL,
	"creator_uid" text,
	"sponsor_uid" text,
	"opened_by" text NOT NULL,
	"state" text DEFAULT 'proposed' NOT NULL,
	"waiting_on" text,
	"latest_version" integer DEFAULT 1 NOT NULL,
	"pitch" text NOT NULL,
	"links" text[] DEFAULT '{}'::text[] NOT NULL,
	"bio_page_id" text,
	"shortlisted" boolean DEFAULT false NOT NULL,
	"ended_by" text,
	"decline_message" text,
	"accepted_version" integer,
	"accepted_by" text,
	"accepted_at" timestamp with time zone,
	"accepted_from" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deals_origin_check" CHECK ("deals"."origin" in ('application', 'offer')),
	CONSTRAINT "deals_opened_by_check" CHECK ("deals"."opened_by" in ('creator', 'sponsor')),
	CONSTRAINT "deals_state_check" CHECK ("deals"."state" in ('proposed', 'agreed', 'declined', 'withdrawn')),
	CONSTRAINT "deals_waiting_on_check" CHECK ("deals"."waiting_on" is null or "deals"."waiting_on" in ('creator', 'sponsor')),
	CONSTRAINT "deals_waiting_only_while_proposed_check" CHECK (("deals"."state" = 'proposed') = ("deals"."waiting_on" is not null)),
	CONSTRAINT "deals_latest_version_check" CHECK ("deals"."latest_version" >= 1),
	CONSTRAINT "deals_pitch_length_check" CHECK (char_length("deals"."pitch") <= 2000),
	CONSTRAINT "deals_links_count_check" CHECK (cardinality("deals"."links") <= 5),
	CONSTRAINT "deals_accepted_check" CHECK (("deals"."state" = 'agreed') <= ("deals"."accepted_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD COLUMN "kind" text DEFAULT 'request' NOT NULL;--> statement-breakpoint
-- Posts from before the choice run the way their poster's account type says: a sponsor's post is a brief.
UPDATE "opportunity_posts" SET "kind" = 'brief' FROM "profiles" WHERE "profiles"."uid" = "opportunity_posts"."poster_uid" AND "profiles"."user_type" = 'sponsor';--> statement-breakpoint
ALTER TABLE "deal_activity" ADD CONSTRAINT "deal_activity_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_terms" ADD CONSTRAINT "deal_terms_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_opportunity_id_opportunity_posts_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunity_posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_creator_uid_user_id_fk" FOREIGN KEY ("creator_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_sponsor_uid_user_id_fk" FOREIGN KEY ("sponsor_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_bio_page_id_bio_pages_id_fk" FOREIGN KEY ("bio_page_id") REFERENCES "public"."bio_pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deals_creator_updated_idx" ON "deals" USING btree ("creator_uid","updated_at","id");--> statement-breakpoint
CREATE INDEX "deals_sponsor_updated_idx" ON "deals" USING btree ("sponsor_uid","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_live_per_opportunity_idx" ON "deals" USING btree ("opportunity_id","creator_uid","sponsor_uid") WHERE "deals"."opportunity_id" is not null and "deals"."state" in ('proposed', 'agreed');--> statement-breakpoint
CREATE INDEX "deals_opportunity_created_idx" ON "deals" USING btree ("opportunity_id","created_at");--> statement-breakpoint
ALTER TABLE "opportunity_posts" ADD CONSTRAINT "opportunity_posts_kind_check" CHECK ("opportunity_posts"."kind" in ('brief', 'request'));