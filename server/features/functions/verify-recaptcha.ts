import { z } from "zod";
import type { Captcha } from "#server/platform/captcha/captcha";
import { domainError, success } from "#server/platform/errors";
import type { CallableFunction } from "./protocol";

const MAX_RESPONSE_LENGTH = 10_000;

const verifyRecaptchaInput = z.object(
  {
    recaptchaResponse: z
      .string({ error: "recaptchaResponse must be a string." })
      .min(1, "recaptchaResponse must not be empty.")
      .max(MAX_RESPONSE_LENGTH, `recaptchaResponse must be at most ${MAX_RESPONSE_LENGTH} characters.`),
  },
  { error: "data must be an object with a recaptchaResponse string." },
);

/**
 * verifyRecaptcha (SPEC §8): { recaptchaResponse } → { code: 200 } when the captcha passes.
 * Named after reCAPTCHA, it checks whichever provider is configured (ALTCHA by default).
 */
export function verifyRecaptchaFunction(captcha: Captcha): CallableFunction {
  return async (data, context) => {
    const input = verifyRecaptchaInput.safeParse(data);
    if (!input.success) return domainError("invalid-argument", input.error.issues[0]?.message ?? "Invalid data.");
    if (!(await captcha.verify(input.data.recaptchaResponse, context.ip))) {
      return domainError("invalid-argument", "Captcha verification failed. Please try again.");
    }
    return success({ result: { code: 200 } });
  };
}
