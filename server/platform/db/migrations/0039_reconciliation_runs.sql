CREATE TABLE "reconciliation_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"triggered_by" text NOT NULL,
	"provider" text NOT NULL,
	"provider_transactions" integer NOT NULL,
	"ledger_entries" integer NOT NULL,
	"movements_compared" integer NOT NULL,
	"difference_count" integer NOT NULL,
	"differences" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reconciliation_runs_started_idx" ON "reconciliation_runs" USING btree ("started_at");