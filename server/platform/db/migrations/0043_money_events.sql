CREATE TABLE "money_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"key" text,
	"session_id" text,
	"uid" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_events_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "money_events" ADD CONSTRAINT "money_events_session_id_sponsor_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sponsor_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_events" ADD CONSTRAINT "money_events_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_events_session_idx" ON "money_events" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "money_events_uid_idx" ON "money_events" USING btree ("uid");