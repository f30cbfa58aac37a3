ALTER TABLE "billing_customers" ADD COLUMN "refreshed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pro_checkouts" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "pro_checkouts" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pro_checkouts" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pro_memberships" ADD COLUMN "billing_plan" text;--> statement-breakpoint
ALTER TABLE "sandbox_accounts" ADD COLUMN "onboarding_link_id" text;--> statement-breakpoint
ALTER TABLE "pro_memberships" ADD CONSTRAINT "pro_memberships_billing_plan_check" CHECK ("pro_memberships"."billing_plan" is null or "pro_memberships"."billing_plan" in ('launchpad', 'star_power'));