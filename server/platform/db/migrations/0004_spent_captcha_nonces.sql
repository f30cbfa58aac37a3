CREATE TABLE "spent_captcha_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spent_captcha_nonces_expires_at_idx" ON "spent_captcha_nonces" USING btree ("expires_at");