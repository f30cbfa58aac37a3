ALTER TABLE "sponsor_sessions" DROP CONSTRAINT "sponsor_sessions_poster_uid_user_id_fk";
--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ALTER COLUMN "poster_uid" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sponsor_sessions" ADD CONSTRAINT "sponsor_sessions_poster_uid_user_id_fk" FOREIGN KEY ("poster_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;