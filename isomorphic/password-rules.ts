/* The password rules as people read them and as the server checks them: the same text on the form and in the refusal. */

/** SPEC §5: fetched by the sign-up form from GET /api/password-policy. */
export type PasswordPolicy = {
  minLength: number;
  maxLength: number | null;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumeric: boolean;
  requireNonAlphanumeric: boolean;
};

export type PasswordRule = "minLength" | "maxLength" | "lowercase" | "uppercase" | "numeric" | "nonAlphanumeric";

/** Each rule of the policy as the person reads it, in a stable order. */
export function describePolicy(policy: PasswordPolicy): { rule: PasswordRule; text: string }[] {
  const rules: { rule: PasswordRule; text: string }[] = [
    { rule: "minLength", text: `At least ${policy.minLength} characters` },
  ];
  if (policy.maxLength !== null) rules.push({ rule: "maxLength", text: `At most ${policy.maxLength} characters` });
  if (policy.requireLowercase) rules.push({ rule: "lowercase", text: "A lowercase letter" });
  if (policy.requireUppercase) rules.push({ rule: "uppercase", text: "An uppercase letter" });
  if (policy.requireNumeric) rules.push({ rule: "numeric", text: "A number" });
  if (policy.requireNonAlphanumeric) rules.push({ rule: "nonAlphanumeric", text: "A symbol, such as ! or #" });
  return rules;
}

/** The rules `password` breaks; empty when it meets the policy. */
export function brokenRules(password: string, policy: PasswordPolicy): PasswordRule[] {
  const length = [...password].length;
  const broken: PasswordRule[] = [];
  if (length < policy.minLength) broken.push("minLength");
  if (policy.maxLength !== null && length > policy.maxLength) broken.push("maxLength");
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) broken.push("lowercase");
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) broken.push("uppercase");
  if (policy.requireNumeric && !/\p{N}/u.test(password)) broken.push("numeric");
  if (policy.requireNonAlphanumeric && !/[^\p{L}\p{N}]/u.test(password)) broken.push("nonAlphanumeric");
  return broken;
}

/** "Your password needs: at least 8 characters, a number." */
export function brokenRulesMessage(broken: PasswordRule[], policy: PasswordPolicy): string {
  const texts = describePolicy(policy)
    .filter((entry) => broken.includes(entry.rule))
    .map((entry) => entry.text.charAt(0).toLowerCase() + entry.text.slice(1));
  return `Your password needs: ${texts.join(", ")}.`;
}
