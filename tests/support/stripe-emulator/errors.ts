/** An error answered in Stripe's shape: `{ "error": { type, code?, message, param? } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string; doc_url?: string },
  ) {
    super(body.message);
  }
}

export const invalidRequest = (message: string, extra: { code?: string; param?: string } = {}) =>
  new StripeApiError(400, { type: "invalid_request_error", message, ...extra });

export const missing = (resource: string, id: string, param = "id") =>
  new StripeApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${resource}: '${id}'`,
    param,
    doc_url: "https://stripe.com/docs/error-codes/resource-missing",
  });

export const requiredParam = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, { code: "parameter_missing", param });
