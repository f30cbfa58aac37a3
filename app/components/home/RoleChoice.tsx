import { Form } from "react-router";

const choice = "flex w-full flex-col rounded-2xl border-2 border-primary/30 bg-white p-5 text-left text-ink hover:border-primary";

/**
 * The neutral start for someone who never said whether they create or sponsor (a Google sign-up,
 * or sign-up without choosing): one press records it and opens that side's first run.
 */
export function RoleChoice() {
  return (
    <section aria-labelledby="role-choice-heading" className="mb-14 rounded-2xl bg-primary/5 p-5 sm:p-6">
      <h2 id="role-choice-heading" className="text-2xl font-bold">
        How will you use Sponsorgrid?
      </h2>
      <p className="mt-1 text-muted">Choose one to start. Everything else stays open to you.</p>
      <Form method="post" className="mt-5 grid gap-4 md:grid-cols-2">
        <input type="hidden" name="intent" value="choose-role" />
        <button type="submit" name="role" value="creator" className={choice}>
          <span className="text-lg font-bold">I'm a creator</span>
          <span className="mt-1 text-muted">Make your page, take tips and find sponsors.</span>
        </button>
        <button type="submit" name="role" value="sponsor" className={choice}>
          <span className="text-lg font-bold">I'm a sponsor</span>
          <span className="mt-1 text-muted">Browse creators and post a brief.</span>
        </button>
      </Form>
    </section>
  );
}
