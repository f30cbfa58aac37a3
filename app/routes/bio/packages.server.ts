import type { AppLoadContext } from "react-router";
import { amountInputText } from "#isomorphic/amount-input";
import { addPackage, changePackage, listOwnPackages, movePackage, removePackage, type PackageInput } from "#server/domains/bio/packages";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import type { PackageIntent, PackageRow, PackagesAnswer } from "#app/components/bio/WorkWithMe";

/** The owner's packages as their forms show them (the loader's part); someone else's page is "not found". */
export async function packagesView(context: AppLoadContext, uid: string, pageId: string): Promise<PackageRow[]> {
  const result = await listOwnPackages(context.db, { uid }, pageId);
  if (result.kind === "ERROR") refuseWith(result);
  return result.packages.map((item) => ({
    id: item.id,
    values: { title: item.title, details: item.details, price: amountInputText(item.price), turnaroundDays: String(item.turnaroundDays) },
  }));
}

function packageInput(form: FormData): PackageInput {
  return { title: formText(form, "packageTitle"), details: formText(form, "packageDetails"), price: formText(form, "packagePrice"), turnaroundDays: formText(form, "packageDays") };
}

export type PackagesActionData = { packages: PackagesAnswer };

/**
 * The "Work with me" forms (intents package-add, -save, -remove, -up, -down), each one domain
 * call for the owner's page only, then back to the same editor with a toast. A refused form comes
 * back with what was typed beside its messages; a package or page that is not the caller's is
 * "not found".
 */
export async function packagesAction(request: Request, context: AppLoadContext, uid: string, pageId: string, form: FormData) {
  const intent = formText(form, "intent") as PackageIntent;
  const packageId = formText(form, "packageId");
  const owner = { uid };
  const input = packageInput(form);
  const result =
    intent === "package-add"
      ? await addPackage(context.db, owner, pageId, input)
      : intent === "package-save"
        ? await changePackage(context.db, owner, pageId, packageId, input)
        : intent === "package-remove"
          ? await removePackage(context.db, owner, pageId, packageId)
          : await movePackage(context.db, owner, pageId, packageId, intent === "package-up" ? "up" : "down");
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuseWith(result);
    const errors = "fieldErrors" in result ? result.fieldErrors : {};
    const message = "fieldErrors" in result ? undefined : result.message;
    const answer: PackagesActionData = { packages: { packageId: intent === "package-add" ? "new" : packageId, values: input, errors, message, formKey: crypto.randomUUID() } };
    return answerRefusal(result, answer);
  }
  const message =
    intent === "package-add" ? "Package added to your page." : intent === "package-save" ? "Package saved." : intent === "package-remove" ? "Package removed." : "Packages reordered.";
  const here = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, safeRedirectPath(`${here.pathname}${here.search}#packages-heading`), { kind: "success", message });
}
