import { Form, useNavigation } from "react-router";
import { FormNotice, primaryButton, SelectField, TextField } from "#page-kit/forms";
import { API_KEY_EXPIRY_CHOICES, API_KEY_NAME_MAX, API_RESOURCES } from "#isomorphic/api-scopes";

export type CreateApiKeyState = { fieldErrors?: { name?: string; scopes?: string; expiresInDays?: string }; error?: string };

const ACCESS_CHOICES = [
  { value: "none", label: "No access" },
  { value: "read", label: "Read" },
  { value: "write", label: "Read and write" },
] as const;

/** A name, a read/write choice per resource, and when the key expires. */
export function CreateApiKeyForm({ state }: { state?: CreateApiKeyState }) {
  const creating = useNavigation().formData?.get("intent") === "create";
  const scopesError = state?.fieldErrors?.scopes;
  return (
    <Form method="post" noValidate className="mt-4 space-y-6">
      {state?.error ? <FormNotice>{state.error}</FormNotice> : null}
      <TextField
        label="Name"
        name="name"
        maxLength={API_KEY_NAME_MAX}
        autoComplete="off"
        aria-required="true"
        error={state?.fieldErrors?.name}
        hint="What will use it, e.g. “Spreadsheet sync” or “Zapier”."
      />
      <fieldset aria-describedby={scopesError ? "scopes-error" : "scopes-hint"} aria-invalid={scopesError ? true : undefined}>
        <legend className="font-medium">Permissions</legend>
        <p id="scopes-hint" className="mt-1 text-sm text-muted">
          Give the key only what the tool needs. Any key can tell who it belongs to.
        </p>
        <div className="mt-3 space-y-4">
          {API_RESOURCES.map((resource) => (
            <fieldset key={resource.id} className="rounded-lg border border-ink/15 p-3">
              <legend className="px-1 font-semibold">{resource.label}</legend>
              <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-x-6">
                {ACCESS_CHOICES.map((choice) => (
                  <label key={choice.value} className="inline-flex items-center gap-2">
                    <input type="radio" name={`access-${resource.id}`} value={choice.value} defaultChecked={choice.value === "none"} className="h-5 w-5" />
                    {choice.label}
                  </label>
                ))}
              </div>
              <p className="mt-2 text-sm text-muted">
                Read: {resource.read.charAt(0).toLowerCase() + resource.read.slice(1)}. Write: {resource.write.charAt(0).toLowerCase() + resource.write.slice(1)}.
              </p>
            </fieldset>
          ))}
        </div>
        {scopesError ? (
          <p id="scopes-error" className="mt-2 text-sm font-medium text-red-700">
            {scopesError}
          </p>
        ) : null}
      </fieldset>
      <SelectField label="Expires" name="expiresInDays" defaultValue="90" error={state?.fieldErrors?.expiresInDays} hint="A key that expires limits the harm if it leaks.">
        {API_KEY_EXPIRY_CHOICES.map((choice) => (
          <option key={choice.label} value={choice.days === null ? "never" : String(choice.days)}>
            {choice.days === null ? "Never" : `In ${choice.label}`}
          </option>
        ))}
      </SelectField>
      <button type="submit" name="intent" value="create" className={primaryButton} disabled={creating}>
        {creating ? "Creating..." : "Create key"}
      </button>
    </Form>
  );
}
