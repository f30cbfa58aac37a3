import { data } from "react-router";
import { ErrorPage } from "#app/components/ErrorPage";

export const handle = { hydrate: false };

/** The product's error destination (SPEC §8: failed loads redirect here). */
export function loader() {
  return data(null, { status: 500 });
}

export default function ServerErrorPage() {
  return <ErrorPage status={500} />;
}
