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

/**
 * The modules a route module still imports once its server-only exports are gone: its top-level
 * code is followed from what the browser keeps, name by name (over-counting a shadowed name is
 * the safe side).
 */
function browserImports(source: ts.SourceFile): string[] {
  const imported = new Map<string, string>();
  const declared = new Map<string, ts.Node>();
  const kept: ts.Node[] = [];
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const clause = statement.importClause;
      if (!clause) specifiers.push(statement.moduleSpecifier.text);
      if (!clause || clause.isTypeOnly) continue;
      if (clause.name) imported.set(clause.name.text, statement.moduleSpecifier.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) imported.set(bindings.name.text, statement.moduleSpecifier.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) if (!element.isTypeOnly) imported.set(element.name.text, statement.moduleSpecifier.text);
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || isServerOnlyExport(statement)) {
      continue;
    } else if (ts.isExportDeclaration(statement)) {
      if (!statement.isTypeOnly) kept.push(statement);
    } else if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      if (statement.name && !ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) declared.set(statement.name.text, statement);
      else kept.push(statement);
    } else if (ts.isVariableStatement(statement) && !ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) declared.set(declaration.name.text, declaration);
    } else {
      kept.push(statement);
    }
  }
  const seen = new Set<ts.Node>();
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isPropertyAccessExpression(node)) return visit(node.expression);
    if (ts.isIdentifier(node)) {
      const module = imported.get(node.text);
      if (module) specifiers.push(module);
      const declaration = declared.get(node.text);
      if (declaration && !seen.has(declaration)) {
        seen.add(declaration);
        visit(declaration);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  for (const node of kept) visit(node);
  return specifiers;
}

describe("what the browser bundle takes from the route modules", () => {
  it("reaches no node: builtin: server code is used in loaders and actions, shared values come from isomorphic/", () => {
    const routes = ["app/root.tsx", ...routeFiles(routeConfig)];
    const chains: string[] = [];
    const reached = new Set<string>();
    const queue: [string, string[]][] = [];
    const follow = (from: string, specifiers: string[], chain: string[]) => {
      for (const specifier of specifiers) {
        const target = resolveImport(from, specifier);
        if (target === "node") chains.push(`${[...chain, from].join(" → ")} imports ${specifier}`);
        // React Router's build refuses a .server module in the browser bundle by itself.
        else if (target && !/\.server(\.tsx?$|\/)/.test(target) && !reached.has(target)) {
          reached.add(target);
          queue.push([target, [...chain, from]]);
        }
      }
    };
    for (const route of new Set(routes)) follow(route, browserImports(parse(route)), []);
    while (queue.length > 0) {
      const [file, chain] = queue.shift()!;
      follow(file, allImports(parse(file)), chain);
    }
    expect(chains).toEqual([]);
  });
});
