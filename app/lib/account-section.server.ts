import type { AppLoadContext } from "react-router";
import { requireVerifiedUser } from "#server/domains/auth/session";
import { formText } from "#app/lib/identity.server";
import { readForm } from "#page-kit/form.server";
import { answerRefusal } from "#page-kit/respond.server";

/**
 * The start of every My Account section's form post: the signed-in person with a verified email
 * (anyone else is sent to sign in or verify), the form and the button that sent it (`intent`).
 * A form that cannot be read is answered here, as the `error` every section's page shows above
 * its forms: the section returns `refused` as it is, before any domain function runs.
 */
export async function readAccountSectionForm<ActionResult extends { error?: string }>(request: Request, context: AppLoadContext) {
  const user = await requireVerifiedUser(request, context);
  const read = await readForm(request);
  if (read.kind === "ERROR") return { refused: answerRefusal<ActionResult>(read, { error: read.message } as ActionResult) } as const;
  return { refused: null, user, form: read.form, intent: formText(read.form, "intent") } as const;
}
