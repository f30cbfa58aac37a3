import { requireVerifiedUser } from "#server/domains/auth/session";
import { readDealInvoice } from "#server/domains/deals/paperwork-read";
import { InvoiceSheet, PaperworkToolbar } from "#app/components/deals/PaperworkSheets";
import { pageMeta } from "#page-kit/meta";
import { refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/invoice";

// A document to print: the page draws its own slim bar instead of the site's header and footer.
export const handle = { siteChrome: false };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const read = await readDealInvoice(context.db, { uid: user.id, dealId: params.dealId, appName: context.config.APP_NAME });
  if (read.kind === "ERROR") refuseWith(read);
  return { invoice: read.document, dealId: params.dealId };
}

export const meta: Route.MetaFunction = (args) => (args.data ? pageMeta(args, { title: `Invoice ${args.data.invoice.number}`, noindex: true }) : []);

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  const { invoice, dealId } = loaderData;
  return (
    <>
      <PaperworkToolbar dealId={dealId} pdfHref={`/app/deals/${dealId}/invoice.pdf`} />
      <InvoiceSheet invoice={invoice} />
    </>
  );
}
