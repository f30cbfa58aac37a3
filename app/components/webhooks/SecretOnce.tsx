import { CopyLink } from "#app/components/bio/CopyLink";
import { FormNotice } from "#page-kit/forms";

/** A signing secret, right after it was made: shown this once, with a Copy button. */
export function SecretOnce({ secret, heading, children }: { secret: string; heading: string; children?: React.ReactNode }) {
  return (
    <FormNotice kind="success">
      <h2 className="text-lg font-bold">{heading}</h2>
      <p className="mt-1">
        Copy the signing secret now and keep it with your receiver: it is shown only this once. Your receiver uses it to check that each
        request came from us (the <code>webhook-signature</code> header, as the Standard Webhooks libraries check it).
      </p>
      <div className="mt-3" data-testid="signing-secret">
        <CopyLink address={secret} label="Signing secret" />
      </div>
      {children}
    </FormNotice>
  );
}
