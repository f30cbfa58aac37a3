import type { Page } from "@playwright/test";
import { DEMO, expect, signIn, test } from "./fixtures";

/** What a person sees when a form arrives in a shape the app refuses. */

/** Submits a plain HTML form the way another page or a broken extension might: no JavaScript, any encoding. */
async function submitRawForm(page: Page, action: string, enctype: string, fields: Record<string, string>) {
  await page.evaluate(
    ({ action, enctype, fields }) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = action;
      form.enctype = enctype;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, enctype, fields },
  );
}

test("a NUL pasted into the opportunity form is refused on the page, and the text comes back without it", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  const stamp = Date.now();
  const title = `Pasted\u0000title ${stamp}`;
  await page.goto("/app/opportunities/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Copied from a file that had a stray NUL in it.");
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/app/opportunities/new"));
  await page.getByRole("button", { name: "Post opportunity" }).click();
  expect((await answer).status()).toBe(400);

  await expect(page.getByRole("alert").filter({ hasText: "invisible NUL character" })).toBeVisible();
  // The person's text is back in the field without the invisible NUL, so sending again works.
  await expect(page.getByLabel("Title")).toHaveValue(`Pastedtitle ${stamp}`);
  await expect(page.getByLabel("Description")).toHaveValue("Copied from a file that had a stray NUL in it.");
  await expect(page).toHaveURL("/app/opportunities/new");

  // Nothing was posted.
  await page.goto("/app/account/opportunities");
  await expect(page.getByRole("main")).not.toContainText(String(stamp));
});

test("a form sent as text/plain to sign in shows why on the sign-in page", async ({ page }) => {
  await page.goto("/signin");
  await submitRawForm(page, "/signin", "text/plain", { email: "someone@example.com", password: "x" });
  await expect(page).toHaveURL("/signin");
  await expect(page.getByRole("alert")).toContainText("This address takes a form submission only.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
});

test("a refused request on a page says so, rather than blaming the server; the heart says why in words", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  await page.goto("/app/opportunities");
  const detail = await page.getByRole("main").getByRole("heading", { level: 3 }).first().getByRole("link").getAttribute("href");

  let answer = page.waitForResponse((r) => r.request().method() === "POST");
  await submitRawForm(page, detail!, "text/plain", { intent: "delete" });
  expect((await answer).status()).toBe(415);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't accept that request");
  await expect(page.getByText("nothing was changed")).toBeVisible();

  await page.goto(detail!);
  answer = page.waitForResponse((r) => r.request().method() === "POST");
  await submitRawForm(page, `${detail}/heart`, "text/plain", { via: "form" });
  expect((await answer).status()).toBe(415);
  await expect(page.locator("body")).toHaveText("This address takes a form submission only. Send the form from its page again.");
});
