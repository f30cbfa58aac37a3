import type { ReactNode } from "react";
import { Form } from "react-router";
import { FormNotice, primaryButton } from "#page-kit/forms";
import type { CardField } from "#server/providers/payments/sandbox/cards";
import { CardFieldset } from "#server/providers/payments/sandbox/components/CardFieldset";
import { SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";

/**
 * The frame the sandbox's two hosted checkouts (a sponsor's payment, a Pro plan) share, as Stripe's
 * checkouts share theirs: what is paid for, the states a checkout ends in, and the card form. Each
 * page keeps its own summary lines, wording and fields.
 */

/** The box at the top of every state of a checkout: what is being paid for, named for screen readers. */
export function CheckoutSummary({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="summary-heading" className="rounded-xl border border-ink/15 bg-secondary/20 p-4">
      <h2 id="summary-heading" className="sr-only">
        What you are paying for
      </h2>
      {children}
    </section>
  );
}

type Links = { appName: string; cancelUrl: string };

/** A checkout opened again after it was paid: nothing more is charged, and the way on is offered. */
export function CheckoutAlreadyPaid({ summary, successUrl, appName }: { summary: ReactNode; successUrl: string | null; appName: string }) {
  return (
    <SandboxPage title="Already paid">
      {summary}
      <div className="mt-6">
        <FormNotice kind="success">This checkout is already paid. Nothing more was charged.</FormNotice>
      </div>
      {successUrl ? (
        <p className="mt-6">
          <a href={successUrl}>Continue to {appName}</a>
        </p>
      ) : null}
    </SandboxPage>
  );
}

/** A checkout that can no longer be paid; `children` say why and what to do instead. */
export function CheckoutClosed({ title, summary, appName, cancelUrl, children }: Links & { title: string; summary: ReactNode; children: ReactNode }) {
  return (
    <SandboxPage title={title}>
      {summary}
      {children}
      <p className="mt-4">
        <a href={cancelUrl}>Back to {appName}</a>
      </p>
    </SandboxPage>
  );
}

/** A checkout whose 24 hours are up (or that expired as it was paid); `whatNext` finishes the sentence with where to start again. */
export function CheckoutExpired({ summary, appName, cancelUrl, whatNext }: Links & { summary: ReactNode; whatNext: string }) {
  return (
    <CheckoutClosed title="This checkout has expired" summary={summary} appName={appName} cancelUrl={cancelUrl}>
      <p className="mt-6">{`Checkouts can be paid for 24 hours. Nothing was charged; ${whatNext}`}</p>
    </CheckoutClosed>
  );
}

type CardCheckoutProps = Links & {
  title: string;
  summary: ReactNode;
  /** A refusal that names no field (an unreadable form, a payee who can no longer be paid). */
  notice?: string;
  /** Fields asked before the card (the sponsor's email). */
  before?: ReactNode;
  /** Under the card number: which test cards do what on this checkout. */
  cardHint: ReactNode;
  /** The refusal beside a card field; a page with fields of its own passes a wider function. */
  errorFor: (field: CardField) => string | undefined;
  values: { expiry: string; postalCode: string };
  busy: boolean;
  submitLabel: string;
};

/** The open checkout: the summary, a refusal if any, the card form and the way back. */
export function CardCheckout({ title, summary, notice, before, cardHint, errorFor, values, busy, submitLabel, appName, cancelUrl }: CardCheckoutProps) {
  return (
    <SandboxPage title={title}>
      {summary}
      {notice ? (
        <div className="mt-6">
          <FormNotice>{notice}</FormNotice>
        </div>
      ) : null}
      <Form method="post" className="mt-6 space-y-5" noValidate>
        {before}
        <CardFieldset legend="Card information" hint={cardHint} errorFor={errorFor} values={values} />
        <button type="submit" className={`${primaryButton} w-full`} disabled={busy}>
          {busy ? "Paying…" : submitLabel}
        </button>
      </Form>
      <p className="mt-6 text-center">
        <a href={cancelUrl}>Cancel and return to {appName}</a>
      </p>
    </SandboxPage>
  );
}
