import type { AnyApiOperation } from "#server/api/operation";

export const opportunityOperations: AnyApiOperation[] = [];
