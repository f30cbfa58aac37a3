import PDFDocument from "pdfkit";
import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { testHooks } from "#tests/support/test-hooks-client";
import { expect, otherClient, payWithTestCard, signedInAs, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** A real small PDF, written by a PDF writer as a sponsor's guidelines would be. */
function pdfFile(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "A6" });
    const parts: Buffer[] = [];
    doc.on("data", (part: Buffer) => parts.push(part));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    doc.text(text);
    doc.end();
  });
}

const pngFile = (background: string, width = 640, height = 400) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

/** The image has been drawn: with JavaScript on, its pixels in the page; off, its thumbnail's address answers an image. */
async function drawn(image: Locator, page: Page, js: boolean) {
  await image.scrollIntoViewIfNeeded();
  if (js) return expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const thumb = await page.request.get((await image.getAttribute("src"))!);
  expect([thumb.status(), thumb.headers()["content-type"]]).toEqual([200, "image/webp"]);
}

// The forms are multipart forms that post to the deal page, so they work with JavaScript off too.
for (const [label, viewport, js] of [
  ["on a desktop", { width: 1280, height: 800 }, true],
  ["on a phone with JavaScript off", PHONE, false],
] as const) {
  test(`the brief, files in the thread and a screenshot with the work reach the other side ${label}`, async ({ browser }) => {
    // Two people through an offer, its booking and the files: the provider's checkout included.
    test.setTimeout(150_000);
    const creator = await otherClient(browser, { viewport, javaScriptEnabled: js });
    const { page } = creator;
    const stamp = Date.now();
    const name = `Files Fay ${stamp}`;
    await signedInAs(page, { prefix: "files-creator", name: "Fay Files", type: "creator" });
    await testHooks(page.request).insightsPage({ name, empty: true });
    await testHooks(page.request).paymentsReady();
    const [guidelines, moodBoard, rateCard, screenshot] = await Promise.all([pdfFile("Brand guidelines: matte black only."), pngFile("#2050c0"), pdfFile("Rate card 2027"), pngFile("#20a060", 390, 844)]);

    const sponsor = await otherClient(browser, { viewport, javaScriptEnabled: js });
    await signedInAs(sponsor.page, { prefix: "files-sponsor", name: "Brightside Bikes", type: "sponsor" });
    await sponsor.page.goto(`/app/profiles?name=${encodeURIComponent(name)}`);
    await sponsor.page.getByRole("link", { name: `Make ${name} an offer` }).click();
    await sponsor.page.getByLabel("What is it for?").fill("Bike bell launch");
    await sponsor.page.getByLabel("Your offer").fill("Ring our new bell on your next ride.");
    await sponsor.page.getByLabel("Price (US dollars)").fill("300");
    await sponsor.page.getByLabel("Channel 1").fill("YouTube");
    await sponsor.page.getByLabel("What is made 1").fill("A ride video");
    await sponsor.page.getByLabel("Due 1").fill("2031-02-01");
    await sponsor.page.getByRole("button", { name: "Send offer" }).click();
    await expect(sponsor.page.getByRole("heading", { level: 1 })).toHaveText("Bike bell launch");
    const dealUrl = sponsor.page.url().split("#")[0]!;
    // No brief before the terms are agreed.
    await expect(sponsor.page.getByRole("region", { name: "The brief" })).toHaveCount(0);

    await page.goto(dealUrl);
    await page.getByRole("button", { name: "Accept $300" }).click();
    await expect(page.getByText("Terms accepted.")).toBeVisible();
    await expect(page.getByRole("region", { name: "The brief" })).toContainText("Brightside Bikes has not written a brief yet.");

    // The sponsor writes the brief with an asset, then pays to book.
    await sponsor.page.reload();
    const brief = sponsor.page.getByRole("region", { name: "The brief" });
    await brief.getByLabel("The brief").fill("Ring the bell twice at the start.\nShow it on the handlebar: https://example.com/not-a-link");
    await brief.getByLabel("Add files (optional)").setInputFiles({ name: "guidelines.pdf", mimeType: "application/pdf", buffer: guidelines });
    await brief.getByRole("button", { name: "Save the brief" }).click();
    await expect(sponsor.page.getByText("Brief saved. The creator has been told.")).toBeVisible();
    await expect(brief.getByRole("link", { name: /guidelines\.pdf/ })).toBeVisible();
    await sponsor.page.getByRole("button", { name: "Pay $300 to book" }).click();
    await payWithTestCard(sponsor.page);
    await sponsor.page.waitForURL(/\?paid=1$/);
    await expect(async () => {
      await sponsor.page.reload();
      await expect(sponsor.page.getByText(/Booked: you paid \$300 on/)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    // The creator reads the brief (its address stays text) above the work.
    await page.reload();
    const creatorBrief = page.getByRole("region", { name: "The brief" });
    await expect(creatorBrief).toContainText("Ring the bell twice at the start.");
    await expect(creatorBrief.getByRole("link", { name: /example\.com/ })).toHaveCount(0);
    await expect(creatorBrief.getByRole("link", { name: /guidelines\.pdf/ })).toContainText("KB");
    await expect(creatorBrief.getByRole("button", { name: "Save the brief" })).toHaveCount(0);

    // A file that is not what it says is refused with a reason, and nothing is sent.
    const thread = page.getByRole("region", { name: "Messages" });
    await thread.getByLabel("Write a message").fill("My files");
    await thread.getByLabel("Attach files (optional)").setInputFiles({ name: "holiday.png", mimeType: "image/png", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
    await thread.getByRole("button", { name: "Send message" }).click();
    await expect(thread.getByText(/“holiday\.png”: That file isn't one we take/)).toBeVisible();
    await expect(thread.getByRole("listitem")).toHaveCount(0);

    // A message with a PNG and a PDF.
    await thread.getByLabel("Write a message").fill("Mood board and my rates attached.");
    await thread.getByLabel("Attach files (optional)").setInputFiles([
      { name: "mood board.png", mimeType: "image/png", buffer: moodBoard },
      { name: "rate card.pdf", mimeType: "application/pdf", buffer: rateCard },
    ]);
    await thread.getByRole("button", { name: "Send message" }).click();
    const sent = thread.getByRole("listitem").filter({ hasText: "Mood board and my rates attached." });
    await expect(sent.getByRole("img", { name: "mood board.png" })).toBeVisible();
    await expect(sent.getByRole("link", { name: /rate card\.pdf/ })).toBeVisible();

    // The work, handed in with a screenshot.
    const work = page.getByRole("region", { name: "The work" });
    await work.getByLabel("Where is “A ride video” live?").fill("https://youtube.com/watch?v=bell");
    await work.getByLabel("A screenshot (optional)").setInputFiles({ name: "live.png", mimeType: "image/png", buffer: screenshot });
    await work.getByRole("button", { name: "Hand in" }).click();
    await expect(page.getByText("Handed in. The sponsor has been told.")).toBeVisible();
    await expect(work.getByRole("img", { name: "live.png" })).toBeVisible();

    // The sponsor sees all of it, the images drawn from their thumbnails.
    await sponsor.page.goto(dealUrl);
    const received = sponsor.page.getByRole("region", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Mood board and my rates attached." });
    await drawn(received.getByRole("img", { name: "mood board.png" }), sponsor.page, js);
    const pdfLink = received.getByRole("link", { name: /rate card\.pdf/ });
    await expect(pdfLink).toContainText("KB");
    const review = sponsor.page.getByRole("region", { name: "The work" });
    await drawn(review.getByRole("img", { name: "live.png" }), sponsor.page, js);
    await expect(review.getByRole("button", { name: "Approve" })).toBeVisible();

    // Served as a download to the deal's sides with safe headers; not at all to anyone else.
    const pdfUrl = (await pdfLink.getAttribute("href"))!;
    const downloaded = await sponsor.page.request.get(pdfUrl);
    expect(downloaded.status()).toBe(200);
    expect(downloaded.headers()["content-type"]).toBe("application/pdf");
    expect(downloaded.headers()["content-disposition"]).toMatch(/^attachment; filename="rate card\.pdf"/);
    expect(downloaded.headers()["x-content-type-options"]).toBe("nosniff");
    expect(downloaded.headers()["cache-control"]).toBe("private, no-store");
    expect(downloaded.headers()["cross-origin-resource-policy"]).toBe("same-origin");
    expect((await downloaded.body()).equals(rateCard)).toBe(true);
    const imageUrl = (await received.getByRole("link").first().getAttribute("href"))!;
    const image = await sponsor.page.request.get(imageUrl);
    expect([image.headers()["content-type"], image.headers()["content-disposition"]?.split(";")[0]]).toEqual(["image/png", "inline"]);

    const stranger = await otherClient(browser);
    await signedInAs(stranger.page, { prefix: "files-stranger", name: "Nosy Ned", type: "sponsor" });
    expect((await stranger.page.request.get(pdfUrl)).status()).toBe(404);
    const opened = await stranger.page.goto(imageUrl);
    expect(opened?.status()).toBe(404);
    await expect(stranger.page.locator("body")).toContainText("There is no such file.");
    await expect(stranger.page.getByRole("img")).toHaveCount(0);
    await stranger.context.close();
    await sponsor.context.close();
    await creator.context.close();
  });
}
