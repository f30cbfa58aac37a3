CREATE TABLE "sandbox"."sandbox_membership_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"account_id" text NOT NULL,
	"membership_id" text NOT NULL,
	"product_name" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text NOT NULL,
	"application_fee_basis_points" integer DEFAULT 0 NOT NULL,
	"customer_email" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_membership_checkouts_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "sandbox_membership_checkouts_status_check" CHECK ("sandbox"."sandbox_membership_checkouts"."status" in ('open', 'complete', 'expired')),
	CONSTRAINT "sandbox_membership_checkouts_interval_check" CHECK ("sandbox"."sandbox_membership_checkouts"."interval" in ('month', 'year')),
	CONSTRAINT "sandbox_membership_checkouts_amount_check" CHECK ("sandbox"."sandbox_membership_checkouts"."amount" > 0 and "sandbox"."sandbox_membership_checkouts"."application_fee_basis_points" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_membership_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_fails_renewal" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_membership_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"payment_intent_id" text,
	"paid_at" timestamp with time zone,
	"reason" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_membership_invoices_period_unique" UNIQUE("subscription_id","period_start"),
	CONSTRAINT "sandbox_membership_invoices_status_check" CHECK ("sandbox"."sandbox_membership_invoices"."status" in ('paid', 'open', 'uncollectible', 'void')),
	CONSTRAINT "sandbox_membership_invoices_paid_check" CHECK (("sandbox"."sandbox_membership_invoices"."status" = 'paid') = ("sandbox"."sandbox_membership_invoices"."payment_intent_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_membership_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"membership_id" text NOT NULL,
	"product_name" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text NOT NULL,
	"application_fee_basis_points" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"ended_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_membership_subscriptions_checkout_id_unique" UNIQUE("checkout_id"),
	CONSTRAINT "sandbox_membership_subscriptions_status_check" CHECK ("sandbox"."sandbox_membership_subscriptions"."status" in ('active', 'past_due', 'canceled')),
	CONSTRAINT "sandbox_membership_subscriptions_interval_check" CHECK ("sandbox"."sandbox_membership_subscriptions"."interval" in ('month', 'year')),
	CONSTRAINT "sandbox_membership_subscriptions_amount_check" CHECK ("sandbox"."sandbox_membership_subscriptions"."amount" > 0 and "sandbox"."sandbox_membership_subscriptions"."application_fee_basis_points" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ALTER COLUMN "checkout_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD COLUMN "membership_invoice_id" text;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_membership_checkouts" ADD CONSTRAINT "sandbox_membership_checkouts_account_id_sandbox_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."sandbox_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_membership_invoices" ADD CONSTRAINT "sandbox_membership_invoices_subscription_id_sandbox_membership_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "sandbox"."sandbox_membership_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_membership_subscriptions" ADD CONSTRAINT "sandbox_membership_subscriptions_checkout_id_sandbox_membership_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "sandbox"."sandbox_membership_checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_membership_subscriptions" ADD CONSTRAINT "sandbox_membership_subscriptions_customer_id_sandbox_membership_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "sandbox"."sandbox_membership_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_membership_subscriptions" ADD CONSTRAINT "sandbox_membership_subscriptions_account_id_sandbox_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."sandbox_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_membership_checkouts_open_expiry_idx" ON "sandbox"."sandbox_membership_checkouts" USING btree ("expires_at") WHERE "sandbox"."sandbox_membership_checkouts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "sandbox_membership_subscriptions_due_idx" ON "sandbox"."sandbox_membership_subscriptions" USING btree ("current_period_end") WHERE "sandbox"."sandbox_membership_subscriptions"."status" in ('active', 'past_due');--> statement-breakpoint
CREATE INDEX "sandbox_membership_subscriptions_customer_idx" ON "sandbox"."sandbox_membership_subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sandbox_membership_subscriptions_account_idx" ON "sandbox"."sandbox_membership_subscriptions" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD CONSTRAINT "sandbox_payments_membership_invoice_id_sandbox_membership_invoices_id_fk" FOREIGN KEY ("membership_invoice_id") REFERENCES "sandbox"."sandbox_membership_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD CONSTRAINT "sandbox_payments_membership_invoice_id_unique" UNIQUE("membership_invoice_id");--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD CONSTRAINT "sandbox_payments_source_check" CHECK (num_nonnulls("sandbox"."sandbox_payments"."checkout_id", "sandbox"."sandbox_payments"."membership_invoice_id") = 1);