CREATE TABLE "billing_customers" (
	"uid" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "pro_checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text NOT NULL,
	"plan" text NOT NULL,
	"provider_checkout_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pro_checkouts_plan_check" CHECK ("pro_checkouts"."plan" in ('launchpad', 'star_power', 'limitless'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_customers" (
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
CREATE TABLE "sandbox_one_time_purchases" (
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
CREATE TABLE "sandbox_prices" (
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
CREATE TABLE "sandbox_pro_checkouts" (
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
	CONSTRAINT "sandbox_pro_checkouts_status_check" CHECK ("sandbox_pro_checkouts"."status" in ('open', 'complete', 'expired')),
	CONSTRAINT "sandbox_pro_checkouts_mode_check" CHECK ("sandbox_pro_checkouts"."mode" in ('subscription', 'payment'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"price_id" text NOT NULL,
	"checkout_id" text,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_subscriptions_checkout_id_unique" UNIQUE("checkout_id"),
	CONSTRAINT "sandbox_subscriptions_status_check" CHECK ("sandbox_subscriptions"."status" in ('active', 'past_due', 'canceled'))
);
--> statement-breakpoint
ALTER TABLE "pro_memberships" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pro_checkouts" ADD CONSTRAINT "pro_checkouts_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_one_time_purchases" ADD CONSTRAINT "sandbox_one_time_purchases_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_one_time_purchases" ADD CONSTRAINT "sandbox_one_time_purchases_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_pro_checkouts" ADD CONSTRAINT "sandbox_pro_checkouts_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_pro_checkouts" ADD CONSTRAINT "sandbox_pro_checkouts_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_customer_id_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."sandbox_customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD CONSTRAINT "sandbox_subscriptions_price_id_sandbox_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."sandbox_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pro_checkouts_uid_idx" ON "pro_checkouts" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "sandbox_one_time_purchases_customer_idx" ON "sandbox_one_time_purchases" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "sandbox_subscriptions_customer_idx" ON "sandbox_subscriptions" USING btree ("customer_id");