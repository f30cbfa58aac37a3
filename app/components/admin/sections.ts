/** The back office's sections, in the order its navigation shows them (server/domains/staff/guard.ts guards each). */
export const ADMIN_SECTIONS = [
  { path: "/app/admin", label: "Overview", description: "What needs attention now." },
  { path: "/app/admin/reports", label: "Reports", description: "Reports of bio pages and opportunities: open, actioned and dismissed." },
  { path: "/app/admin/accounts", label: "Accounts", description: "Find an account; suspend it with a reason, or lift a suspension." },
  { path: "/app/admin/content", label: "Removed content", description: "Bio pages and opportunities taken down, and restoring them." },
  { path: "/app/admin/payments", label: "Payments", description: "Every payment on the platform, its ledger rows, provider events and refunds." },
  { path: "/app/admin/memberships", label: "Memberships", description: "Every membership: its tier, page, member, amount and status." },
  { path: "/app/admin/deals", label: "Deals", description: "Every deal between a creator and a sponsor: its terms versions and every move." },
  { path: "/app/admin/disputes", label: "Disputes", description: "Chargebacks from the payment provider and their deadlines." },
  { path: "/app/admin/reconciliation", label: "Reconciliation", description: "The ledger compared with the provider's balance, both ways." },
  { path: "/app/admin/sponsors", label: "Sponsor directory", description: "The companies Pro members see: add, edit, retire, import and export." },
  { path: "/app/admin/audit", label: "Audit log", description: "Every back-office action: who, when, what and why." },
] as const;
