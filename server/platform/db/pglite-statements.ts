import { parse, protocol, type PGlite } from "@electric-sql/pglite";

type QueryOptions = Parameters<PGlite["query"]>[2];
type Results = Awaited<ReturnType<PGlite["query"]>>;

/** What PGlite keeps to itself but lends its own query path; reached here, and only here. */
type PGliteInside = PGlite & {
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
  serializers: Record<number, (value: unknown) => string>;
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
};

type Statement = { name: string; paramTypes: number[] };

/** Statements PostgreSQL can prepare; anything else (BEGIN, SET, LISTEN…) goes PGlite's own way. */
const PREPARABLE = /^\s*(select|insert|update|delete|with|values)\b/i;
/** Distinct texts kept prepared (an `in (…)` list of another length is another text); the oldest is closed. */
const KEPT_STATEMENTS = 500;
/** "cached plan must not change result type": a migration changed a table under a kept statement. */
const PLAN_CHANGED = "0A000";

/**
 * Makes `pg.query` keep each statement it is given prepared, under a name, in the embedded
 * database's one session, and run it again by that name: PostgreSQL then parses and plans a
 * text once instead of on every call (its plan cache decides, as for any prepared statement,
 * when one plan serves every set of parameters), and a run is one trip into the WebAssembly
 * engine instead of six. On PGlite that parsing and planning was most of a statement's cost: the
 * signed-in home's five statements spent about 4 ms of CPU planning for well under 1 ms of work
 * (bench/README.md, "Signed-in pages"). Results, errors and locking are PGlite's own: the
 * same exclusive sections, the same result parsing; queries inside `transaction()` and
 * everything `exec` runs are left as they were.
 */
export function keepStatementsPrepared(pg: PGlite): void {
  const inside = pg as PGliteInside;
  const plainQuery = pg.query.bind(pg);
  const statements = new Map<string, Statement>();
  const toClose: string[] = [];
  let made = 0;

  const prepare = async (text: string, options: QueryOptions): Promise<Statement> => {
    const name = `sg_${(made += 1)}`;
    const described = await pg.execProtocolStream(
      concat(protocol.serialize.parse({ name, text, types: options?.paramTypes }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    if (statements.size >= KEPT_STATEMENTS) {
      const [oldest, kept] = statements.entries().next().value!;
      statements.delete(oldest);
      toClose.push(kept.name);
    }
    statements.set(text, statement);
    return statement;
  };

  const run = async (text: string, params: unknown[], options: QueryOptions): Promise<Results> => {
    const statement = statements.get(text) ?? (await prepare(text, options));
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i]!;
      const serialize = options?.serializers?.[type] ?? inside.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const closing = toClose.splice(0).map((name) => protocol.serialize.close({ type: "S", name }));
    const messages = await pg.execProtocolStream(
      concat(...closing, protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.describe({ type: "P" }), protocol.serialize.execute({}), protocol.serialize.sync()),
      { syncToFs: false },
    );
    if (!pg.isInTransaction()) await pg.syncToFs();
    return parse.parseResults(messages, inside.parsers, options)[0] as Results;
  };

  pg.query = (async (text: string, params: unknown[] = [], options?: QueryOptions) => {
    if (!PREPARABLE.test(text) || options?.blob) return plainQuery(text, params, options);
    await inside._checkReady();
    return inside._runExclusiveTransaction(() =>
      inside._runExclusiveQuery(async () => {
        try {
          return await run(text, params, options);
        } catch (error) {
          if ((error as { code?: string }).code !== PLAN_CHANGED || !statements.has(text)) throw withQuery(error, text, params);
          toClose.push(statements.get(text)!.name);
          statements.delete(text);
          return run(text, params, options).catch((again: unknown) => Promise.reject(withQuery(again, text, params)));
        }
      }),
    );
  }) as PGlite["query"];
}

/** As PGlite's own errors: the statement and its parameters ride along for whoever logs it. */
function withQuery(error: unknown, query: string, params: unknown[]): unknown {
  if (error && typeof error === "object") Object.assign(error, { query, params });
  return error;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
