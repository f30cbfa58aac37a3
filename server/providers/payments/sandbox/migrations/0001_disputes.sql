CREATE TABLE "sandbox"."sandbox_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"fee" integer NOT NULL,
	"evidence_due_by" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_disputes_payment_unique" UNIQUE("payment_intent_id")
);
--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_disputes" ADD CONSTRAINT "sandbox_disputes_payment_intent_id_sandbox_payments_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "sandbox"."sandbox_payments"("id") ON DELETE no action ON UPDATE no action;