import { TextField } from "#page-kit/forms";

/** The endpoint's address, as the add form and the settings form both ask for it. */
export function EndpointUrlField({ defaultValue, error, httpAllowed, maxLength, adding }: { defaultValue?: string; error?: string; httpAllowed: boolean; maxLength: number; adding: boolean }) {
  const where = httpAllowed ? "This server also allows http:// and private addresses (for development)." : "An https:// address that the internet can reach.";
  return (
    <TextField
      label="Endpoint address"
      name="url"
      type="url"
      inputMode="url"
      autoComplete="off"
      spellCheck={false}
      maxLength={maxLength}
      aria-required="true"
      placeholder={adding ? "https://example.com/webhooks/sponsorgrid" : undefined}
      defaultValue={defaultValue}
      error={error}
      hint={adding ? `Where we send the events. ${where}` : where}
    />
  );
}
