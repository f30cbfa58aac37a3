import type { MembershipBilling } from "#server/providers/payments/port";

// Scaffolding while the Stripe's membership billing is built in its own branch: replaced wholesale.
export function stripeMembershipBilling(): MembershipBilling {
  const later = () => Promise.reject(new Error("Stripe membership billing is not built yet"));
  return {
    createMembershipCheckout: later,
    membershipSubscriptionOfCheckout: later,
    readMembershipState: later,
    changeMembershipPrice: later,
    setMembershipCancelAtPeriodEnd: later,
    endMembershipNow: later,
    createMembershipCardLink: later,
  };
}
