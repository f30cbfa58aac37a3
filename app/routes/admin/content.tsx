import { Form } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { isTargetType } from "#server/domains/moderation/queue";
import { listRemoved, removeByAddress, restoreContent } from "#server/domains/moderation/takedown";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { ItemLink } from "#app/components/admin/ItemLink";
import { FormNotice, primaryButton, secondaryButton, TextField } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, refuse, requireForm } from "#page-kit/respond.server";
import { MODERATION_REASON_MAX } from "#isomorphic/report-reasons";
import type { Route } from "./+types/content";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const removed = await listRemoved(context.db);
  return {
    bioOrigin: context.config.BIO_ORIGIN,
    removed: removed.map((item) => ({ type: item.type, id: item.id, title: item.title, address: item.address, removedAt: item.removedAt.toISOString(), removedBy: item.removedBy, removedReason: item.removedReason })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const intent = formText(form, "intent");
  const reason = formText(form, "reason");
  const deps = notificationDepsOf(context);
  let result;
  if (intent === "remove") {
    result = await removeByAddress(context.db, deps, staff.actor, { address: formText(form, "address"), bioOrigin: context.config.BIO_ORIGIN }, reason);
  } else if (intent === "restore") {
    const type = formText(form, "type");
    if (!isTargetType(type)) refuse("invalid-argument", "Unknown item type");
    result = await restoreContent(context.db, deps, staff.actor, { type, id: formText(form, "id") }, reason);
  } else {
    refuse("invalid-argument", "Unknown action");
  }
  if (result.kind === "ERROR") return answerRefusal(result, { message: result.message, intent, id: formText(form, "id") });
  return redirectWithToast(request, context.sessionSecret, "/app/admin/content", {
    kind: "success",
    message: `${intent === "remove" ? "Taken down" : "Restored"}: “${result.item.title}”. Its owner was told.`,
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Removed content", noindex: true });

export default function RemovedContent({ loaderData, actionData }: Route.ComponentProps) {
  const { removed, bioOrigin } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Removed content</h1>
      <p className="mt-2 text-muted">Bio pages and opportunities taken down. A removed bio page answers “unavailable”; a removed opportunity is seen only by its poster, marked removed.</p>

      <section aria-labelledby="remove-heading" className="mt-8 max-w-xl">
        <h2 id="remove-heading" className="text-xl font-bold">
          Take an item down
        </h2>
        {actionData?.message && actionData.intent === "remove" ? (
          <div className="mt-3">
            <FormNotice>{actionData.message}</FormNotice>
          </div>
        ) : null}
        <Form method="post" className="mt-3 grid gap-4">
          <input type="hidden" name="intent" value="remove" />
          <TextField label="Address or id" name="address" required hint="A bio page's address or ending, or an opportunity's address or id." />
          <TextField label="Reason" name="reason" id="remove-reason" required maxLength={MODERATION_REASON_MAX} hint="The owner reads it." />
          <div>
            <button type="submit" className={primaryButton}>
              Remove
            </button>
          </div>
        </Form>
      </section>

      <h2 className="mt-10 text-xl font-bold">{`Taken down (${removed.length})`}</h2>
      {removed.length === 0 ? <p className="mt-3">Nothing is taken down.</p> : null}
      <ul className="mt-3 grid gap-3">
        {removed.map((item) => (
          <li key={`${item.type}:${item.id}`} className="rounded-lg border p-4">
            <ItemLink item={item} bioOrigin={bioOrigin} />
            <p className="mt-1 text-sm text-muted">{`Removed ${item.removedAt.slice(0, 16).replace("T", " ")} UTC by ${item.removedBy ?? "staff"}`}</p>
            <p className="mt-1">{`Why: ${item.removedReason ?? ""}`}</p>
            {actionData?.message && actionData.intent === "restore" && actionData.id === item.id ? (
              <div className="mt-3">
                <FormNotice>{actionData.message}</FormNotice>
              </div>
            ) : null}
            <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="restore" />
              <input type="hidden" name="type" value={item.type} />
              <input type="hidden" name="id" value={item.id} />
              <TextField label={`Reason to restore “${item.title}”`} name="reason" id={`restore-${item.type}-${item.id}`} required maxLength={MODERATION_REASON_MAX} className="min-w-64 flex-1" />
              <button type="submit" className={secondaryButton}>
                Restore
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </>
  );
}
