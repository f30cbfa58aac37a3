import { Form, Link } from "react-router";
import type { UserType } from "#server/platform/db/schema";
import { secondaryButton } from "#page-kit/forms";

/** "Continue with Google": posts intent=google to the page's own action. */
export function GoogleSignInButton({ redirectTo, type, disabled }: { redirectTo: string; type: UserType | null; disabled: boolean }) {
  return (
    <Form method="post" className="mt-6">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {type ? <input type="hidden" name="type" value={type} /> : null}
      <button type="submit" name="intent" value="google" className={`${secondaryButton} w-full`} disabled={disabled}>
        Continue with Google
      </button>
    </Form>
  );
}

/** The link between sign-in and sign-up, keeping the chosen type and destination. */
export function AuthSwitchLink({
  to,
  type,
  redirectTo,
  children,
}: {
  to: "/signin" | "/signup";
  type: string | null;
  redirectTo: string;
  children: React.ReactNode;
}) {
  const query = new URLSearchParams({ ...(type ? { type } : {}), ...(redirectTo !== "/app" ? { redirectTo } : {}) });
  return <Link to={query.size ? `${to}?${query}` : to}>{children}</Link>;
}
