import type fs from 'node:fs';
import type { Attributes } from 'ssh2';

/** SFTP attributes of a stat. */
export function attributesOf(stats: fs.Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

const TYPES: Array<[number, string]> = [
  [0o140000, 's'],
  [0o120000, 'l'],
  [0o100000, '-'],
  [0o060000, 'b'],
  [0o040000, 'd'],
  [0o020000, 'c'],
  [0o010000, 'p'],
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function permissions(mode: number): string {
  const type = TYPES.find(([bits]) => (mode & 0o170000) === bits)?.[1] ?? '?';
  const rwx = (shift: number, special: number, char: string) => {
    const bits = (mode >> shift) & 7;
    const x = bits & 1 ? (mode & special ? char : 'x') : mode & special ? char.toUpperCase() : '-';
    return `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${x}`;
  };
  return type + rwx(6, 0o4000, 's') + rwx(3, 0o2000, 's') + rwx(0, 0o1000, 't');
}

/** The `ls -l` line an SFTP client prints for a directory entry. */
export function longName(name: string, stats: fs.Stats): string {
  const date = stats.mtime;
  const recent = Math.abs(Date.now() - date.getTime()) < 180 * 24 * 3600 * 1000;
  const when = `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)} ${recent ? `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}` : ` ${date.getUTCFullYear()}`}`;
  return `${permissions(stats.mode)} ${String(stats.nlink).padStart(3)} ${String(stats.uid).padEnd(8)} ${String(stats.gid).padEnd(8)} ${String(stats.size).padStart(8)} ${when} ${name}`;
}
