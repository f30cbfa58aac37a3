CREATE TABLE "deal_messages" (
	"deal_id" text NOT NULL,
	"seq" integer NOT NULL,
	"author_uid" text,
	"author_side" text NOT NULL,
	"body" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_messages_deal_id_seq_pk" PRIMARY KEY("deal_id","seq"),
	CONSTRAINT "deal_messages_side_check" CHECK ("deal_messages"."author_side" in ('creator', 'sponsor')),
	CONSTRAINT "deal_messages_body_check" CHECK (char_length("deal_messages"."body") between 1 and 4000)
);
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "message_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "creator_read_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "sponsor_read_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deal_messages" ADD CONSTRAINT "deal_messages_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_messages" ADD CONSTRAINT "deal_messages_author_uid_user_id_fk" FOREIGN KEY ("author_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_read_counts_check" CHECK ("deals"."creator_read_count" between 0 and "deals"."message_count" and "deals"."sponsor_read_count" between 0 and "deals"."message_count");