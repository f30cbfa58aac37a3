/**
 * Said once, above a list of invented companies (the catalogue the project ships), rather than
 * on every card: no reader takes a sample's name, blurb or way to apply for a real firm's. The
 * samples leave every page as soon as staff add a real company (server/domains/sponsor-directory/shown.ts).
 */
export function SampleNotice() {
  return (
    <p className="rounded-lg border border-ink/20 bg-primary/5 px-4 py-3 text-sm" data-testid="sample-notice">
      These are sample companies, invented to show how the directory works. They make way for real companies as soon as staff add
      them.
    </p>
  );
}
