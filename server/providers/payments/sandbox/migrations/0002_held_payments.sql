CREATE TABLE "sandbox"."sandbox_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"payment_id" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"transfer_group" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_transfers_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "sandbox_transfers_amount_check" CHECK ("sandbox"."sandbox_transfers"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ADD COLUMN "purpose" text DEFAULT 'sponsor' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ADD COLUMN "deal_id" text;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ADD COLUMN "transfer_group" text;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_transfers" ADD CONSTRAINT "sandbox_transfers_payment_id_sandbox_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "sandbox"."sandbox_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_transfers" ADD CONSTRAINT "sandbox_transfers_account_id_sandbox_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."sandbox_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_transfers_payment_idx" ON "sandbox"."sandbox_transfers" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "sandbox_transfers_account_idx" ON "sandbox"."sandbox_transfers" USING btree ("account_id","created");--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ADD CONSTRAINT "sandbox_checkouts_purpose_check" CHECK (("sandbox"."sandbox_checkouts"."purpose" = 'sponsor' and "sandbox"."sandbox_checkouts"."account_id" is not null) or ("sandbox"."sandbox_checkouts"."purpose" = 'deal' and "sandbox"."sandbox_checkouts"."account_id" is null and "sandbox"."sandbox_checkouts"."application_fee_amount" = 0 and "sandbox"."sandbox_checkouts"."transfer_group" is not null));