import { z } from "zod";
import { describeCaller } from "#server/domains/api-keys/identity";
import { success } from "#server/platform/errors";
import { API_SCOPES } from "#isomorphic/api-scopes";
import { defineApiOperation, type AnyApiOperation } from "#server/features/api/operation";

const identitySchema = z
  .object({
    id: z.string().meta({ description: "Your account's id." }),
    name: z.string(),
    email: z.email(),
    key: z.object({
      id: z.string(),
      name: z.string(),
      mode: z.enum(["live", "test"]).meta({ description: "test under the payment sandbox, live with Stripe." }),
      scopes: z.array(z.enum(API_SCOPES as [string, ...string[]])),
      expiresAt: z.iso.datetime().nullable(),
    }),
  })
  .meta({ id: "Identity" });

export const meOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "getMe",
    method: "get",
    path: "/me",
    tag: "Account",
    summary: "Who this key acts for",
    description: "The account the key belongs to and what the key may do. Any valid key may call it.",
    scope: null,
    success: { status: 200, description: "The key's account and permissions.", schema: identitySchema },
    async handle({ caller, deps }) {
      const described = await describeCaller(deps.db, caller);
      if (described.kind === "ERROR") return described;
      const { identity } = described;
      return success({ body: { ...identity, key: { ...identity.key, expiresAt: identity.key.expiresAt?.toISOString() ?? null } } });
    },
  }),
];
