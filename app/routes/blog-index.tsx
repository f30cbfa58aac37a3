import { Link } from "react-router";
import { listBlogPosts } from "#server/domains/content/library";
import { PostByline } from "#app/components/PostByline";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/blog-index";

export const handle = { hydrate: false };

export function loader() {
  return {
    posts: listBlogPosts().map(({ slug, title, description, date, author }) => ({ slug, title, description, date, author })),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Blog",
    description: "Practical advice on pricing, pitching and running sponsorships, for creators and the brands that sponsor them.",
  });

export default function BlogIndex({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">Blog</h1>
      <p className="mt-3 text-lg text-muted">Practical advice on pricing, pitching and running sponsorships.</p>
      <ul className="mt-10 space-y-8">
        {loaderData.posts.map((post) => (
          <li key={post.slug} className="border-b border-primary/10 pb-8">
            <article>
              <h2 className="text-2xl font-bold">
                <Link to={`/blog/${post.slug}`} className="text-ink no-underline hover:text-primary hover:underline">
                  {post.title}
                </Link>
              </h2>
              <PostByline date={post.date} author={post.author} className="mt-1 text-sm text-muted" />
              <p className="mt-3">{post.description}</p>
              <Link to={`/blog/${post.slug}`} className="mt-3 inline-block font-semibold" aria-label={`Read “${post.title}”`}>
                Read the post
              </Link>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
