import { Marked } from "marked";

export type FrontMatter = Record<string, string>;

/** Splits `---\nkey: value\n---\nbody`. Values are plain strings (no YAML features needed). */
export function parseFrontMatter(source: string): { meta: FrontMatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: FrontMatter = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    meta[line.slice(0, colon).trim()] = line.slice(colon + 1).trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return { meta, body: source.slice(match[0].length) };
}

export type Placeholders = {
  APP_NAME: string;
  SUPPORT_EMAIL: string;
  COMPANY_NAME: string;
  /** The Pro plans' prices, from isomorphic/pro-plans.ts: a guide never quotes an old price. */
  PRO_LAUNCHPAD_PRICE: string;
  PRO_STAR_POWER_PRICE: string;
  PRO_LIMITLESS_PRICE: string;
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** Replaces `{{APP_NAME}}`-style placeholders; `html` escapes the values for markup. */
export function fillPlaceholders(text: string, values: Placeholders, html = false): string {
  return text.replace(/\{\{(APP_NAME|SUPPORT_EMAIL|COMPANY_NAME|PRO_LAUNCHPAD_PRICE|PRO_STAR_POWER_PRICE|PRO_LIMITLESS_PRICE)\}\}/g, (_, key: keyof Placeholders) =>
    html ? escapeHtml(values[key]) : values[key],
  );
}

const marked = new Marked({ gfm: true, async: false });
// Our Markdown is our own, but keep the rule simple: no raw HTML passes through.
marked.use({ renderer: { html: ({ text }) => escapeHtml(text) } });

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown) as string;
}
