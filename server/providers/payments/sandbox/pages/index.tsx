import { TEST_CARDS } from "#server/providers/payments/sandbox/cards";
import { SandboxPage } from "#server/providers/payments/sandbox/components/TestModeBanner";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/index";
import { requireSandbox } from "./sandbox.server";

export function loader({ context }: Route.LoaderArgs) {
  requireSandbox(context);
  const group = (digits: string) => (digits.length === 15 ? `${digits.slice(0, 4)} ${digits.slice(4, 10)} ${digits.slice(10)}` : digits.replace(/(\d{4})(?=\d)/g, "$1 "));
  return {
    appName: context.config.APP_NAME,
    cards: Object.entries(TEST_CARDS).map(([digits, card]) => ({ number: group(digits), label: card.label, succeeds: card.outcome === "succeeds" })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Sandbox payments", noindex: true });

export default function SandboxIndex({ loaderData }: Route.ComponentProps) {
  const { appName, cards } = loaderData;
  return (
    <SandboxPage title="The payments sandbox" wide>
      <div className="space-y-4 text-base leading-relaxed">
        <p>
          {appName} takes payments through its built-in sandbox here: a stand-in for Stripe that works offline, used when no Stripe keys are set. Creators
          connect a pretend payout account, sponsors pay on a pretend checkout page, and the payments, fees and refunds show up in the app as
          they would with Stripe. <strong>No card is charged and no money moves.</strong>
        </p>
        <p>Fees are worked out as Stripe's standard US card pricing does: 2.9 % + 30¢ of each successful payment. Refunds return the whole amount to the sponsor; the processing fee is not returned.</p>
        <h2 className="pt-4 text-xl font-bold">Test cards</h2>
        <p>Use any future expiry date (such as 12 / 34), any three-digit security code (four for American Express) and any five-digit ZIP code.</p>
      </div>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm sm:text-base">
          <caption className="sr-only">Card numbers the sandbox accepts, and what each does</caption>
          <thead>
            <tr className="border-b border-ink/20">
              <th scope="col" className="py-2 pr-4 font-semibold">Card number</th>
              <th scope="col" className="py-2 font-semibold">What happens</th>
            </tr>
          </thead>
          <tbody>
            {cards.map((card) => (
              <tr key={card.number} className="border-b border-ink/10">
                <td className="whitespace-nowrap py-2 pr-4 font-mono">{card.number}</td>
                <td className="py-2">{card.succeeds ? card.label : <span className="font-medium text-red-800">{card.label}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-6 space-y-4 text-base leading-relaxed">
        <p>Any other number is refused: a number that fails the card checksum is "invalid", and a real card number is declined, so no real card details are ever taken here.</p>
        <h2 className="pt-4 text-xl font-bold">Using real payments</h2>
        <p>
          To take real payments, the operator sets <code>STRIPE_SECRET_KEY</code> and <code>STRIPE_WEBHOOK_SECRET</code>. In production the sandbox
          runs only when <code>PAYMENT_PROVIDER=sandbox</code> is chosen on purpose.
        </p>
      </div>
    </SandboxPage>
  );
}
