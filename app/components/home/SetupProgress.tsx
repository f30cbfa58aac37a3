import { Link } from "react-router";
import { CHECKLIST_PATH } from "#app/components/bio/SetupChecklist";

/** The home's pointer to the setup checklist while it is not done (the checklist itself is on Your Pages). */
export function SetupProgress({ name, doneCount, total }: { name: string; doneCount: number; total: number }) {
  return (
    <section aria-labelledby="setup-progress-heading" className="mb-6 rounded-2xl border-2 border-primary/30 bg-primary/5 p-5">
      <h2 id="setup-progress-heading" className="text-lg font-bold">
        Finish setting up {name}
      </h2>
      <p className="mt-1 text-muted">
        {doneCount} of {total} steps done.{" "}
        <Link to={CHECKLIST_PATH} className="font-semibold">
          Continue setup
        </Link>
      </p>
    </section>
  );
}
