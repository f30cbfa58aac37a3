import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { findSandboxAccount, isCurrentOnboardingLink } from "./accounts";
import { checkOnboardingLink, readOnboardingLink } from "./links";
import { createSandboxProvider, type SandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const ORIGIN = "http://app.test";
const SECRET = "a-session-secret-of-at-least-32-characters";
const RETURN = { returnUrl: `${ORIGIN}/app/payments/setup/return?state=t`, refreshUrl: `${ORIGIN}/app/payments/setup` };
const DETAILS = { legalName: "Maya Makes LLC", country: "US" as const, bankAccount: "000123456789" };

/** An onboarding link works once, as Stripe's account links do. */
describe.each(ENGINES)("sandbox onboarding links on %s", (engine) => {
  const database = migratedDatabase(engine);
  let sandbox: SandboxProvider;
  let serial = 0;

  const newAccount = async () => {
    serial += 1;
    return (await sandbox.createConnectedAccount({ idempotencyKey: `account_link_${serial}`, email: "maya@example.com", accountType: "individual", uid: `u${serial}` })).accountId;
  };
  /** What the onboarding page checks: the signature, then whether the link is still the account's current one. */
  const opens = async (url: string) => {
    const parsed = new URL(url);
    const link = readOnboardingLink(parsed.pathname.split("/").at(-1)!, parsed.searchParams);
    if (checkOnboardingLink(sandbox.linkKey, link) !== "valid") return "invalid";
    return isCurrentOnboardingLink((await findSandboxAccount(database.db, link.accountId))!, link.linkId) ? "open" : "used";
  };
  const linkIdOf = (url: string) => new URL(url).searchParams.get("link")!;

  beforeAll(() => {
    sandbox = createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, webhookUrl: `${ORIGIN}/nowhere` });
  });
  afterAll(() => sandbox.close());

  it("is used up by completing the form: holding it afterwards changes neither the payout name nor the bank account", async () => {
    const accountId = await newAccount();
    const { url } = await sandbox.createOnboardingLink({ accountId, ...RETURN });
    expect(await opens(url)).toBe("open");
    expect(await sandbox.completeOnboarding(accountId, DETAILS, linkIdOf(url))).toMatchObject({ chargesEnabled: true });
    expect(await opens(url)).toBe("used");
    expect(await sandbox.completeOnboarding(accountId, { ...DETAILS, legalName: "Someone Else", bankAccount: "000999999999" }, linkIdOf(url))).toBeNull();
    expect(await findSandboxAccount(database.db, accountId)).toMatchObject({ legalName: "Maya Makes LLC", bankLast4: "6789" });
  });

  it("is replaced by a newer link: the older one opens nothing", async () => {
    const accountId = await newAccount();
    const first = await sandbox.createOnboardingLink({ accountId, ...RETURN });
    const second = await sandbox.createOnboardingLink({ accountId, ...RETURN });
    expect([await opens(first.url), await opens(second.url)]).toEqual(["used", "open"]);
    expect(await sandbox.completeOnboarding(accountId, DETAILS, linkIdOf(first.url))).toBeNull();
    expect((await findSandboxAccount(database.db, accountId))!.detailsSubmitted).toBe(false);
  });

  it("changes the account once when the same link is sent twice at once", async () => {
    const accountId = await newAccount();
    const { url } = await sandbox.createOnboardingLink({ accountId, ...RETURN });
    const results = await Promise.all([sandbox.completeOnboarding(accountId, DETAILS, linkIdOf(url)), sandbox.completeOnboarding(accountId, { ...DETAILS, legalName: "Twin" }, linkIdOf(url))]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
  });
});
