import { FormNotice } from "#page-kit/forms";

/** Why a member link does not open the members' posts; for an ended membership, where to join again. */
export type RefusedLink = { message: string; ended: boolean; joinUrl: string | null; pageName: string | null };

export function MemberPostsRefused({ refused }: { refused: RefusedLink }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">{refused.ended ? "Your membership has ended" : "This link does not open these posts"}</h1>
      <div className="mt-6 space-y-4">
        <FormNotice kind={refused.ended ? "info" : "error"}>{refused.message}</FormNotice>
        {refused.ended && refused.joinUrl ? (
          <p>
            <a href={refused.joinUrl} className="font-semibold">
              {`Join ${refused.pageName ?? "them"} again`}
            </a>
          </p>
        ) : null}
      </div>
    </div>
  );
}
