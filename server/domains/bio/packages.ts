import { and, asc, eq, max } from "drizzle-orm";
import { nanoid } from "nanoid";
import { parseAmountInput } from "#isomorphic/amount-input";
import { MAX_PACKAGE_DETAILS, MAX_PACKAGE_TITLE, MAX_PACKAGES_PER_PAGE, MAX_TURNAROUND_DAYS, MIN_TURNAROUND_DAYS } from "#isomorphic/bio-packages";
import { DEFAULT_CURRENCY } from "#isomorphic/payment-limits";
import { priceProblem } from "#server/domains/deals/terms-form";
import type { Db } from "#server/platform/db/client";
import { bioPackages, bioPages } from "#server/platform/db/schema";
import { domainError, fieldRefusal, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { isBioPageId } from "./endings";

/** A "Work with me" package as the editor and the public page show it; `price` in minor units of `currency`. */
export type BioPackage = { id: string; title: string; details: string; price: number; currency: string; turnaroundDays: number };

/** What the editor's package form sends, as typed: the price in dollars, the turnaround in days. */
export type PackageInput = { title: string; details: string; price: string; turnaroundDays: string };
export type PackageFieldErrors = Partial<Record<keyof PackageInput, string>>;
type PackageFields = Omit<BioPackage, "id" | "currency">;

type Owner = { uid: string };
type NotFound = DomainError<"not-found">;
export type TooManyPackages = Refusal<"resource-exhausted", "TOO_MANY_PACKAGES">;

const NO_PAGE: NotFound = domainError("not-found", "This page doesn't exist or was deleted.");
const NO_PACKAGE: NotFound = domainError("not-found", "This package doesn't exist or was removed.");
// Ours are `pkg_` and 12 more; anything much longer is no id of ours and is not looked up.
const PACKAGE_ID = /^[A-Za-z0-9_-]{1,40}$/;

const chars = (text: string) => [...text].length;
const COLUMNS = { id: bioPackages.id, title: bioPackages.title, details: bioPackages.details, price: bioPackages.price, currency: bioPackages.currency, turnaroundDays: bioPackages.turnaroundDays };

/** The form checked: every field's message at once. The price is held to a deal price's bounds, since a request becomes one. */
export function parsePackage(input: PackageInput): Success<{ fields: PackageFields }> | FieldRefusal<PackageFieldErrors> {
  const title = input.title.replace(/\s+/g, " ").trim();
  const details = input.details.replace(/\r\n?/g, "\n").trim();
  const price = parseAmountInput(input.price);
  const daysText = input.turnaroundDays.trim();
  const days = /^\d{1,3}$/.test(daysText) ? Number(daysText) : null;
  const errors: PackageFieldErrors = {};
  if (!title) errors.title = "Give the package a title, like “Dedicated video”";
  else if (chars(title) > MAX_PACKAGE_TITLE) errors.title = `Keep the title to ${MAX_PACKAGE_TITLE} characters or fewer`;
  if (!details) errors.details = "Say what the sponsor gets, like “One 60–90 second integration in a weekly video”";
  else if (chars(details) > MAX_PACKAGE_DETAILS) errors.details = `Keep this to ${MAX_PACKAGE_DETAILS} characters or fewer`;
  const priceError = price === null ? "Enter the price in dollars, like 750 or 750.50" : priceProblem(price);
  if (priceError) errors.price = priceError;
  if (days === null || days < MIN_TURNAROUND_DAYS || days > MAX_TURNAROUND_DAYS) {
    errors.turnaroundDays = `Enter a whole number of days from ${MIN_TURNAROUND_DAYS} to ${MAX_TURNAROUND_DAYS}`;
  }
  if (Object.keys(errors).length > 0 || price === null || days === null) return fieldRefusal(errors);
  return success({ fields: { title, details, price, turnaroundDays: days } });
}

/** The page's packages in its order: the public page's read, so no owner check. */
export async function listPagePackages(db: Db, pageId: string): Promise<BioPackage[]> {
  return db.select(COLUMNS).from(bioPackages).where(eq(bioPackages.bioPageId, pageId)).orderBy(asc(bioPackages.position), asc(bioPackages.createdAt), asc(bioPackages.id));
}

/** One package of one page, or null: what a sponsor's request is prefilled from. Another page's package is null. */
export async function packageOfPage(db: Db, pageId: string, packageId: string): Promise<BioPackage | null> {
  if (!PACKAGE_ID.test(packageId)) return null;
  const [row] = await db.select(COLUMNS).from(bioPackages).where(and(eq(bioPackages.id, packageId), eq(bioPackages.bioPageId, pageId)));
  return row ?? null;
}

/** The owner's page's packages, for the editor; someone else's page is "not found". */
export async function listOwnPackages(db: Db, owner: Owner, pageId: string): Promise<Success<{ packages: BioPackage[] }> | NotFound> {
  if (!isBioPageId(pageId)) return NO_PAGE;
  const [page] = await db.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NO_PAGE;
  return success({ packages: await listPagePackages(db, pageId) });
}

/**
 * Runs `write` with the owner's page row locked, so two writes to one page's packages (two
 * tabs adding the sixth) happen one after the other; someone else's page is "not found".
 */
async function onOwnPage<T extends object>(db: Db, owner: Owner, pageId: string, write: (tx: Db) => Promise<T | NotFound>): Promise<T | NotFound> {
  if (!isBioPageId(pageId)) return NO_PAGE;
  return db.transaction(async (tx) => {
    const [page] = await tx.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid))).for("update");
    return page ? write(tx) : NO_PAGE;
  });
}

/** Adds a package at the end of the owner's page's list: at most MAX_PACKAGES_PER_PAGE. */
export async function addPackage(
  db: Db,
  owner: Owner,
  pageId: string,
  input: PackageInput,
  now = new Date(),
): Promise<Success<{ package: BioPackage }> | FieldRefusal<PackageFieldErrors> | TooManyPackages | NotFound> {
  const parsed = parsePackage(input);
  return onOwnPage(db, owner, pageId, async (tx) => {
    const packages = await listPagePackages(tx, pageId);
    if (packages.length >= MAX_PACKAGES_PER_PAGE) {
      return refusal("resource-exhausted", "TOO_MANY_PACKAGES", `A page can have at most ${MAX_PACKAGES_PER_PAGE} packages. Remove one to add another.`);
    }
    // Checked after ownership, so a stranger learns nothing from the form's messages.
    if (parsed.kind === "ERROR") return parsed;
    const [last] = await tx.select({ position: max(bioPackages.position) }).from(bioPackages).where(eq(bioPackages.bioPageId, pageId));
    const row = { id: `pkg_${nanoid(12)}`, currency: DEFAULT_CURRENCY, ...parsed.fields };
    await tx.insert(bioPackages).values({ ...row, bioPageId: pageId, position: (last?.position ?? -1) + 1, createdAt: now, updatedAt: now });
    return success({ package: row });
  });
}

/** Changes one of the owner's page's packages; its place in the list stays. */
export async function changePackage(
  db: Db,
  owner: Owner,
  pageId: string,
  packageId: string,
  input: PackageInput,
  now = new Date(),
): Promise<Success<{ package: BioPackage }> | FieldRefusal<PackageFieldErrors> | NotFound> {
  const parsed = parsePackage(input);
  return onOwnPage(db, owner, pageId, async (tx) => {
    if (!PACKAGE_ID.test(packageId)) return NO_PACKAGE;
    if (parsed.kind === "ERROR") return (await packageOfPage(tx, pageId, packageId)) ? parsed : NO_PACKAGE;
    const [row] = await tx
      .update(bioPackages)
      .set({ ...parsed.fields, updatedAt: now })
      .where(and(eq(bioPackages.id, packageId), eq(bioPackages.bioPageId, pageId)))
      .returning(COLUMNS);
    return row ? success({ package: row }) : NO_PACKAGE;
  });
}

/** Removes one of the owner's page's packages; the rest keep their order. */
export async function removePackage(db: Db, owner: Owner, pageId: string, packageId: string): Promise<Success<{ title: string }> | NotFound> {
  return onOwnPage(db, owner, pageId, async (tx) => {
    if (!PACKAGE_ID.test(packageId)) return NO_PACKAGE;
    const [row] = await tx
      .delete(bioPackages)
      .where(and(eq(bioPackages.id, packageId), eq(bioPackages.bioPageId, pageId)))
      .returning({ title: bioPackages.title });
    return row ? success({ title: row.title }) : NO_PACKAGE;
  });
}

/**
 * Moves one of the owner's page's packages a place up or down; at the top (or bottom) already, nothing
 * changes (`moved` false). The list is numbered afresh, so gaps a removal left never matter.
 */
export async function movePackage(db: Db, owner: Owner, pageId: string, packageId: string, direction: "up" | "down"): Promise<Success<{ moved: boolean }> | NotFound> {
  return onOwnPage(db, owner, pageId, async (tx) => {
    const ids = (await listPagePackages(tx, pageId)).map((row) => row.id);
    const from = ids.indexOf(packageId);
    if (from < 0) return NO_PACKAGE;
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= ids.length) return success({ moved: false });
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    for (const [position, id] of ids.entries()) {
      await tx.update(bioPackages).set({ position }).where(eq(bioPackages.id, id));
    }
    return success({ moved: true });
  });
}
