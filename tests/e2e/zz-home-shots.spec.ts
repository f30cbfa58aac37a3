import { DEMO, expect, signIn, test } from "./fixtures";
test("shots", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL("/app");
  for (const width of [390, 768, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/app");
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    console.log("width", width, "overflow", over);
    await page.screenshot({ path: `/tmp/home-shots/home-${width}.png`, fullPage: width === 390 || width === 1280 });
  }
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/app/account/bizbio");
  await page.screenshot({ path: `/tmp/home-shots/bizbio-390.png`, fullPage: true });
});
