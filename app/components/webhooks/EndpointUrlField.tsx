import type { WebhookTargets } from "#server/platform/config";
import { TextField } from "#page-kit/forms";

const WHERE: Record<WebhookTargets, string> = {
  public: "An https:// address that the internet can reach.",
  loopback: "An https:// address that the internet can reach, or one on this machine to try events out (http://localhost:4000/webhooks, say).",
  anywhere: "This server also allows http:// and private addresses (for development).",
};

/** The endpoint's address, as the add form and the settings form both ask for it. */
export function EndpointUrlField({ defaultValue, error, targets, maxLength, adding }: { defaultValue?: string; error?: string; targets: WebhookTargets; maxLength: number; adding: boolean }) {
  const where = WHERE[targets];
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
