import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { expect, signedInAs, test } from "./fixtures";
import { APP_ORIGIN, BIO_ORIGIN } from "#tests/support/e2e-ports";

/**
 * A person's profile photo: uploaded in the bio editor (and My Account), seen
 * on their public page, in the header and the profiles directory; hostile
 * files refused with a message that changes nothing; no JavaScript needed.
 */
const DASHBOARD = "/app/account/bizbio";
const PHOTO_IMG = 'img[src*="/media/photos/"]';

async function verifiedUser(page: Page, name: string): Promise<void> {
  await signedInAs(page, { prefix: "photo", name });
}

/** A page of one's own, made through the form's endpoint; answers its editor's address and ending. */
async function bioPage(request: APIRequestContext, page: Page, name: string): Promise<{ editor: string; ending: string }> {
  const ending = `face_${randomBytes(4).toString("hex")}`;
  const response = await request.post(`${DASHBOARD}/new`, {
    data: new URLSearchParams([["name", name], ["customEnding", ending], ["blurb", "Hello."]]).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto(DASHBOARD);
  const editor = await page.getByRole("listitem", { name, exact: true }).getByRole("link", { name: /^Edit/ }).getAttribute("href");
  return { editor: editor!, ending };
}

/** A phone-ish JPEG that carries where it was taken. */
const photoFile = async (colour = "#c0392b") => ({
  name: "IMG_0001.JPG",
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 1200, height: 900, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Make: "TestPhone" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1" } })
    .toBuffer(),
});
const svgNamedJpeg = { name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`) };

async function shownPhotoLoads(page: Page) {
  const img = page.locator(PHOTO_IMG).first();
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  return img.getAttribute("src");
}

test("upload in the editor: the photo shows on the public page, the header, My Account and the profiles directory; hostile files are refused", async ({ page }) => {
  await verifiedUser(page, "Photo Owner");
  const { editor, ending } = await bioPage(page.request, page, "Face Page");
  await page.goto(editor);

  // A drawing that calls itself a JPEG: the message says why, and nothing changes.
  await page.getByLabel("Profile photo").setInputFiles(svgNamedJpeg);
  await expect(page.getByRole("img", { name: "Preview of the chosen photo" })).toBeAttached();
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("alert")).toContainText("SVG drawings aren't taken as profile photos");
  await expect(page.locator(PHOTO_IMG)).toHaveCount(0);

  await page.getByLabel("Profile photo").setInputFiles(await photoFile());
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Photo saved.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload new photo" })).toBeVisible();
  const src = await shownPhotoLoads(page);
  expect(src).toMatch(/^\/media\/photos\/[0-9a-f]{32}-96\.webp$/);
  const id = src!.slice("/media/photos/".length, "/media/photos/".length + 32);

  // The header's face is the photo.
  await expect(page.locator(`header ${PHOTO_IMG}`)).toHaveAttribute("src", src!);

  // The public page, on the bio host: the photo, from the host itself, with no metadata left.
  const visitor = await page.context().browser()!.newContext();
  const publicPage = await visitor.newPage();
  await publicPage.goto(`${BIO_ORIGIN}/${ending}`);
  const face = publicPage.locator("header img.i");
  await expect(face).toHaveAttribute("alt", "");
  await expect.poll(() => face.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  // Through the browser, which resolves bio.localhost (Node's resolver may not).
  const served = (await publicPage.goto(`${BIO_ORIGIN}/media/photos/${id}-192.webp`))!;
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(served.headers()["content-type"]).toBe("image/webp");
  expect((await served.body()).includes(Buffer.from("TestPhone"))).toBe(false);
  expect((await sharp(await served.body()).metadata()).exif).toBeUndefined();

  // The profiles directory, as anyone sees it.
  await publicPage.goto(`${APP_ORIGIN}/app/profiles?name=Face%20Page`);
  await expect(publicPage.getByRole("listitem").filter({ hasText: "Face Page" }).locator(PHOTO_IMG)).toHaveAttribute("src", src!);
  await visitor.close();

  // My Account shows it, and removes it: the initial is back everywhere.
  await page.goto("/app/account");
  await expect(page.locator(`#photo ${PHOTO_IMG}`)).toHaveAttribute("src", src!);
  await page.getByRole("button", { name: "Remove photo" }).click();
  await expect(page.getByText("Photo removed.")).toBeVisible();
  await expect(page.locator(PHOTO_IMG)).toHaveCount(0);
  expect((await page.request.get(`/media/photos/${id}-96.webp`)).status()).toBe(404);
});

test("without JavaScript: a refused file shows why on its own page; a photo saves and comes back to the editor", async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  await verifiedUser(page, "Plain Owner");
  const { editor } = await bioPage(page.request, page, "Plain Page");
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto(editor);
  await plain.getByLabel("Profile photo").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text, not a picture") });
  await plain.getByRole("button", { name: "Upload photo" }).click();
  await expect(plain.getByRole("heading", { level: 1, name: "Profile photo" })).toBeVisible();
  await expect(plain.getByRole("alert")).toContainText("That file isn't a photo we can read");

  await plain.getByLabel("Profile photo").setInputFiles(await photoFile("#2e86c1"));
  await plain.getByRole("button", { name: "Upload photo" }).click();
  await expect(plain).toHaveURL(editor);
  await expect(plain.locator(`main ${PHOTO_IMG}`)).toHaveCount(1);
  await context.close();
});

test("the photo form has no axe findings at 390 and 1280 px, with and without a photo", async ({ page }) => {
  // Twelve axe passes over three pages (the editor with its phone preview among them): past 60 s on two busy cores.
  test.setTimeout(120_000);
  await verifiedUser(page, "Axe Owner");
  const { editor } = await bioPage(page.request, page, "Axe Page");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [editor, "/app/account", "/app/account/photo"]) {
      await page.goto(path);
      expect((await new AxeBuilder({ page }).analyze()).violations, `${path} at ${width}px`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    if (width === 390) {
      await page.goto(editor);
      await page.getByLabel("Profile photo").setInputFiles(await photoFile("#27ae60"));
      await page.getByRole("button", { name: "Upload photo" }).click();
      await expect(page.getByText("Photo saved.")).toBeVisible();
    }
  }
});
