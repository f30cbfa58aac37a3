import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { apiKeys, user } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import type { ApiCaller } from "./keys";

export type ApiIdentity = {
  id: string;
  name: string;
  email: string;
  key: { id: string; name: string; mode: "live" | "test"; scopes: string[]; expiresAt: Date | null };
};

/** Who a key acts for, and the key itself: what `GET /api/v1/me` answers. */
export async function describeCaller(db: Db, caller: ApiCaller): Promise<Result<{ identity: ApiIdentity }, Refusal<"not-found", "ACCOUNT_NOT_FOUND">>> {
  const [row] = await db
    .select({ id: user.id, name: user.name, email: user.email, keyName: apiKeys.name, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .innerJoin(user, eq(user.id, apiKeys.uid))
    .where(eq(apiKeys.id, caller.keyId));
  if (!row) return refusal("not-found", "ACCOUNT_NOT_FOUND", "The account of this key is gone.");
  return success({
    identity: { id: row.id, name: row.name, email: row.email, key: { id: caller.keyId, name: row.keyName, mode: caller.mode, scopes: [...caller.scopes], expiresAt: row.expiresAt } },
  });
}
