import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { THEME_PRESETS } from "#isomorphic/bio-theme";
import { bioPages, connectedAccounts, user } from "#server/platform/db/schema";
import { BioPagePhone } from "#app/components/home-page/BioPagePhone";
import { SAMPLE_PAGE } from "#app/components/home-page/sample-page";
import { listShowcasePages } from "./showcase";

describe("the home's sample page", () => {
  it("draws as a whole phone in a picker theme, with tips and links, when a deployment has no featured page", () => {
    const html = renderToStaticMarkup(createElement(BioPagePhone, { page: SAMPLE_PAGE }));
    expect(html).toContain(`The bio page of ${SAMPLE_PAGE.name} on a phone, with tip amounts, links`);
    expect(html).toContain("Support Alex Rivera");
    expect(html).toContain(">$5<");
    expect(html).toContain(SAMPLE_PAGE.theme.background);
  });
});

describe.each(ENGINES)("the home's featured pages on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sunset = THEME_PRESETS.find((preset) => preset.id === "sunset")!.theme;

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: "show-a", name: "A", email: "show-a@show.example", emailVerified: true },
      { id: "show-b", name: "B", email: "show-b@show.example", emailVerified: true, disabled: true },
    ]);
  });

  it("answers none on a deployment without featured pages, so the home draws its sample", async () => {
    expect(await listShowcasePages(database.db)).toEqual([]);
  });

  it("answers featured pages with their theme, first links and tips only when the page takes money; none of a disabled owner", async () => {
    await database.db.insert(bioPages).values([
      {
        id: "showa",
        uid: "show-a",
        customEnding: "show_a",
        name: "Show A",
        theme: sunset,
        featuredAt: new Date(),
        links: [
          { type: "youtube", url: "https://youtube.com/@a" },
          { type: "store", url: "https://a.example", title: "My shop" },
          { type: "twitch", url: "https://twitch.tv/a", enabled: false },
        ],
      },
      { id: "showb", uid: "show-b", customEnding: "show_b", name: "Show B", featuredAt: new Date() },
      { id: "showc", uid: "show-a", customEnding: "show_c", name: "Not featured" },
    ]);
    const [page, ...rest] = await listShowcasePages(database.db);
    expect(rest).toEqual([]);
    expect(page).toMatchObject({ customEnding: "show_a", theme: sunset, links: ["YouTube", "My shop"], tips: null, photoId: null });
    await database.db.insert(connectedAccounts).values({ uid: "show-a", stateToken: "show-state", providerAccountId: "acct_show", completed: true });
    expect((await listShowcasePages(database.db))[0]!.tips).toEqual([300, 500, 1000]);
    await database.db.update(bioPages).set({ acceptTips: false }).where(eq(bioPages.id, "showa"));
    expect((await listShowcasePages(database.db))[0]!.tips).toBeNull();
  });
});
