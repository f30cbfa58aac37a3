import type { ShowcasePage } from "#server/domains/bio/showcase";
import { BioPagePhone } from "#app/components/home-page/BioPagePhone";

/**
 * The page being made, drawn in a phone from the form's current values:
 * beside the form on a wide screen, behind a "Preview" disclosure on a
 * phone (so the form comes first). Without JavaScript it shows the page as
 * the form was drawn.
 */
export function LivePreview({ page, placement }: { page: ShowcasePage; placement: "side" | "disclosure" }) {
  if (placement === "side") {
    return (
      <aside aria-label="Preview" className="sticky top-6 hidden lg:block">
        <p className="mb-3 text-center text-sm font-semibold text-muted">Preview</p>
        <BioPagePhone page={page} />
      </aside>
    );
  }
  return (
    <details className="mt-6 rounded-xl border border-ink/15 lg:hidden">
      <summary className="cursor-pointer px-4 py-3 font-semibold">Preview</summary>
      <div className="px-4 pb-4">
        <BioPagePhone page={page} />
      </div>
    </details>
  );
}
