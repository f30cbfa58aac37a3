import { fillPlaceholders, parseFrontMatter, renderMarkdown, type Placeholders } from "./markdown";

// Bundled at build time: the Markdown files ship inside the server build.
const sources = import.meta.glob("../../../content/**/*.md", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

export type ContentCollection = "pages" | "guides" | "blog";

export type ContentEntry = {
  collection: ContentCollection;
  slug: string;
  title: string;
  description: string;
  date: string | null;
  author: string | null;
  markdown: string;
};

function load(): ContentEntry[] {
  return Object.entries(sources).map(([file, source]) => {
    const [, collection, slug] = /content\/(pages|guides|blog)\/([a-z0-9-]+)\.md$/.exec(file) ?? [];
    if (!collection || !slug) throw new Error(`Unexpected content file ${file}`);
    const { meta, body } = parseFrontMatter(source);
    return {
      collection: collection as ContentCollection,
      slug,
      title: meta.title ?? slug,
      description: meta.description ?? "",
      date: meta.date ?? null,
      author: meta.author ?? null,
      markdown: body,
    };
  });
}

const entries = load();

export function findContent(collection: ContentCollection, slug: string): ContentEntry | undefined {
  return entries.find((entry) => entry.collection === collection && entry.slug === slug);
}

export function listContent(collection: ContentCollection): ContentEntry[] {
  return entries.filter((entry) => entry.collection === collection);
}

/** Blog posts, newest first. */
export function listBlogPosts(): ContentEntry[] {
  return listContent("blog").sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""));
}

export type RenderedContent = Omit<ContentEntry, "markdown"> & { html: string };

// Pure and bounded: the entries are files shipped with the app and the placeholder values come
// from the configuration, so there are as many keys as entries (one configuration per process).
const rendered = new Map<string, RenderedContent>();

/** Rendered HTML with placeholders filled; cached per entry and placeholder values. */
export function renderContent(entry: ContentEntry, values: Placeholders): RenderedContent {
  const key = [entry.collection, entry.slug, ...Object.values(values)].join("/");
  let page = rendered.get(key);
  if (!page) {
    const { markdown, ...rest } = entry;
    page = {
      ...rest,
      title: fillPlaceholders(rest.title, values),
      description: fillPlaceholders(rest.description, values),
      html: renderMarkdown(fillPlaceholders(markdown, values, true)),
    };
    rendered.set(key, page);
  }
  return page;
}
