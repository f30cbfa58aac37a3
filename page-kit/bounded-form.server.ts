/**
 * A form that carries a file (a profile photo, a CSV to import) read within a byte limit: the
 * body is counted as it streams and the read stops at the first byte over, so a hostile client
 * cannot make the server hold more than `limit` bytes (`readForm` refuses files altogether).
 * Answers the parsed form, or why it could not be read, for the caller's own refusal text.
 */
export async function readFormWithin(request: Request, limit: number, acceptedTypes: readonly string[]): Promise<FormData | "wrong-type" | "too-large" | "malformed"> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!acceptedTypes.includes(type)) return "wrong-type";
  if (!request.body) return "malformed";
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) return "too-large";
  let received = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) controller.error(new Error("over the limit"));
        else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(counted, { headers: { "Content-Type": request.headers.get("Content-Type")! } }).formData();
  } catch {
    return received > limit ? "too-large" : "malformed";
  }
}
