ALTER TABLE "external_sponsors" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "external_sponsors" ADD COLUMN "staff_edited_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "logs_collection_created_idx" ON "logs" USING btree ("collection","created");