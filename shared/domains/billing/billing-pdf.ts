import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

/**
 * The fonts of Berth's PDFs: DejaVu Sans (npm `dejavu-fonts-ttf`, Bitstream Vera licence) embedded,
 * because pdfkit's built-in Helvetica only writes WinAnsi and garbles names like Łódź or Ελλάδα.
 * DejaVu Sans covers Latin (with Latin Extended: Polish, Czech, Turkish, Vietnamese...), Greek,
 * Cyrillic, Armenian, Georgian, Hebrew and Arabic letters, but no CJK ideographs.
 */
export const BODY_FONT = 'DejaVuSans';
export const BOLD_FONT = 'DejaVuSans-Bold';

let fontFiles: Record<typeof BODY_FONT | typeof BOLD_FONT, Buffer> | undefined;

function fonts(): Record<typeof BODY_FONT | typeof BOLD_FONT, Buffer> {
  const read = (file: string) => readFileSync(fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  // Read once per process: the two files are 1.4 MB, pdfkit embeds only the glyphs a document uses.
  fontFiles ??= { [BODY_FONT]: read('DejaVuSans.ttf'), [BOLD_FONT]: read('DejaVuSans-Bold.ttf') };
  return fontFiles;
}

/** A new A4 billing document with the fonts registered (body font selected) and its bytes once it ends. */
export function billingPdf(info: { Title: string; Author: string }): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [name, file] of Object.entries(fonts())) doc.registerFont(name, file);
  doc.font(BODY_FONT);
  return { doc, done };
}

/** The page's layout shared by invoices and credit notes (A4 points): text from `left`, amounts right-aligned from `amountColumn`. */
export const PDF_LAYOUT = { left: 50, amountColumn: 420, width: 495 } as const;

/** One line of an amounts table: its label on the left (wrapping), its amount right-aligned, the next line below both. */
export function amountRow(doc: PDFKit.PDFDocument, label: string, amount: string, bold = false): void {
  const { left, amountColumn, width } = PDF_LAYOUT;
  const y = doc.y;
  doc.font(bold ? BOLD_FONT : BODY_FONT);
  doc.text(label, left, y, { width: amountColumn - left - 10 });
  const after = doc.y;
  doc.text(amount, amountColumn, y, { width: left + width - amountColumn, align: 'right' });
  doc.y = Math.max(after, doc.y);
}
