import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";
import { openApiDocument } from "./openapi";
import { API_OPERATIONS } from "./operations/index";
import { webhookReferenceOf } from "./webhook-reference";

describe("the webhooks guide's event bodies", () => {
  const groups = webhookReferenceOf(openApiDocument(API_OPERATIONS, { serverUrl: "http://app.test", version: "test" }));

  it("lists each event once, under the object it sends, each object's fields once", () => {
    expect(groups.flatMap((group) => group.events.map((event) => event.type)).sort()).toEqual(WEBHOOK_EVENT_TYPES.map((event) => event.type).sort());
    expect(groups.map((group) => [group.schemaName, group.events.map((event) => event.type)])).toEqual([
      ["Payment", ["payment.succeeded", "payment.refunded", "payment.disputed"]],
      ["ProMembership", ["pro.started", "pro.ended"]],
      ["MembershipEvent", ["membership.created", "membership.renewed", "membership.payment_failed", "membership.cancelled", "membership.ended"]],
      ["OpportunityHearted", ["opportunity.hearted"]],
      ["Notification", ["notification.created"]],
      [
        "DealEvent",
        [
          "deal.proposed",
          "deal.countered",
          "deal.agreed",
          "deal.declined",
          "deal.withdrawn",
          "deal.funded",
          "deal.work_submitted",
          "deal.changes_requested",
          "deal.completed",
          "deal.disputed",
          "deal.dispute_decided",
          "deal.cancelled",
          "deal.message",
        ],
      ],
    ]);
  });

  it("describes nested fields by their path, from the document's descriptions", () => {
    const payment = groups.find((group) => group.schemaName === "Payment")!;
    expect(payment.fields.find((row) => row.name === "figures.net")).toMatchObject({ depth: 1, type: "integer", required: true, description: expect.stringContaining("Your share") });
    expect(payment.fields.find((row) => row.name === "dispute.evidenceDueBy")).toMatchObject({ type: "string (date-time) or null" });
    const hearted = groups.find((group) => group.schemaName === "OpportunityHearted")!;
    expect(hearted.fields.map((row) => row.name)).toEqual(["opportunity", "opportunity.id", "opportunity.title", "newHearts", "totalHearts", "from", "to"]);
  });

  it("shows each event's example as the JSON body it is", () => {
    for (const event of groups.flatMap((group) => group.events)) {
      expect(JSON.parse(event.example), event.type).toMatchObject({ type: event.type, timestamp: expect.any(String), data: expect.any(Object) });
    }
  });
});
