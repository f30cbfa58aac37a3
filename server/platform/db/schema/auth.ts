import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

// Tables owned by better-auth (user, session, account, verification). Field
// names are the ones its drizzle adapter expects; columns are snake_case.
const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

export const user = pgTable(
  "user",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    email: text().notNull().unique("user_email_unique"),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    // Set by staff; a disabled account cannot sign in (SPEC §8 "user disabled") and has no public side.
    disabled: boolean().notNull().default(false),
    // "admin" is granted and revoked from the command line only (npm run admin); staff open /app/admin.
    role: text().$type<"user" | "admin">().notNull().default("user"),
    // better-auth's two-factor plugin: set once an authenticator app is enrolled (required for staff).
    twoFactorEnabled: boolean().notNull().default(false),
    ...timestamps,
  },
  // The few disabled accounts, for the public readers' anti-join (server/domains/accounts/active-owner.ts).
  (t) => [index("user_disabled_idx").on(t.id).where(sql`${t.disabled}`)],
);

export const session = pgTable(
  "session",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique("session_token_unique"),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

// better-auth's two-factor plugin: one authenticator app per account. The secret and the recovery
// codes are stored encrypted with the auth secret; each recovery code is removed once used.
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // False until the first code from the app confirms the enrolment.
    verified: boolean().default(true),
    // The plugin's own lock after many wrong codes in a row (besides server/platform/abuse limits).
    failedVerificationCount: integer().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    // The newest 30-second time step whose code was accepted: a code from it or an earlier one is
    // refused, so an overheard code cannot sign in a second time (server/domains/auth/two-factor.ts).
    lastUsedStep: bigint({ mode: "number" }),
  },
  (t) => [uniqueIndex("two_factor_user_id_idx").on(t.userId)],
);
