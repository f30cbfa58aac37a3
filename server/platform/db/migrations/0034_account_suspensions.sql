CREATE TABLE "account_suspensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text NOT NULL,
	"suspended_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suspended_by_id" text,
	"suspended_by_label" text NOT NULL,
	"reason" text NOT NULL,
	"until" timestamp with time zone,
	"lifted_at" timestamp with time zone,
	"lifted_by_id" text,
	"lifted_by_label" text,
	"lift_reason" text
);
--> statement-breakpoint
ALTER TABLE "account_suspensions" ADD CONSTRAINT "account_suspensions_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_suspensions_uid_idx" ON "account_suspensions" USING btree ("uid","suspended_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_suspensions_one_open_idx" ON "account_suspensions" USING btree ("uid") WHERE "account_suspensions"."lifted_at" is null;--> statement-breakpoint
CREATE INDEX "account_suspensions_due_idx" ON "account_suspensions" USING btree ("until") WHERE "account_suspensions"."lifted_at" is null and "account_suspensions"."until" is not null;