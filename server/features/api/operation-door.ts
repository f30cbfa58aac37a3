import type { z } from "zod";
import { fieldRefusal, refusal, success, type DomainError } from "#server/platform/errors";
import { admit, runOperation, type Answer, type Operation, type Who_ } from "#server/features/operations/operation";
import type { ApiDeps, ApiInput, ApiOperation } from "./operation";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Parts<Params, Query, Body> = { params: Out<Params>; query: Out<Query>; body: Out<Body> };

/** An operation's route in `/api/v1`: everything of an ApiOperation but its handler and refusals, which the operation gives. */
export type ApiDoor<Params, Query, Body, Response, Output extends Answer> = Omit<ApiOperation<Params & Schema, Query & Schema, Body & Schema, Response & Schema>, "handle" | "refusals"> & {
  /**
   * What only this door's wire format can get wrong, refused before the operation runs (an API
   * cursor that is not one of ours), or null to go on. The refusal is the API's own, in its words.
   */
  refuse?(parts: Parts<Params, Query, Body>): DomainError | null;
  /** The request's parts (already valid by the route's schemas) as the operation's input. */
  input(parts: Parts<Params, Query, Body>): unknown;
  /**
   * The answer's body (the route's `success.schema`), from the operation's success and what the
   * shape needs besides: the request's parts (a page of a list by the door's cursor) and `deps`
   * (the public origin of a link).
   */
  answer(value: Extract<Output, { kind: "SUCCESS" }>, parts: { params: Out<Params>; query: Out<Query>; deps: ApiDeps }): Out<Response>;
  /**
   * Optional: the route's own words for one of the operation's refusals about what this door
   * encoded (the cursor inside its paging cursor), so a caller hears about the part it sent.
   */
  reword?(refused: Extract<Output, { kind: "ERROR" }>): DomainError;
  /**
   * Where the request's fields differ from the operation's (a JSON body in another shape than a
   * form's): a refusal naming fields (`fieldErrors`) in the route's names. It is answered as
   * invalid_request with those `fields`; without this, such a refusal goes back as it is.
   */
  fields?(fieldErrors: object): Record<string, string>;
};

/**
 * An operation as an `/api/v1` route. The router has authenticated the key and checked its scope;
 * the key acts for its account. A refusal goes back as the operation's, encoded by the router in
 * the API's error shape (errors.ts); the route's documented refusals are the operation's.
 * Route schemas are built from the operation's (a path's id is its input field), so the route
 * refuses first what the operation would; anything it still refuses is `invalid_request` with fields.
 * The operation may use any of the API's services (ApiDeps), and no other.
 */
export function apiOperationOf<Input extends z.ZodType, Who extends Who_, Output extends Answer, Params extends Schema | undefined = undefined, Query extends Schema | undefined = undefined, Body extends Schema | undefined = undefined, Response extends Schema | undefined = undefined>(
  operation: Operation<Input, Who, Output, ApiDeps>,
  door: ApiDoor<Params, Query, Body, Response, Output>,
): ApiOperation<Params, Query, Body, Response> {
  const { refuse, input, answer, fields, reword, ...route } = door;
  return {
    ...(route as Omit<ApiOperation<Params, Query, Body, Response>, "handle" | "refusals">),
    refusals: operation.refusals,
    async handle(parts: ApiInput<Out<Params>, Out<Query>, Out<Body>>) {
      const refused = refuse?.(parts) ?? null;
      if (refused) return refused;
      const caller = { kind: "api-key", uid: parts.caller.uid } as const;
      const result = await runOperation(operation, { caller, input: input(parts), deps: parts.deps, client: parts.client });
      if (result.kind === "SUCCESS") return success({ body: answer(result as Extract<Output, { kind: "SUCCESS" }>, parts) });
      if ("reason" in result && result.reason === "INVALID_INPUT") {
        const fieldErrors = Object.fromEntries(result.issues.map((issue) => [issue.field, issue.message]));
        return refusal("invalid-argument", "INVALID_FIELDS", result.message, { fieldErrors });
      }
      if (fields && "fieldErrors" in result && result.fieldErrors) return fieldRefusal(fields(result.fieldErrors));
      // Who may call is every door's word; a door rewords only the operation's own refusals.
      if (!reword || admit(operation.who, caller).kind === "ERROR") return result;
      return reword(result as Extract<Output, { kind: "ERROR" }>);
    },
  };
}
