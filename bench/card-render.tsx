// What the server spends rendering one list page's 20 opportunity cards, in isolation: React's
// Node renderer (as app/entry.server.tsx uses it) inside React Router's static router, without
// HTTP, database, hydration data or compression.
//   NODE_ENV=production node --import tsx bench/card-render.tsx
// Prints CPU µs per render of 20 cards and of none (the difference is the cards' cost), as the
// median and the fastest of 15 batches of 200 renders after 300 warm-up renders.
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from "react-router";
import { OpportunityCard } from "#app/components/opportunities/OpportunityCard";
import type { OpportunitySummary } from "#server/domains/opportunities/list";

const SIX_TAGS = ["youtube sponsorship", "technology", "paid placement", "product seeding", "california", "june"];
// Like the 6-tag page at 1M: every card has the six tags, half a deadline, two in three a minimum.
const POSTS: OpportunitySummary[] = Array.from({ length: 20 }, (_, i) => ({
  id: `82052869${String(i).padStart(2, "0")}_jD4aFzFWSBgtElOYAIzs`,
  title: `Seeking youtube creators for technology in California, campaign ${i + 1}`,
  organization: "Oakridge Studio",
  minContributionCents: i % 3 ? 175_000 : 0,
  currency: "usd",
  applicationDeadline: i % 2 ? "2026-12-03T17:00:00.000Z" : null,
  applicationDeadlineTimeZone: i % 2 ? "America/New_York" : null,
  tags: SIX_TAGS,
  totalHearts: i,
  liked: i % 4 === 0,
}));
const PAGE = `/app/opportunities?${SIX_TAGS.map((tag) => `tags[]=${encodeURIComponent(tag)}`).join("&")}`;

async function routerFor(cards: number) {
  const List = () => (
    <ul>
      {POSTS.slice(0, cards).map((post) => (
        <OpportunityCard key={post.id} post={post} appName="Sponsorgrid" locale="en-US" />
      ))}
    </ul>
  );
  const handler = createStaticHandler([{ path: "/app/opportunities", Component: List }]);
  const context = (await handler.query(new Request(`http://localhost${PAGE}`))) as StaticHandlerContext;
  return { router: createStaticRouter(handler.dataRoutes, context), context };
}

function render({ router, context }: Awaited<ReturnType<typeof routerFor>>): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const { pipe } = renderToPipeableStream(<StaticRouterProvider router={router} context={context} />, {
      onAllReady() {
        pipe(
          new Writable({
            write(piece: Buffer, _encoding, done) {
              bytes += piece.length;
              done();
            },
            final(done) {
              resolve(bytes);
              done();
            },
          }),
        );
      },
      onShellError: reject,
    });
  });
}

async function measure(cards: number) {
  const page = await routerFor(cards);
  let bytes = 0;
  for (let i = 0; i < 300; i++) bytes = await render(page);
  const perRender: number[] = [];
  for (let batch = 0; batch < 15; batch++) {
    const start = process.cpuUsage();
    for (let i = 0; i < 200; i++) await render(page);
    const used = process.cpuUsage(start);
    perRender.push((used.user + used.system) / 200);
  }
  perRender.sort((a, b) => a - b);
  return { bytes, median: perRender[7]!, fastest: perRender[0]! };
}

if (process.env.NODE_ENV !== "production") throw new Error("Run with NODE_ENV=production: React's development build is several times slower.");
const none = await measure(0);
const twenty = await measure(20);
console.log("cards  html bytes  CPU µs per render (median / fastest)");
for (const [cards, result] of [[0, none], [20, twenty]] as const) {
  console.log(`${String(cards).padStart(5)}  ${String(result.bytes).padStart(10)}  ${result.median.toFixed(0).padStart(6)} / ${result.fastest.toFixed(0)}`);
}
console.log(`20 cards cost ${(twenty.median - none.median).toFixed(0)} µs (median) / ${(twenty.fastest - none.fastest).toFixed(0)} µs (fastest)`);
