import { findContent } from "./library";
import { fillPlaceholders, type Placeholders } from "./markdown";

export type HomeCopy = {
  headline: string;
  subheading: string;
  creators: string[];
  sponsors: string[];
  steps: string[];
};

/** Reads content/pages/home.md: `## block` sections of lines or `- ` bullets. */
export function homeCopy(values: Placeholders): HomeCopy {
  const entry = findContent("pages", "home");
  if (!entry) throw new Error("content/pages/home.md is missing");
  const blocks = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of fillPlaceholders(entry.markdown, values).split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^##\s+(\w+)/.exec(line);
    if (heading?.[1]) blocks.set(heading[1], (current = []));
    else if (line && current) current.push(line.replace(/^-\s+/, ""));
  }
  const block = (name: string) => {
    const lines = blocks.get(name);
    if (!lines?.length) throw new Error(`content/pages/home.md has no "## ${name}" block`);
    return lines;
  };
  const [headline = "", subheading = ""] = block("hero");
  return { headline, subheading, creators: block("creators"), sponsors: block("sponsors"), steps: block("steps") };
}
