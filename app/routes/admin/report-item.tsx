import { Form, Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { isTargetType, reportedItem, resolveReports } from "#server/domains/moderation/queue";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { ItemLink } from "#app/components/admin/ItemLink";
import { FormNotice, primaryButton, secondaryButton, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, refuse, refuseWith, requireForm } from "#page-kit/respond.server";
import { MODERATION_REASON_MAX } from "#isomorphic/report-reasons";
import type { Route } from "./+types/report-item";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  if (!isTargetType(params.type)) refuse("not-found");
  const found = await reportedItem(context.db, params.type, params.id);
  if (!found) refuse("not-found");
  const { item, reports } = found;
  return {
    bioOrigin: context.config.BIO_ORIGIN,
    item: { type: item.type, id: item.id, title: item.title, address: item.address, removedReason: item.removedAt ? item.removedReason : null },
    reports: reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  if (!isTargetType(params.type)) refuse("not-found");
  const form = await requireForm(request);
  const intent = formText(form, "intent");
  if (intent !== "remove" && intent !== "dismiss") refuse("invalid-argument", "Unknown action");
  const result = await resolveReports(context.db, notificationDepsOf(context), staff.actor, { type: params.type, id: params.id }, intent, formText(form, "reason"));
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuseWith(result);
    return answerRefusal(result, { message: result.message, intent });
  }
  const done = result.status === "actioned" ? "Removed" : "Dismissed";
  return redirectWithToast(request, context.sessionSecret, "/app/admin/reports", {
    kind: "success",
    message: `${done}: ${result.reports} report${result.reports === 1 ? "" : "s"} decided, ${result.mailed} reporter${result.mailed === 1 ? "" : "s"} told by mail.`,
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Reports of one item", noindex: true });

export default function ReportItem({ loaderData, actionData }: Route.ComponentProps) {
  const { item, reports, bioOrigin } = loaderData;
  const open = reports.filter((r) => r.status === "open").length;
  return (
    <>
      <Link to="/app/admin/reports" className="text-sm font-semibold">
        ← All reports
      </Link>
      <h1 className="mt-3 text-3xl font-bold">Reports of {item.title}</h1>
      <p className="mt-2">
        <ItemLink item={item} bioOrigin={bioOrigin} />
      </p>
      {item.removedReason !== null ? <p className="mt-2 text-sm">{`Taken down: ${item.removedReason}`}</p> : null}
      <h2 className="mt-8 text-xl font-bold">{`Reports (${reports.length}, ${open} open)`}</h2>
      <ol className="mt-3 grid gap-3">
        {reports.map((r) => (
          <li key={r.id} className="rounded-lg border p-4">
            <p className="font-semibold">{r.reason}</p>
            <p className="text-sm text-muted">{`${r.status} · reported ${r.createdAt.slice(0, 16).replace("T", " ")} UTC${r.hasEmail ? " · reporter gave an email" : ""}`}</p>
            {r.note ? <p className="mt-2 whitespace-pre-line break-words">{r.note}</p> : <p className="mt-2 text-sm text-muted">No note.</p>}
            {r.resolution ? <p className="mt-2 text-sm">{`Decided by ${r.resolvedBy ?? "staff"}: ${r.resolution}`}</p> : null}
          </li>
        ))}
      </ol>
      {open > 0 ? (
        <section aria-labelledby="decide-heading" className="mt-8 max-w-xl">
          <h2 id="decide-heading" className="text-xl font-bold">
            Decide the open reports
          </h2>
          {actionData?.message ? (
            <div className="mt-3">
              <FormNotice>{actionData.message}</FormNotice>
            </div>
          ) : null}
          <Form method="post" className="mt-3 grid gap-4">
            <TextField
              label="Reason"
              name="reason"
              required
              maxLength={MODERATION_REASON_MAX}
              hint="Required. The owner reads it if you remove the item; the audit log keeps it either way."
            />
            <div className="flex flex-wrap gap-3">
              <button type="submit" name="intent" value="remove" className={primaryButton}>
                Remove
              </button>
              <button type="submit" name="intent" value="dismiss" className={secondaryButton}>
                Dismiss
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </>
  );
}
