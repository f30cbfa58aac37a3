CREATE TABLE "billing_details" (
	"uid" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"tax_id" text,
	"tax_label" text,
	"tax_rate_basis_points" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_details_lengths_check" CHECK (char_length("billing_details"."legal_name") between 1 and 200 and char_length("billing_details"."address") <= 500 and char_length("billing_details"."country") <= 60 and char_length(coalesce("billing_details"."tax_id", '')) <= 40),
	CONSTRAINT "billing_details_tax_check" CHECK (("billing_details"."tax_label" is null) = ("billing_details"."tax_rate_basis_points" is null) and char_length(coalesce("billing_details"."tax_label", 'x')) between 1 and 30 and coalesce("billing_details"."tax_rate_basis_points", 1) between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "deal_invoices" (
	"deal_id" text PRIMARY KEY NOT NULL,
	"funding_id" text NOT NULL,
	"seller_uid" text,
	"buyer_uid" text,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"seller" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"tax" jsonb,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_invoices_number_check" CHECK ("deal_invoices"."number" >= 1),
	CONSTRAINT "deal_invoices_amount_check" CHECK ("deal_invoices"."amount" > 0),
	CONSTRAINT "deal_invoices_currency_check" CHECK ("deal_invoices"."currency" ~ '^[a-z]{3}$')
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"uid" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_last_number_check" CHECK ("invoice_counters"."last_number" >= 1)
);
--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_invoices" ADD CONSTRAINT "deal_invoices_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_invoices" ADD CONSTRAINT "deal_invoices_funding_id_deal_fundings_id_fk" FOREIGN KEY ("funding_id") REFERENCES "public"."deal_fundings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_invoices" ADD CONSTRAINT "deal_invoices_seller_uid_user_id_fk" FOREIGN KEY ("seller_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_invoices" ADD CONSTRAINT "deal_invoices_buyer_uid_user_id_fk" FOREIGN KEY ("buyer_uid") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_invoices_seller_number_idx" ON "deal_invoices" USING btree ("seller_uid","number");