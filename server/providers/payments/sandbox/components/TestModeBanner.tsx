import type { ReactNode } from "react";

/** On every /sandbox page: nobody should mistake the sandbox for a real payment provider. */
export function TestModeBanner() {
  return (
    <div role="note" aria-label="Test mode" className="border-b-2 border-amber-600 bg-amber-100 px-4 py-3 text-center text-amber-950">
      <strong className="mr-2 rounded bg-amber-700 px-2 py-0.5 text-xs font-bold tracking-wider text-white">TEST MODE</strong>
      <span className="font-semibold">Sandbox — test mode. No real money moves.</span>
    </div>
  );
}

/** The frame of a sandbox page: the banner, then a narrow column that fits a phone. */
export function SandboxPage({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <>
      <TestModeBanner />
      <div className={`mx-auto ${wide ? "max-w-4xl" : "max-w-lg"} px-4 py-8 sm:py-12`}>
        <p className="text-sm font-semibold uppercase tracking-wider text-muted">Sandbox payments</p>
        <h1 className="mt-1 text-2xl font-bold sm:text-3xl">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </>
  );
}

/** Minor units with the currency's own decimals: 2500 → "$25.00", as a checkout page shows a price. */
export function formatAmount(minorUnits: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(minorUnits / 100);
}
