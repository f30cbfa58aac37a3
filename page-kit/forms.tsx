import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

type FieldFrameProps = { label: string; name: string; id?: string; error?: string | null; hint?: ReactNode; className?: string };

/** Label, hint and error around one control, announced with it (aria-describedby). */
function FieldFrame({
  label,
  name,
  id,
  error,
  hint,
  className,
  control,
}: FieldFrameProps & { control: (aria: { id: string; "aria-invalid"?: true; "aria-describedby"?: string; className: string }) => ReactNode }) {
  const fieldId = id ?? `field-${name}`;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block font-medium">
        {label}
      </label>
      {control({
        id: fieldId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
        className: `mt-1 block w-full rounded-lg border px-3 py-2.5 text-base ${error ? "border-red-700" : "border-ink/25"} focus:border-primary`,
      })}
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

type InputProps = InputHTMLAttributes<HTMLInputElement> & FieldFrameProps;

/** A labelled input with its hint and error. */
export function TextField({ label, name, error, hint, id, className, ...input }: InputProps) {
  return (
    <FieldFrame label={label} name={name} id={id} error={error} hint={hint} className={className} control={(aria) => <input name={name} {...aria} {...input} />} />
  );
}

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldFrameProps;

/** A labelled textarea with its hint and error. */
export function TextArea({ label, name, error, hint, id, className, ...textarea }: TextAreaProps) {
  return (
    <FieldFrame label={label} name={name} id={id} error={error} hint={hint} className={className} control={(aria) => <textarea name={name} {...aria} {...textarea} />} />
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & FieldFrameProps;

/** A labelled select (options as children) with its hint and error. */
export function SelectField({ label, name, error, hint, id, className, children, ...select }: SelectProps) {
  return (
    <FieldFrame
      label={label}
      name={name}
      id={id}
      error={error}
      hint={hint}
      className={className}
      control={(aria) => (
        <select name={name} {...aria} {...select}>
          {children}
        </select>
      )}
    />
  );
}

export function FormNotice({ kind = "error", children }: { kind?: "error" | "success" | "info"; children: ReactNode }) {
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

/** A notice on a row of its own between a page's parts (a refusal above a form); nothing at all while there is nothing to say. */
export function PageNotice({ kind, children }: { kind?: "error" | "success" | "info"; children: ReactNode }) {
  if (!children) return null;
  return (
    <div className="mt-6">
      <FormNotice kind={kind}>{children}</FormNotice>
    </div>
  );
}

export const primaryButton =
  "inline-flex items-center justify-center rounded-full bg-primary px-6 py-3 font-semibold text-white hover:bg-primary-dark disabled:opacity-60";
export const secondaryButton =
  "inline-flex items-center justify-center rounded-full border border-primary bg-white px-6 py-3 font-semibold text-primary hover:bg-primary/5 disabled:opacity-60";
