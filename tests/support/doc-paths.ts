/**
 * Finds the project paths that prose names — in docs/, every README.md and the
 * lint messages of eslint.config.js — so a test can say which of them no longer
 * exist. Docs outlive moves: a path that is not there any more sends a reader
 * (or a lint message's reader) to nothing.
 *
 * What counts as a path:
 * - a token that starts with a project root folder (`server/…`, `app/…`,
 *   `tests/…`, `docs/…`, `scripts/…`, `bench/…`, `page-kit/…`, `isomorphic/…`,
 *   `deploy/…`, `content/…`, `public/…`, `.ci/…`), anywhere in the text — in
 *   backticks, in a code block or in a sentence; a URL's path (`/app/pro`,
 *   `http://localhost:3000/app/…`) is not one, nor is `shared/…` outside the repo;
 * - an import alias (`#server/…`, `#app/…`, `#page-kit/…`, `#isomorphic/…`,
 *   `#tests/…`), resolved as the bundler does (with or without `.ts`/`.tsx`);
 * - a file of the project's root in backticks (`package.json`, `vite.config.ts`,
 *   `.env.example` …: the names in ROOT_FILE);
 * - a Markdown link's target that is not a URL, relative to the file that links;
 * - in a folder's README.md (not the project's own), a file or folder name in
 *   backticks (`intake.ts`, `handlers/`, `stripe/events.ts`): relative to that
 *   folder, so a folder's README names its own files by their short names and
 *   anything elsewhere by its path from the root.
 *
 * What is not checked, because it names no single file: a placeholder
 * (`server/<domain>/`, `/media/photos/{id}-{size}.{format}`, `#server/…`) — a
 * token with `<`, `{`, `…` or `$`. A glob (`content/*.md`,
 * `app/routes/admin/payments*.tsx`) must match at least one file.
 */
import fs from "node:fs";
import path from "node:path";

export type NamedPath = { file: string; line: number; path: string };

const ROOT_FOLDERS = ["server", "app", "tests", "docs", "scripts", "bench", "page-kit", "isomorphic", "deploy", "content", "public", "\\.ci"];
const ALIASES = ["server", "app", "tests", "page-kit", "isomorphic"];

/** Path characters: a token ends at a space, a quote, a backtick, a bracket or a comma. */
const PATH_CHARS = "[\\w.\\-/*<>{}…$\\[\\]+@]";
const FOLDER_PATH = new RegExp(`(?<![\\w#/.\\-@:])(?:${ROOT_FOLDERS.join("|")})/${PATH_CHARS}*`, "g");
const FOLDER_PATH_START = new RegExp(`^(?:${ROOT_FOLDERS.join("|")})/`);
const ALIAS_PATH = new RegExp(`(?<![\\w/])#(?:${ALIASES.join("|")})/${PATH_CHARS}*`, "g");
const ROOT_FILE = /^(?:[\w-]+\.config\.[cm]?[jt]s|package(?:-lock)?\.json|tsconfig\.json|server\.js|import-aliases\.ts|Dockerfile|compose\.yaml|\.env\.example|\.dockerignore|\.npmrc)$/;
const CODE_SPAN = /`([^`\n]+)`/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

const SHORT_NAME = /^(?:\.\.\/)*[\w-][\w.-]*(?:\/[\w.-]+)*(?:\.(?:ts|tsx|js|mjs|cjs|json|sql|sh|md|css|yaml|conf)|\/)$/;

const PLACEHOLDER = /[<>{}…$]/;
const GLOB = /[*[\]]/;

/** A token as written, without what ends a sentence or a code reference (`:12`, `#anchor`, a closing bracket). */
function trimmed(token: string): string {
  return token
    .replace(/(?<=.)#.*$/, "")
    .replace(/:\d+(?::\d+)?$/, "")
    .replace(/[.,;:!?)\]]+$/, "");
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line += 1;
  return line;
}

/**
 * Every project path a text names, with the line it is on. `linkBase` is the folder Markdown links
 * are relative to (none outside Markdown); `shortNameBase` the folder a README's short names are in.
 */
export function pathsNamedIn(text: string, file: string, linkBase: string | null, shortNameBase: string | null = null): NamedPath[] {
  const found: NamedPath[] = [];
  const add = (raw: string, index: number) => {
    const named = trimmed(raw);
    if (named) found.push({ file, line: lineOf(text, index), path: named });
  };
  for (const match of text.matchAll(FOLDER_PATH)) add(match[0], match.index);
  for (const match of text.matchAll(ALIAS_PATH)) add(match[0], match.index);
  for (const match of text.matchAll(CODE_SPAN)) {
    const inner = match[1]!.trim();
    if (ROOT_FILE.test(inner)) add(inner, match.index);
    else if (shortNameBase !== null && SHORT_NAME.test(inner) && !FOLDER_PATH_START.test(inner)) {
      found.push({ file, line: lineOf(text, match.index), path: path.posix.join(shortNameBase, inner) });
    }
  }
  if (linkBase !== null) {
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const target = match[1]!;
      if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) continue;
      const resolved = path.posix.normalize(path.posix.join(linkBase, target.replace(/#.*$/, "")));
      if (resolved && resolved !== ".") found.push({ file, line: lineOf(text, match.index), path: resolved });
    }
  }
  return found;
}

/** The string messages of eslint.config.js's rules (`message: "…"`), each at its line. */
export function lintMessages(source: string): { text: string; line: number }[] {
  return [...source.matchAll(/message:\s*"((?:[^"\\]|\\.)*)"/g)].map((match) => ({
    text: JSON.parse(`"${match[1]!}"`) as string,
    line: lineOf(source, match.index),
  }));
}

// A star is any name or part of one; two stars and a slash, any folders (none too).
function globPattern(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === "**/" ? "(?:[^/]+/)*" : part === "*" ? "[^/]*" : part.replace(/[^\w/-]/g, (char) => `\\${char}`)))
    .join("");
  return new RegExp(`^${body}$`);
}

/** Whether a named path is there: a file or folder, an alias's module, or a glob with at least one match. Placeholders always are. */
export function exists(root: string, named: string): boolean {
  if (PLACEHOLDER.test(named)) return true;
  const plain = named.startsWith("#") ? named.slice(1) : named;
  if (GLOB.test(plain)) {
    const folder = plain.slice(0, plain.search(GLOB)).replace(/[^/]*$/, "");
    if (!fs.existsSync(path.join(root, folder))) return false;
    const pattern = globPattern(plain.replace(/\/$/, ""));
    return fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .some((entry) => pattern.test(path.posix.join(folder, entry.split(path.sep).join("/"))));
  }
  const candidates = named.startsWith("#") ? ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts"].map((ext) => plain + ext) : [plain];
  return candidates.some((candidate) => fs.existsSync(path.join(root, candidate)));
}

const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "build", "reports", "data", "test-results", "playwright-report"]);

/** Every README.md of the project (not those of dependencies or build output), as paths from `root`. */
export function readmes(root: string, folder = ""): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".e2e-data") ? [] : readmes(root, relative);
    return entry.isFile() && entry.name === "README.md" ? [relative] : [];
  });
}

/** Every Markdown file under docs/. */
export function docs(root: string): string[] {
  return fs
    .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .map((entry) => path.posix.join("docs", entry.split(path.sep).join("/")))
    .filter((file) => file.endsWith(".md"));
}

/** Every path the docs, the READMEs and the lint messages name that does not exist, as `file:line path`. */
export function missingPaths(root: string): string[] {
  const named: NamedPath[] = [];
  for (const file of new Set([...docs(root), ...readmes(root)])) {
    const folder = path.posix.dirname(file);
    const shortNameBase = path.posix.basename(file) === "README.md" && folder !== "." ? folder : null;
    named.push(...pathsNamedIn(fs.readFileSync(path.join(root, file), "utf8"), file, folder, shortNameBase));
  }
  for (const message of lintMessages(fs.readFileSync(path.join(root, "eslint.config.js"), "utf8"))) {
    named.push(...pathsNamedIn(message.text, "eslint.config.js", null).map((found) => ({ ...found, line: message.line })));
  }
  return named.filter((found) => !exists(root, found.path)).map((found) => `${found.file}:${found.line} ${found.path}`);
}
