import type { UserType } from "#server/platform/db/schema";

/** Demo sign-ins, also listed in the README. Only ever seeded into an empty database. */
export const DEMO_PASSWORD = "sponsorgrid-demo";

export type DemoAccountKey = "creator" | "sponsor" | "sponsor2";

export const DEMO_ACCOUNTS: Record<
  DemoAccountKey,
  { id: string; email: string; name: string; profileName: string; type: UserType }
> = {
  creator: {
    id: "demo-creator",
    email: "maya@demo.sponsorgrid.example",
    name: "Maya Chen",
    profileName: "Maya Makes",
    type: "creator",
  },
  sponsor: {
    id: "demo-sponsor",
    email: "jordan@demo.sponsorgrid.example",
    name: "Jordan Reyes",
    profileName: "Northwind Audio",
    type: "sponsor",
  },
  sponsor2: {
    id: "demo-sponsor2",
    email: "priya@demo.sponsorgrid.example",
    name: "Priya Natarajan",
    profileName: "Brightleaf Foods",
    type: "sponsor",
  },
};
