import type { InputHTMLAttributes, ReactNode } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: string | null;
  hint?: ReactNode;
};

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export function TextField({ label, name, error, hint, id, className, ...input }: FieldProps) {
  const fieldId = id ?? `field-${name}`;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block font-medium">
        {label}
      </label>
      <input
        id={fieldId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        className={`mt-1 block w-full rounded-lg border px-3 py-2.5 text-base ${error ? "border-red-700" : "border-ink/25"} focus:border-primary`}
        {...input}
      />
      {hint ? (
        <div id={hintId} className="mt-1 text-sm text-muted">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FormAlert({ kind = "error", children }: { kind?: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-700/40 bg-red-50 text-red-800",
    success: "border-primary/30 bg-secondary/40 text-ink",
    info: "border-primary/20 bg-primary/5 text-ink",
  }[kind];
  return (
    <div role={kind === "error" ? "alert" : "status"} className={`rounded-lg border px-4 py-3 ${styles}`}>
      {children}
    </div>
  );
}

export const primaryButton =
  "inline-flex items-center justify-center rounded-full bg-primary px-6 py-3 font-semibold text-white hover:bg-primary-dark disabled:opacity-60";
export const secondaryButton =
  "inline-flex items-center justify-center rounded-full border border-primary bg-white px-6 py-3 font-semibold text-primary hover:bg-primary/5 disabled:opacity-60";
