CREATE TABLE "deal_briefs" (
	"deal_id" text PRIMARY KEY NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_briefs_body_check" CHECK (char_length("deal_briefs"."body") <= 5000)
);
--> statement-breakpoint
CREATE TABLE "deal_files" (
	"id" text PRIMARY KEY NOT NULL,
	"deal_id" text NOT NULL,
	"place" text NOT NULL,
	"message_seq" integer,
	"deliverable" integer,
	"round" integer,
	"uploader_uid" text,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"bytes" "bytea" NOT NULL,
	"thumb" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_files_place_check" CHECK ("deal_files"."place" in ('message', 'brief', 'submission')),
	CONSTRAINT "deal_files_kind_check" CHECK ("deal_files"."kind" in ('image', 'pdf')),
	CONSTRAINT "deal_files_owner_check" CHECK (("deal_files"."place" = 'message' and "deal_files"."message_seq" is not null) or ("deal_files"."place" = 'submission' and "deal_files"."deliverable" is not null and "deal_files"."round" is not null) or "deal_files"."place" = 'brief'),
	CONSTRAINT "deal_files_size_check" CHECK ("deal_files"."size" between 1 and 10485760)
);
--> statement-breakpoint
ALTER TABLE "deal_messages" DROP CONSTRAINT "deal_messages_body_check";--> statement-breakpoint
ALTER TABLE "deal_briefs" ADD CONSTRAINT "deal_briefs_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_files" ADD CONSTRAINT "deal_files_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_files" ADD CONSTRAINT "deal_files_uploader_uid_user_id_fk" FOREIGN KEY ("uploader_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deal_files_deal_idx" ON "deal_files" USING btree ("deal_id","place");--> statement-breakpoint
ALTER TABLE "deal_messages" ADD CONSTRAINT "deal_messages_body_check" CHECK (char_length("deal_messages"."body") <= 4000);