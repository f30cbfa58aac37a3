import { TextField } from "#page-kit/forms";

/** The field for an authenticator app's code, when signing in and when turning two-factor sign-in on (spaces allowed, as apps show them). */
export function OneTimeCodeField({ error }: { error?: string }) {
  return <TextField label="6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={8} aria-required="true" error={error} />;
}
