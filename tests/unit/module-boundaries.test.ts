import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import routeConfig from "#app/routes";

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("module boundaries", () => {
  it("no domain module imports seed data: the seed depends on the domain, never the other way round", () => {
    // Only the boot (the composition root, server/main/composition-root.ts) and the seed itself may reach the seed.
    const allowed = (file: string) => file.startsWith(path.join("server", "db", "seed")) || file === path.join("server", "http", "composition-root.ts");
    const offenders = [...sourceFiles("server"), ...sourceFiles("app")]
      .filter((file) => !allowed(file))
      .filter((file) => /from\s+["'](#server\/db\/seed|(\.\.?\/)+(db\/)?seed)(\/[^"']*)?["']/.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});

/**
 * What the browser bundle takes from a route module: React Router's build drops the exports that
 * run only on the server and, with them, the imports only they used. Whatever is left, and every
 * module it reaches, is bundled for the browser, where a `node:` builtin is an empty stand-in
 * (Vite's "has been externalized for browser compatibility" warning, and a crash if it is called).
 */
const SERVER_ONLY_EXPORTS = new Set(["loader", "action", "middleware", "headers"]);
const ALIASES: Record<string, string> = { "#app/": "app/", "#server/": "server/", "#isomorphic/": "isomorphic/", "#page-kit/": "page-kit/", "#tests/": "tests/" };
const BUILTINS = new Set(builtinModules);

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [path.normalize(path.join("app", entry.file)), ...routeFiles(entry.children ?? [])]);
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** A project file for an import, "node" for a builtin, null for a package or an asset. */
function resolveImport(from: string, specifier: string): string | "node" | null {
  if (specifier.startsWith("node:") || BUILTINS.has(specifier)) return "node";
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  const base = alias ? ALIASES[alias]! + specifier.slice(alias.length) : specifier.startsWith(".") ? path.join(path.dirname(from), specifier) : null;
  if (base === null) return null;
  const found = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"].map((ending) => path.normalize(base + ending)).find((candidate) => /\.tsx?$/.test(candidate) && fs.existsSync(candidate));
  return found ?? null;
}

/** Every module a file loads at all: value imports, re-exports and import() (type-only ones are erased). */
function allImports(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isServerOnlyExport(statement: ts.Statement): boolean {
  const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  if (!exported) return false;
  if (ts.isFunctionDeclaration(statement)) return SERVER_ONLY_EXPORTS.has(statement.name?.text ?? "");
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.every((declaration) => ts.isIdentifier(declaration.name) && SERVER_ONLY_EXPORTS.has(declaration.name.text));
  return false;
}

/** A non-exported function, class or variable: in the browser bundle only if kept code uses it. */
function isLocalDeclaration(statement: ts.Statement): boolean {
  const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  return !exported && (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isVariableStatement(statement));
}

function topLevelStatement(node: ts.Node): ts.Node | undefined {
  let current: ts.Node | undefined = node;
  while (current && current.parent && !ts.isSourceFile(current.parent)) current = current.parent;
  return current;
}

/**
 * The modules a route module still imports once its server-only exports are gone: its top-level
 * code is followed from what the browser keeps, through the names it uses (TypeScript's binder
 * tells a local name from an import of the same name; imports are not resolved).
 */
function browserImports(program: ts.Program, file: string): string[] {
  const source = program.getSourceFile(file)!;
  const checker = program.getTypeChecker();
  const specifiers: string[] = [];
  const kept: ts.Node[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!statement.importClause && ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
      else kept.push(statement);
    } else if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement) && !isServerOnlyExport(statement) && !isLocalDeclaration(statement)) {
      kept.push(statement);
    }
  }
  const seen = new Set<ts.Node>(kept);
  const follow = (symbol: ts.Symbol | undefined) => {
    const declaration = symbol?.declarations?.[0];
    if (!declaration) return;
    if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration)) {
      const statement = topLevelStatement(declaration);
      const typeOnly = (ts.isImportSpecifier(declaration) && declaration.isTypeOnly) || (statement && ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly);
      if (statement && ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && !typeOnly) specifiers.push(statement.moduleSpecifier.text);
      return;
    }
    const statement = topLevelStatement(declaration);
    if (statement && statement.getSourceFile() === source && !seen.has(statement)) {
      seen.add(statement);
      visit(statement);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isPropertyAccessExpression(node)) return visit(node.expression);
    if (ts.isShorthandPropertyAssignment(node)) return follow(checker.getShorthandAssignmentValueSymbol(node));
    if (ts.isExportSpecifier(node)) return follow(checker.getExportSpecifierLocalTargetSymbol(node));
    if (ts.isIdentifier(node)) return follow(checker.getSymbolAtLocation(node));
    ts.forEachChild(node, visit);
  };
  for (const node of kept) visit(node);
  return specifiers;
}

/**
 * Every module the browser bundle reaches from the route modules, each with the chain of imports
 * that brings it in, and every `node:` builtin among their imports.
 */
function browserGraph(): { modules: Map<string, string[]>; builtins: string[] } {
  const routes = [...new Set(["app/root.tsx", ...routeFiles(routeConfig)])];
  const program = ts.createProgram(routes, { noLib: true, noResolve: true, types: [], jsx: ts.JsxEmit.Preserve, allowImportingTsExtensions: true, noEmit: true });
  const modules = new Map<string, string[]>();
  const builtins: string[] = [];
  const queue: string[] = [];
  const follow = (from: string, specifiers: string[], chain: string[]) => {
    for (const specifier of specifiers) {
      const target = resolveImport(from, specifier);
      if (target === "node") builtins.push(`${[...chain, from].join(" → ")} imports ${specifier}`);
      // React Router's build refuses a .server module in the browser bundle by itself.
      else if (target && !/\.server(\.tsx?$|\/)/.test(target) && !modules.has(target)) {
        modules.set(target, [...chain, from]);
        queue.push(target);
      }
    }
  };
  for (const route of routes) follow(route, browserImports(program, route), []);
  while (queue.length > 0) {
    const file = queue.shift()!;
    follow(file, allImports(parse(file)), modules.get(file)!);
  }
  return { modules, builtins };
}

describe("what the browser bundle takes from the route modules", () => {
  const graph = browserGraph();

  it("reaches no node: builtin: server code is used in loaders and actions, shared values come from isomorphic/", () => {
    expect(graph.builtins).toEqual([]);
  });

  it("takes no server code from app/: in development the browser would load it, and the packages it imports", () => {
    // The payment sandbox's own pages live beside it in server/ and bring their components along.
    // Each way in is named once: the first server module on its chain.
    const server = [...graph.modules].filter(([file, chain]) => file.startsWith("server/") && chain[0]!.startsWith("app/") && !chain.at(-1)!.startsWith("server/"));
    expect(server.map(([file, chain]) => [...chain, file].join(" → "))).toEqual([]);
  });
});
