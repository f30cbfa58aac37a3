ALTER TABLE "logs" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_count_check" CHECK ("logs"."count" >= 1);