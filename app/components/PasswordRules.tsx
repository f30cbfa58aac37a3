import { useEffect, useState } from "react";
import { describePolicy, type PasswordPolicy } from "#isomorphic/password-rules";

/**
 * The password rules from the server. When the server said a password broke
 * the policy, the form reads the policy again (it may have changed).
 */
export function PasswordRules({ policy: initial, refetchKey }: { policy: PasswordPolicy; refetchKey: number }) {
  const [policy, setPolicy] = useState(initial);
  useEffect(() => {
    if (refetchKey === 0) return;
    const controller = new AbortController();
    fetch("/api/password-policy", { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<PasswordPolicy>) : null))
      .then((fresh) => fresh && setPolicy(fresh))
      .catch(() => undefined);
    return () => controller.abort();
  }, [refetchKey]);
  return (
    <ul className="list-disc space-y-0.5 pl-5" data-testid="password-rules">
      {describePolicy(policy).map((rule) => (
        <li key={rule.rule}>{rule.text}</li>
      ))}
    </ul>
  );
}
