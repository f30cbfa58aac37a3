import { requireVerifiedUser } from "#server/domains/auth/session";
import { readDealStatement } from "#server/domains/deals/paperwork-read";
import { PaperworkToolbar, StatementSheet } from "#app/components/deals/PaperworkSheets";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/statement";

// A document to print: the page draws its own slim bar instead of the site's header and footer.
export const handle = { siteChrome: false };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readDealStatement(context.db, { uid: user.id, dealId: params.dealId });
  if (read.kind === "ERROR") refuseWith(read);
  return { statement: read.document, dealId: params.dealId };
}

export const meta: Route.MetaFunction = (args) => (args.data ? pageMeta(args, { title: args.data.statement.title, noindex: true }) : []);

export default function StatementPage({ loaderData }: Route.ComponentProps) {
  const { statement, dealId } = loaderData;
  return (
    <>
      <PaperworkToolbar dealId={dealId} pdfHref={`/app/deals/${dealId}/statement.pdf`} />
      <StatementSheet statement={statement} />
    </>
  );
}
