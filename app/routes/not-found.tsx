import { data } from "react-router";

export const handle = { hydrate: false };

/** Any path no route claims: the root error boundary renders the 404 page. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
