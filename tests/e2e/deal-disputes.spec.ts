import AxeBuilder from "@axe-core/playwright";
import sharp from "sharp";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, payWithTestCard, signedInAs, signInAsStaff, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

test("a sponsor disputes a booked deal, the money stays held, and staff split it with a reason both sides read", async ({ page, browser }) => {
  // Three people and a payment: longer than one page's journey.
  test.setTimeout(150_000);
  const name = `Dispute Dana ${Date.now()}`;
  const creator = await otherClient(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  await signedInAs(creator.page, { prefix: "dispute-creator", name: "Dana Dispute", type: "creator" });
  await testHooks(creator.page.request).insightsPage({ name, empty: true });
  await testHooks(creator.page.request).paymentsReady();

  // A direct offer, accepted and paid for.
  await signedInAs(page, { prefix: "dispute-sponsor", name: "Lumen Lamps", type: "sponsor" });
  await page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Make ${name} an offer` }).click();
  await page.getByLabel("What is it for?").fill("Desk lamp review");
  await page.getByLabel("Your offer").fill("Review our new desk lamp in one video.");
  await page.getByLabel("Price (US dollars)").fill("200");
  await page.getByLabel("Channel 1").fill("YouTube");
  await page.getByLabel("What is made 1").fill("A lamp review");
  await page.getByLabel("Due 1").fill("2031-02-01");
  await page.getByRole("button", { name: "Send offer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Desk lamp review");
  const dealUrl = page.url().split("#")[0]!;

  await creator.page.goto(dealUrl);
  await creator.page.getByRole("button", { name: "Accept $200" }).click();
  await expect(creator.page.getByText("Terms accepted.")).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: "Pay $200 to book" }).click();
  await payWithTestCard(page);
  await page.waitForURL(/\?paid=1$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/Booked: you paid \$200 on/)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The sponsor opens a dispute: a reason is required, and the money then stays held.
  const box = page.getByRole("region", { name: "Something went wrong?" });
  await expect(box).toContainText("The $200 then stays held until our staff decide");
  await box.getByText("Open a dispute", { exact: true }).click();
  await box.getByLabel("What went wrong (staff and the other side read it)").fill("Two weeks of silence, and the draft ignored the brief.");
  await box.getByRole("button", { name: "Open a dispute and hold the money" }).click();
  await expect(page.getByText("Dispute opened. The money stays held until our staff decide.")).toBeVisible();
  await expect(page.getByText("Disputed", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Dispute" })).toContainText("You opened a dispute");
  await expect(page.getByRole("region", { name: "Cancel the deal" })).toHaveCount(0);

  // The creator, on a phone, reads it and answers in the thread; there is nothing to hand in meanwhile.
  await creator.page.reload();
  const seen = creator.page.getByRole("region", { name: "Dispute" });
  await expect(seen).toContainText("Lumen Lamps opened a dispute");
  await expect(seen).toContainText("“Two weeks of silence, and the draft ignored the brief.”");
  await expect(creator.page.getByText("Disputed: the money stays held until our staff decide.")).toBeVisible();
  await expect(creator.page.getByRole("button", { name: "Hand in" })).toHaveCount(0);
  expect((await new AxeBuilder({ page: creator.page }).analyze()).violations).toEqual([]);
  const thread = creator.page.getByRole("region", { name: "Messages" });
  await thread.getByLabel("Write a message").fill("Here is a frame of the draft I sent on the 3rd.");
  const frame = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#f4c430" } }).png().toBuffer();
  await thread.getByLabel("Attach files (optional)").setInputFiles({ name: "draft-frame.png", mimeType: "image/png", buffer: frame });
  await thread.getByRole("button", { name: "Send message" }).click();
  await expect(thread.getByText("Here is a frame of the draft I sent on the 3rd.")).toBeVisible();

  // Staff find it among the disputed deals, read the thread and the terms, and split it.
  const staff = await otherClient(browser);
  await signInAsStaff(staff.page);
  await staff.page.goto("/app/admin");
  await staff.page.getByRole("link", { name: "Disputed deals" }).click();
  await staff.page.getByRole("link", { name: "Desk lamp review" }).first().click();
  const dispute = staff.page.getByRole("region", { name: "Dispute" });
  await expect(dispute).toContainText("Two weeks of silence, and the draft ignored the brief.");
  // The thread with its files, opened from the back office's own address.
  const fileLink = staff.page.getByRole("link", { name: /^draft-frame\.png/ });
  await expect(fileLink).toHaveAttribute("href", /^\/app\/admin\/deals\/[^/]+\/files\/[0-9a-f]{32}$/);
  const opened = await staff.page.request.get((await fileLink.getAttribute("href"))!);
  expect([opened.status(), opened.headers()["content-type"]]).toEqual([200, "image/png"]);
  expect((await page.request.get((await fileLink.getAttribute("href"))!, { maxRedirects: 0 })).status()).toBe(404);
  await dispute.getByLabel(/Split: refund part to the sponsor/).check();
  await dispute.getByLabel(/For a split: refund to the sponsor/).fill("50");
  await expect(dispute.getByRole("status")).toHaveText("The sponsor gets back $50; the creator is paid $150; the platform keeps $0.");
  await dispute.getByLabel(/^Reason/).fill("The draft went out late but was made; half the brief was met.");
  expect((await new AxeBuilder({ page: staff.page }).analyze()).violations).toEqual([]);
  await dispute.getByRole("button", { name: "Decide and move the money" }).click();
  await expect(staff.page.getByText("Decided. The money has moved and both sides are told.")).toBeVisible();
  await expect(dispute).toContainText("split: $150.00 to the creator, $50.00 back to the sponsor");
  await staff.context.close();

  // Both sides read the decision and where the money went.
  await page.reload();
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Dispute" })).toContainText("Our staff decided: Split. Dana Dispute was paid $150; $50 went back to Lumen Lamps.");
  await expect(page.getByRole("region", { name: "Dispute" })).toContainText("“The draft went out late but was made; half the brief was met.”");
  await creator.page.reload();
  await expect(creator.page.getByText("Settled by our staff after a dispute: you were paid $150.")).toBeVisible();
  await creator.page.goto("/app/notifications");
  await expect(creator.page.getByText(/Our staff decided the dispute on “Desk lamp review”: \$150 to the creator, \$50 back to the sponsor\./)).toBeVisible();
  await creator.context.close();
});
