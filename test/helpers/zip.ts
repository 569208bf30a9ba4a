import zlib from 'node:zlib';

/** A zip entry that unpacks as a symbolic link (Unix mode 120777 in its external attributes) to `symlink`. */
export type ZipSymlink = { symlink: string };

/**
 * A zip archive of the given files (deflated, UTF-8 names), for tests that upload plugins and
 * themes. Directories are implied by the paths; names are taken as given (`../`, absolute), as a
 * hostile archive would hold them.
 */
export function zipArchive(files: Record<string, string | Buffer | ZipSymlink>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // 2020-01-01 00:00 in DOS format: fixed, so the same files give the same bytes
  const time = 0;
  const date = ((2020 - 1980) << 9) | (1 << 5) | 1;
  for (const [path, content] of Object.entries(files)) {
    const link = typeof content === 'object' && !Buffer.isBuffer(content) ? content.symlink : null;
    const data = link !== null ? Buffer.from(link) : Buffer.isBuffer(content) ? content : Buffer.from(content as string);
    const compressed = zlib.deflateRawSync(data);
    const name = Buffer.from(path);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // made by Unix (3) when the entry carries a Unix mode: a link
    central.writeUInt16LE(link !== null ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    if (link !== null) central.writeUInt32LE((0o120777 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
