CREATE TABLE "notification_digests" (
	"uid" text NOT NULL,
	"day" date NOT NULL,
	"hearts" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_digests_uid_day_pk" PRIMARY KEY("uid","day")
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"uid" text NOT NULL,
	"kind" text NOT NULL,
	"mail" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_uid_kind_pk" PRIMARY KEY("uid","kind")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_digests" ADD CONSTRAINT "notification_digests_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hearts_created_idx" ON "hearts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_one_welcome_idx" ON "notifications" USING btree ("uid") WHERE "notifications"."kind" = 'welcome';