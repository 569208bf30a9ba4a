import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every entry under `root` by relative path, read with lstat (links never followed): its mode,
 * owner, content hash or link text, and with `mtime` its modification time too.
 */
export function treeSnapshot(root: string, options: { mtime?: boolean } = {}): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
      const child = relative ? `${relative}/${name}` : name;
      const full = path.join(root, child);
      const stat = fs.lstatSync(full);
      const content = stat.isFile() ? createHash('sha256').update(fs.readFileSync(full)).digest('hex') : stat.isSymbolicLink() ? fs.readlinkSync(full) : '';
      entries[child] = `${stat.mode} ${stat.uid}:${stat.gid}${options.mtime ? ` ${stat.mtimeMs}` : ''} ${content}`;
      if (stat.isDirectory()) walk(child);
    }
  };
  walk('');
  return entries;
}

/** Writes `content` to `relative` under `root`, making its directories; with `mode` or `mtime` (seconds), sets them after. */
export function writeFileIn(root: string, relative: string, content: string | Buffer, options: { mode?: number; mtime?: number } = {}): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (options.mode !== undefined) fs.chmodSync(file, options.mode);
  if (options.mtime !== undefined) fs.utimesSync(file, options.mtime, options.mtime);
}
