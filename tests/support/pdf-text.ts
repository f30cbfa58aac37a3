/**
 * The text of a PDF that pdfkit wrote with `compress: false`, one line per text operation: each
 * font's ToUnicode map turns the glyph codes of its TJ operations back into characters, as a PDF
 * reader's copy and paste does. Enough for our own paperwork PDFs, not for PDFs in general.
 */
export function pdfText(pdf: Buffer): string {
  const source = pdf.toString("latin1");
  const objects = new Map<string, string>();
  for (const match of source.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) objects.set(match[1]!, match[2]!);

  const utf16 = (hex: string) => Buffer.from(hex, "hex").swap16().toString("utf16le");
  const maps = new Map<string, Map<number, string>>();
  for (const [id, body] of objects) {
    const toUnicode = /\/Type \/Font[\s\S]*\/ToUnicode (\d+) 0 R/.exec(body)?.[1];
    if (!toUnicode) continue;
    const cmap = new Map<number, string>();
    const stream = objects.get(toUnicode) ?? "";
    for (const range of stream.matchAll(/<([0-9a-f]+)> <([0-9a-f]+)> \[([^\]]*)\]/gi)) {
      const start = parseInt(range[1]!, 16);
      [...range[3]!.matchAll(/<([0-9a-f]+)>/gi)].forEach((unit, index) => cmap.set(start + index, utf16(unit[1]!)));
    }
    for (const single of stream.matchAll(/<([0-9a-f]{4})> <([0-9a-f]+)>\s*$/gim)) cmap.set(parseInt(single[1]!, 16), utf16(single[2]!));
    maps.set(id, cmap);
  }
  const fontOfName = new Map<string, string>();
  for (const body of objects.values()) for (const entry of body.matchAll(/\/(F\d+) (\d+) 0 R/g)) fontOfName.set(entry[1]!, entry[2]!);

  const lines: string[] = [];
  let cmap = new Map<number, string>();
  // Text operators are read from the uncompressed objects only (the pages' content): an embedded
  // font is compressed binary, and a stray "[" in it would swallow the next font change.
  const content = [...objects.values()].filter((body) => !body.includes("/Filter")).join("\n");
  for (const op of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]\n]*)\] TJ/g)) {
    if (op[1]) {
      cmap = maps.get(fontOfName.get(op[1]) ?? "") ?? new Map();
      continue;
    }
    const codes = [...op[2]!.matchAll(/<([0-9a-f]+)>/gi)].flatMap((part) => part[1]!.match(/.{4}/g) ?? []);
    lines.push(codes.map((code) => cmap.get(parseInt(code, 16)) ?? "\uFFFD").join(""));
  }
  return lines.join("\n");
}
