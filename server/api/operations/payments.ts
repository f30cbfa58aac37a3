import type { AnyApiOperation } from "#server/api/operation";

export const paymentOperations: AnyApiOperation[] = [];
