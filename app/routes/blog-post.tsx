import { Link } from "react-router";
import { findContent, renderContent } from "#server/domains/content/library";
import { Prose } from "#app/components/Prose";
import { PostByline } from "#app/components/PostByline";
import { pageMeta } from "#page-kit/meta";
import { placeholdersFrom } from "#app/lib/placeholders.server";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/blog-post";

export const handle = { hydrate: false };

export function loader({ params, context }: Route.LoaderArgs) {
  const entry = findContent("blog", params.slug);
  if (!entry) refuse("not-found");
  return { post: renderContent(entry, placeholdersFrom(context.config)) };
}

export const meta: Route.MetaFunction = (args) =>
  args.data ? pageMeta(args, { title: args.data.post.title, description: args.data.post.description, type: "article" }) : [];

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <Link to="/blog" className="text-sm font-semibold">
        ← All posts
      </Link>
      <h1 className="mt-4 text-3xl font-bold leading-tight sm:text-4xl">{post.title}</h1>
      <PostByline date={post.date} author={post.author} className="mt-2 text-muted" />
      <div className="mt-10">
        <Prose html={post.html} />
      </div>
    </article>
  );
}
