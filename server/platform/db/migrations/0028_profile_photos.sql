CREATE TABLE "photo_variants" (
	"photo_id" text NOT NULL,
	"size" integer NOT NULL,
	"format" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "photo_variants_photo_id_size_format_pk" PRIMARY KEY("photo_id","size","format"),
	CONSTRAINT "photo_variants_size_check" CHECK ("photo_variants"."size" in (96, 192, 384)),
	CONSTRAINT "photo_variants_format_check" CHECK ("photo_variants"."format" in ('webp', 'avif'))
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photos_id_check" CHECK ("photos"."id" ~ '^[0-9a-f]{32}$')
);
--> statement-breakpoint
ALTER TABLE "photo_variants" ADD CONSTRAINT "photo_variants_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_uid_user_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photos_uid_idx" ON "photos" USING btree ("uid");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_photo_id_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."photos"("id") ON DELETE set null ON UPDATE no action;