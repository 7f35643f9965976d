/**
 * The members of a .zip file as streams, for the TIGER/Line county archives (`tl_2024_01001_addrfeat.zip` holds the
 * .shp, .dbf, .shx, .prj and .cpg): the central directory is read from the file's end, a member is inflated as it is
 * read (stored or deflated members; no ZIP64, which files under 4 GiB do not need).
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface ZipMember {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

export async function zipMembers(file: string): Promise<ZipMember[]> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 65535);
    const tail = await readAt(handle, size - tailLength, tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === EOCD) { eocd = i; break; }
    if (eocd < 0) throw Object.assign(new Error(`${file} is not a zip file`), { code: 'INVALID_ARGUMENT' });
    const count = tail.readUInt16LE(eocd + 10);
    const directory = await readAt(handle, tail.readUInt32LE(eocd + 16), tail.readUInt32LE(eocd + 12));
    const members: ZipMember[] = [];
    for (let p = 0, i = 0; i < count && directory.readUInt32LE(p) === CENTRAL; i++) {
      const nameLength = directory.readUInt16LE(p + 28);
      members.push({
        name: directory.toString('utf8', p + 46, p + 46 + nameLength),
        method: directory.readUInt16LE(p + 10),
        compressedSize: directory.readUInt32LE(p + 20),
        localHeaderOffset: directory.readUInt32LE(p + 42),
      });
      p += 46 + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
    }
    return members;
  } finally {
    await handle.close();
  }
}

/** A member's content as a stream. */
export async function zipMemberStream(file: string, member: ZipMember): Promise<Readable> {
  const handle = await fs.promises.open(file, 'r');
  let local: Buffer;
  try {
    local = await readAt(handle, member.localHeaderOffset, 30);
  } finally {
    await handle.close();
  }
  if (local.readUInt32LE(0) !== LOCAL) throw Object.assign(new Error(`${file}: bad zip member ${member.name}`), { code: 'INVALID_ARGUMENT' });
  const start = member.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw = fs.createReadStream(file, { start, end: start + member.compressedSize - 1, highWaterMark: 256 * 1024 });
  if (member.method === 0) return raw;
  if (member.method !== 8) throw Object.assign(new Error(`${file}: zip member ${member.name} uses compression method ${member.method}`), { code: 'INVALID_ARGUMENT' });
  return raw.pipe(zlib.createInflateRaw());
}
