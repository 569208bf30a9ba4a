import { inflateSync } from 'node:zlib';

/**
 * The text a pdfkit PDF shows, one string per text operation, read without pdfkit: each content
 * stream inflated (FlateDecode), then the hex strings of its TJ/Tj operators decoded as WinAnsi
 * (pdfkit's encoding of its built-in fonts; kerning numbers between them dropped). Enough to check
 * what an invoice says; not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string[] {
  const texts: string[] = [];
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const operation of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?\d+(?:\.\d+)?)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes = operation[1] !== undefined ? [...operation[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => hex[1]!) : [operation[2]!];
      texts.push(hexes.map((hex) => winAnsi(Buffer.from(hex, 'hex'))).join(''));
    }
  }
  return texts;
}

function winAnsi(bytes: Buffer): string {
  return [...bytes].map((byte) => (byte === 0x80 ? '€' : String.fromCharCode(byte))).join('');
}
