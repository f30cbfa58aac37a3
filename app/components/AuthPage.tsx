import type { ReactNode } from "react";
import type { UserType } from "#server/platform/db/schema";
import { AuthSwitchLink, GoogleSignInButton } from "#app/components/AuthSwitch";
import { TextField } from "#page-kit/forms";

/** The narrow column of the sign-in steps: the heading, the line under it (if any), then the step's own content. */
export function AuthPage({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold">{title}</h1>
      {lead ? <p className="mt-2 text-muted">{lead}</p> : null}
      {children}
    </div>
  );
}

/** The line under the heading, said to the kind of account the person came to make or use. */
export function leadFor(type: UserType | null, lines: { sponsor: string; creator: string; anyone: string }): string {
  return type === "sponsor" ? lines.sponsor : type === "creator" ? lines.creator : lines.anyone;
}

/** The email field of the sign-in and sign-up forms. */
export function EmailField({ defaultValue, error }: { defaultValue: string; error?: string }) {
  return <TextField label="Email" name="email" type="email" autoComplete="email" aria-required="true" defaultValue={defaultValue} error={error} />;
}

type SwitchProps = { to: "/signin" | "/signup"; question: string; linkText: string };

/** Under the sign-in and sign-up forms: "Continue with Google" (when configured), then the link to the other form. */
export function AuthPageEnd({ googleEnabled, redirectTo, type, busy, to, question, linkText }: SwitchProps & { googleEnabled: boolean; redirectTo: string; type: UserType | null; busy: boolean }) {
  return (
    <>
      {googleEnabled ? <GoogleSignInButton redirectTo={redirectTo} type={type} disabled={busy} /> : null}
      <p className="mt-8 text-center">
        {question}{" "}
        <AuthSwitchLink to={to} type={type} redirectTo={redirectTo}>
          {linkText}
        </AuthSwitchLink>
      </p>
    </>
  );
}
