import { NavLink } from "react-router";

export const PAYMENTS_PATH = "/app/admin/payments";

/** The Payments section's views: one link each, the current one marked for screen readers by NavLink. */
const TABS = [
  { to: PAYMENTS_PATH, label: "All payments" },
  { to: `${PAYMENTS_PATH}/pro`, label: "Pro memberships" },
  { to: `${PAYMENTS_PATH}/payouts`, label: "Payout accounts" },
  { to: `${PAYMENTS_PATH}/fees`, label: "Platform fee" },
] as const;

export function PaymentsTabs() {
  return (
    <nav aria-label="Payments views" className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {TABS.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end
              className={({ isActive }) => `inline-block rounded-full border px-3 py-1 text-sm no-underline ${isActive ? "border-ink bg-ink font-semibold text-white" : "border-black/20 hover:bg-black/5"}`}
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The top of every Payments view: the section's heading, then its views. */
export function PaymentsHeading() {
  return (
    <>
      <h1 className="text-3xl font-bold">Payments</h1>
      <PaymentsTabs />
    </>
  );
}
