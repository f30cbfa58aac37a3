import { Form, useNavigation } from "react-router";
import { primaryButton } from "#page-kit/forms";

export type PreferenceRow = { kind: string; label: string; description: string; mail: boolean };

/**
 * My Account's "Notifications": every kind is shown in the app,
 * always; each may also be emailed. A plain form (works without JavaScript):
 * the checked boxes are the kinds to email, the rest are off.
 */
export function NotificationPreferences({ rows }: { rows: PreferenceRow[] }) {
  const saving = useNavigation().formData?.get("intent") === "notification-preferences";
  return (
    <Form method="post" className="space-y-4">
      <p className="text-sm">In-app: always. Every notification appears under Notifications in the app; choose which ones we also email you.</p>
      <fieldset>
        <legend className="font-semibold">Email me about</legend>
        <ul className="mt-3 space-y-3">
          {rows.map((row) => {
            const id = `mail-${row.kind}`;
            return (
              <li key={row.kind} className="flex items-start gap-3">
                <input
                  id={id}
                  type="checkbox"
                  name="mail"
                  value={row.kind}
                  defaultChecked={row.mail}
                  aria-describedby={`${id}-hint`}
                  className="mt-1 size-5 shrink-0 accent-primary"
                />
                <div>
                  <label htmlFor={id} className="font-medium">
                    {row.label}
                  </label>
                  <p id={`${id}-hint`} className="text-sm text-muted">
                    {row.description}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <button type="submit" name="intent" value="notification-preferences" className={primaryButton} disabled={saving}>
        {saving ? "Saving..." : "Save email preferences"}
      </button>
    </Form>
  );
}
