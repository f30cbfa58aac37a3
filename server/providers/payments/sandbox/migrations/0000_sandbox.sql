CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"email" text NOT NULL,
	"account_type" text NOT NULL,
	"uid" text NOT NULL,
	"legal_name" text,
	"country" text,
	"bank_last4" text,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"onboarding_link_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_accounts_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"account_id" text NOT NULL,
	"session_id" text,
	"product_name" text NOT NULL,
	"description" text,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"application_fee_amount" integer DEFAULT 0 NOT NULL,
	"customer_email" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"payment_intent_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_checkouts_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "sandbox_checkouts_status_check" CHECK ("sandbox"."sandbox_checkouts"."status" in ('open', 'complete', 'expired')),
	CONSTRAINT "sandbox_checkouts_amount_check" CHECK ("sandbox"."sandbox_checkouts"."amount" > 0 and "sandbox"."sandbox_checkouts"."application_fee_amount" >= 0 and "sandbox"."sandbox_checkouts"."application_fee_amount" <= "sandbox"."sandbox_checkouts"."amount")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"uid" text NOT NULL,
	"email" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_fails_renewal" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_customers_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_one_time_purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"price_id" text NOT NULL,
	"checkout_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_one_time_purchases_checkout_id_unique" UNIQUE("checkout_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"checkout_id" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" integer NOT NULL,
	"fee" integer NOT NULL,
	"application_fee" integer NOT NULL,
	"net" integer NOT NULL,
	"currency" text NOT NULL,
	"email" text NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payments_charge_id_unique" UNIQUE("charge_id"),
	CONSTRAINT "sandbox_payments_checkout_id_unique" UNIQUE("checkout_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_prices" (
	"id" text PRIMARY KEY NOT NULL,
	"lookup_key" text NOT NULL,
	"product_name" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_prices_lookup_key_unique" UNIQUE("lookup_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_pro_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"customer_id" text NOT NULL,
	"price_id" text NOT NULL,
	"mode" text NOT NULL,
	"uid" text NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_pro_checkouts_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "sandbox_pro_checkouts_status_check" CHECK ("sandbox"."sandbox_pro_checkouts"."status" in ('open', 'complete', 'expired')),
	CONSTRAINT "sandbox_pro_checkouts_mode_check" CHECK ("sandbox"."sandbox_pro_checkouts"."mode" in ('subscription', 'payment'))
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"payment_id" text NOT NULL,
	"amount" integer NOT NULL,
	"application_fee_refunded" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sandbox_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"price_id" text NOT NULL,
	"checkout_id" text,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_subscriptions_checkout_id_unique" UNIQUE("checkout_id"),
	CONSTRAINT "sandbox_subscriptions_status_check" CHECK ("sandbox"."sandbox_subscriptions"."status" in ('active', 'past_due', 'canceled'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_checkouts" ADD CONSTRAINT "sandbox_checkouts_account_id_sandbox_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."sandbox_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_one_time_purchases" ADD CONSTRAINT "sandbox_one_time_purchases_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "sandbox"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_one_time_purchases" ADD CONSTRAINT "sandbox_one_time_purchases_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "sandbox"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD CONSTRAINT "sandbox_payments_checkout_id_sandbox_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "sandbox"."sandbox_checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_payments" ADD CONSTRAINT "sandbox_payments_account_id_sandbox_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "sandbox"."sandbox_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_pro_checkouts" ADD CONSTRAINT "sandbox_pro_checkouts_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "sandbox"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_pro_checkouts" ADD CONSTRAINT "sandbox_pro_checkouts_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "sandbox"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_payment_id_sandbox_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "sandbox"."sandbox_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "sandbox"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "sandbox"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_checkouts_open_expiry_idx" ON "sandbox"."sandbox_checkouts" USING btree ("expires_at") WHERE "sandbox"."sandbox_checkouts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "sandbox_events_due_idx" ON "sandbox"."sandbox_events" USING btree ("next_attempt_at") WHERE "sandbox"."sandbox_events"."delivered_at" is null and "sandbox"."sandbox_events"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "sandbox_one_time_purchases_customer_idx" ON "sandbox"."sandbox_one_time_purchases" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sandbox_payments_account_created_idx" ON "sandbox"."sandbox_payments" USING btree ("account_id","created");--> statement-breakpoint
CREATE INDEX "sandbox_refunds_payment_idx" ON "sandbox"."sandbox_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "sandbox_subscriptions_customer_idx" ON "sandbox"."sandbox_subscriptions" USING btree ("customer_id");