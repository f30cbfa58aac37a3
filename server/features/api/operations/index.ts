import type { AnyApiOperation } from "#server/features/api/operation";
import { bioPageOperations } from "./bio-pages";
import { dealRoomOperations } from "./deal-room";
import { dealOperations } from "./deals";
import { meOperations } from "./me";
import { membershipTierOperations } from "./membership-tiers";
import { memberOperations } from "./members";
import { notificationOperations } from "./notifications";
import { opportunityOperations } from "./opportunities";
import { paymentOperations } from "./payments";
import { webhookEndpointOperations } from "./webhook-endpoints";

/** Every `/api/v1` operation, in the order the reference lists them. The router and the document read only this. */
export const API_OPERATIONS: readonly AnyApiOperation[] = [...meOperations, ...opportunityOperations, ...dealOperations, ...dealRoomOperations, ...bioPageOperations, ...membershipTierOperations, ...paymentOperations, ...memberOperations, ...notificationOperations, ...webhookEndpointOperations];
