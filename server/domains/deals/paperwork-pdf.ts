import { createRequire } from "node:module";
import path from "node:path";
import PDFDocument from "pdfkit";
import type { InvoiceDocument, PartyBlock, StatementDocument } from "./paperwork-documents";

/**
 * A deal's paperwork as a PDF, written by pdfkit with DejaVu Sans embedded (subset), so every name
 * prints whatever its script: the standard PDF fonts know Latin-1 only. The text is the same
 * worded document the printable page shows (paperwork-documents.ts). `compress: false` leaves the content
 * streams readable, which tests use to read the text back.
 */

const fontsFolder = () => path.join(path.dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");

const A4_WIDTH = 595.28;
const MARGIN = 56;
const WIDTH = A4_WIDTH - 2 * MARGIN;
const INK = "#1f2328";
const MUTED = "#57606a";

type Doc = InstanceType<typeof PDFDocument>;

function newDocument(title: string, compress: boolean): Doc {
  const fonts = fontsFolder();
  const regular = path.join(fonts, "DejaVuSans.ttf");
  // The regular face is the document's own font from the start, so pdfkit never loads its Helvetica.
  const doc = new PDFDocument({ size: "A4", margin: MARGIN, compress, font: regular, info: { Title: title }, lang: "en" });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", path.join(fonts, "DejaVuSans-Bold.ttf"));
  doc.font("regular").fillColor(INK);
  return doc;
}

function finished(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

function heading(doc: Doc, title: string, subtitle: string) {
  doc.font("bold").fontSize(22).text(title, MARGIN, MARGIN, { width: WIDTH });
  doc.font("regular").fontSize(10).fillColor(MUTED).text(subtitle, { width: WIDTH }).fillColor(INK);
  doc.moveDown(1.5);
}

/** Seller and buyer side by side, each as tall as it needs. */
function parties(doc: Doc, blocks: PartyBlock[]) {
  const top = doc.y;
  const column = (WIDTH - 24) / 2;
  let bottom = top;
  blocks.forEach((block, index) => {
    const x = MARGIN + index * (column + 24);
    doc.font("regular").fontSize(9).fillColor(MUTED).text(block.role.toUpperCase(), x, top, { width: column });
    doc.font("bold").fontSize(11).fillColor(INK).text(block.name, x, doc.y + 2, { width: column });
    doc.font("regular").fontSize(10);
    for (const line of [...block.addressLines, block.country].filter(Boolean)) doc.text(line, x, doc.y, { width: column });
    if (block.taxId) doc.text(`Tax id: ${block.taxId}`, x, doc.y, { width: column });
    bottom = Math.max(bottom, doc.y);
  });
  doc.y = bottom + 24;
}

/** One row of a two-column table: text on the left, an amount on the right. */
function row(doc: Doc, left: { text: string; detail?: string | null; bold?: boolean }, amount: string | null, rule = true) {
  const amountWidth = 110;
  const top = doc.y;
  doc.font(left.bold ? "bold" : "regular").fontSize(11).text(left.text, MARGIN, top, { width: WIDTH - amountWidth - 12 });
  if (left.detail) doc.font("regular").fontSize(9).fillColor(MUTED).text(left.detail, MARGIN, doc.y, { width: WIDTH - amountWidth - 12 }).fillColor(INK);
  const bottom = doc.y;
  if (amount) doc.font(left.bold ? "bold" : "regular").fontSize(11).text(amount, MARGIN + WIDTH - amountWidth, top, { width: amountWidth, align: "right" });
  doc.y = Math.max(bottom, doc.y) + 6;
  if (rule) doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + WIDTH, doc.y).lineWidth(0.5).strokeColor("#d0d7de").stroke();
  doc.y += 8;
}

function paragraph(doc: Doc, text: string, options: { bold?: boolean; muted?: boolean } = {}) {
  doc.font(options.bold ? "bold" : "regular").fontSize(10).fillColor(options.muted ? MUTED : INK).text(text, MARGIN, doc.y, { width: WIDTH }).fillColor(INK);
  doc.moveDown(0.5);
}

export function invoicePdf(invoice: InvoiceDocument, { compress = true }: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = newDocument(`Invoice ${invoice.number}`, compress);
  heading(doc, `Invoice ${invoice.number}`, `Issued ${invoice.issued}`);
  parties(doc, [invoice.seller, invoice.buyer]);
  row(doc, { text: "Description", bold: true }, "Amount");
  for (const line of invoice.lines) row(doc, { text: line.description, detail: line.detail }, line.amount);
  row(doc, { text: "Total paid", bold: true }, invoice.total, false);
  doc.moveDown(0.5);
  if (invoice.taxLine) paragraph(doc, invoice.taxLine, { bold: true });
  if (invoice.taxNote) paragraph(doc, invoice.taxNote, { muted: true });
  paragraph(doc, invoice.paymentNote);
  return finished(doc);
}

export function statementPdf(statement: StatementDocument, { compress = true }: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = newDocument(statement.title, compress);
  heading(doc, statement.title, `${statement.dealTitle} · for ${statement.creatorName}, sponsored by ${statement.sponsorName}`);
  for (const line of statement.summary) row(doc, { text: line.label }, line.amount);
  doc.moveDown(1);
  doc.font("bold").fontSize(13).text("Movements", MARGIN, doc.y, { width: WIDTH });
  doc.moveDown(0.5);
  if (statement.entries.length === 0) paragraph(doc, "No money has moved for this deal yet.", { muted: true });
  for (const entry of statement.entries) row(doc, { text: entry.what, detail: entry.date }, entry.amount);
  doc.moveDown(0.5);
  paragraph(doc, statement.note, { muted: true });
  return finished(doc);
}
