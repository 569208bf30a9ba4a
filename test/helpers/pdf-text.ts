import { inflateSync } from 'node:zlib';

/**
 * The text a pdfkit PDF shows, one string per text operation, read without pdfkit. Each object is
 * read (streams inflated, FlateDecode); each content stream's TJ/Tj hex strings are decoded with the
 * font its Tf selected: an embedded font (Identity-H, two bytes a glyph) through its ToUnicode map,
 * a built-in one as WinAnsi. Kerning numbers between the strings are dropped. Enough to check what
 * an invoice says; not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string[] {
  const objects = readObjects(pdf);
  const fontsByName = new Map<string, Map<number, string> | null>();
  for (const object of objects.values()) {
    for (const fonts of object.dictionary.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const [, name, id] of fonts[1]!.matchAll(/\/(\S+)\s+(\d+)\s+0\s+R/g)) {
        const toUnicode = objects.get(Number(id))?.dictionary.match(/\/ToUnicode\s+(\d+)\s+0\s+R/);
        fontsByName.set(name!, toUnicode ? unicodeMap(objects.get(Number(toUnicode[1]))?.stream ?? '') : null);
      }
    }
  }

  const texts: string[] = [];
  for (const object of objects.values()) {
    if (object.stream === null || !/\bBT\b[\s\S]*\b(TJ|Tj)\b/.test(object.stream)) continue;
    let font: Map<number, string> | null = null;
    const operations = /\/(\S+)\s+[\d.]+\s+Tf|\[((?:<[0-9a-fA-F]*>|\s|-?\d+(?:\.\d+)?)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g;
    for (const operation of object.stream.matchAll(operations)) {
      if (operation[1] !== undefined) {
        font = fontsByName.get(operation[1]) ?? null;
        continue;
      }
      const hexes = operation[2] !== undefined ? [...operation[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => hex[1]!) : [operation[3]!];
      texts.push(hexes.map((hex) => (font ? fromCodes(hex, font) : winAnsi(Buffer.from(hex, 'hex')))).join(''));
    }
  }
  return texts;
}

type PdfObject = { dictionary: string; stream: string | null };

/** Every `N 0 obj ... endobj`: its dictionary and, if it has one, its stream (inflated), as latin1 text. */
function readObjects(pdf: Buffer): Map<number, PdfObject> {
  const objects = new Map<number, PdfObject>();
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/(\d+) 0 obj\b/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endobj', start);
    const body = raw.slice(start, end);
    const streamAt = body.search(/stream\r?\n/);
    if (streamAt === -1) {
      objects.set(Number(match[1]), { dictionary: body, stream: null });
      continue;
    }
    const dataStart = start + streamAt + (body.slice(streamAt).startsWith('stream\r\n') ? 8 : 7);
    const bytes = pdf.subarray(dataStart, raw.indexOf('endstream', dataStart));
    let stream: string;
    try {
      stream = inflateSync(bytes).toString('latin1');
    } catch {
      stream = bytes.toString('latin1');
    }
    objects.set(Number(match[1]), { dictionary: body.slice(0, streamAt), stream });
  }
  return objects;
}

/** A ToUnicode CMap's code → text, from its bfrange (with arrays, as pdfkit writes them) and bfchar entries. */
function unicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const ranges = [...cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)].map((block) => block[1]!).join('\n');
  for (const [, start, end, targets] of ranges.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
    const first = parseInt(start!, 16);
    const last = parseInt(end!, 16);
    if (targets!.startsWith('[')) {
      [...targets!.matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach((target, index) => map.set(first + index, utf16(target[1]!)));
    } else {
      const base = parseInt(targets!.slice(1, -1), 16);
      for (let code = first; code <= last; code++) map.set(code, String.fromCharCode(base + code - first));
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, target] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(code!, 16), utf16(target!));
  }
  return map;
}

function utf16(hex: string): string {
  const units = hex.replace(/\s/g, '').match(/.{4}/g) ?? [];
  return String.fromCharCode(...units.map((unit) => parseInt(unit, 16)));
}

function fromCodes(hex: string, font: Map<number, string>): string {
  return (hex.match(/.{4}/g) ?? []).map((code) => font.get(parseInt(code, 16)) ?? '\uFFFD').join('');
}

function winAnsi(bytes: Buffer): string {
  return [...bytes].map((byte) => (byte === 0x80 ? '€' : String.fromCharCode(byte))).join('');
}
