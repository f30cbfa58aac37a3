import type { OperationView } from "#server/features/api/reference";
import { CodeBlock, FieldTable, InlineCode, ScrollTable, td } from "./Code";

const METHOD_STYLES: Record<string, string> = {
  GET: "bg-primary/10 text-primary-dark",
  POST: "bg-secondary/60 text-ink",
  PATCH: "bg-amber-100 text-amber-900",
  PUT: "bg-amber-100 text-amber-900",
  DELETE: "bg-red-50 text-red-800",
};

/** One operation: what it does, what it needs, what it takes and answers, how it can fail, and a curl line. */
export function OperationSection({ operation }: { operation: OperationView }) {
  const headingId = `op-${operation.id}`;
  return (
    <section id={operation.id} aria-labelledby={headingId} className="scroll-mt-20 border-t border-ink/10 py-8" data-testid="api-operation">
      <h2 id={headingId} className="text-xl font-bold">
        {operation.summary}
      </h2>
      <p className="mt-2 flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 font-bold ${METHOD_STYLES[operation.method] ?? ""}`}>{operation.method}</span>
        <span className="break-all">/api/v1{operation.path}</span>
      </p>
      {operation.description ? (
        <p className="mt-3">
          <InlineCode text={operation.description} />
        </p>
      ) : null}
      <p className="mt-3 text-sm">
        <span className="font-semibold">Permission: </span>
        {operation.scope ? <code className="font-mono">{operation.scope}</code> : "any valid key"}
      </p>

      {operation.parameters.length > 0 ? (
        <>
          <h3 className="mt-5 font-semibold">Parameters</h3>
          <ScrollTable label={`Parameters of ${operation.summary}`} headers={["Name", "In", "Type", "Required", "Description"]}>
            {operation.parameters.map((parameter) => (
              <tr key={`${parameter.in}:${parameter.name}`}>
                <td className={td}>
                  <code className="font-mono">{parameter.name}</code>
                </td>
                <td className={td}>{parameter.in}</td>
                <td className={td}>{parameter.type}</td>
                <td className={td}>{parameter.required ? "yes" : "no"}</td>
                <td className={td}>{parameter.description ? <InlineCode text={parameter.description} /> : null}</td>
              </tr>
            ))}
          </ScrollTable>
        </>
      ) : null}

      {operation.body ? (
        <>
          <h3 className="mt-5 font-semibold">Request body (JSON)</h3>
          <FieldTable label={`Request body of ${operation.summary}`} rows={operation.body} />
        </>
      ) : null}

      <h3 className="mt-5 font-semibold">
        Response {operation.success.status}
        {operation.success.schemaName ? (
          <>
            {" "}
            · <code className="font-mono font-normal">{operation.success.schemaName}</code>
          </>
        ) : null}
      </h3>
      <p className="mt-1 text-sm">{operation.success.description}</p>
      {operation.success.fields.length > 0 ? <FieldTable label={`Response of ${operation.summary}`} rows={operation.success.fields} /> : null}

      <h3 className="mt-5 font-semibold">Errors</h3>
      <ul className="mt-2 space-y-1 text-sm">
        {operation.errors.map((error) => (
          <li key={error.status}>
            <span className="font-mono font-semibold">{error.status}</span> <InlineCode text={error.description} />
          </li>
        ))}
      </ul>

      <h3 className="mt-5 font-semibold">Example</h3>
      <CodeBlock label={`curl example for ${operation.summary}`}>{operation.curl}</CodeBlock>
    </section>
  );
}
