/**
 * Original holder of a North American number block, by NPA-NXX (exchange) and NPA-NXX-X (thousands block).
 *
 * Source: NANPA thousands-block pooling and CNAC central-office code reports (via Number::Phone, see README). The
 * holder is the carrier the block was ALLOCATED to; number portability makes the current carrier invisible offline,
 * which is why answers built from this index say `carrier_source: "allocation"`.
 *
 * Shipped format (gzipped; all integers little-endian):
 *   "NANPOPS1" · u32 name-bytes length · operator names, UTF-8, joined by "\n" · padding to 4 bytes ·
 *   u32 exchange count N · N × u32 exchange keys (NPANXX as a number, ascending) ·
 *   N × 11 × u16 operator slots: [exchange holder, block 0 holder, …, block 9 holder], 0xFFFF = none.
 */

const MAGIC = 'NANPOPS1';
const SLOTS_PER_EXCHANGE = 11;
const NO_OPERATOR = 0xffff;

export interface NanpOperatorIndex {
  readonly operatorNames: readonly string[];
  readonly exchangeKeys: Uint32Array;
  readonly operatorSlots: Uint16Array;
}

export interface NanpOperatorRow {
  /** 6 digits (NPA-NXX) or 7 digits (NPA-NXX-X thousands block). */
  prefix: string;
  operator: string;
}

/** The holder of the number's thousands block if it was pooled, else of its exchange; null if neither is known. */
export function findNanpOperator(index: NanpOperatorIndex, nationalNumber: string): string | null {
  if (nationalNumber.length !== 10) return null;
  const exchangeKey = Number(nationalNumber.slice(0, 6));
  const position = findExchange(index.exchangeKeys, exchangeKey);
  if (position < 0) return null;
  const base = position * SLOTS_PER_EXCHANGE;
  const blockHolder = index.operatorSlots[base + 1 + (nationalNumber.charCodeAt(6) - 48)];
  const holder = blockHolder !== NO_OPERATOR ? blockHolder : index.operatorSlots[base];
  return holder === NO_OPERATOR ? null : index.operatorNames[holder];
}

function findExchange(keys: Uint32Array, key: number): number {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = keys[middle];
    if (value === key) return middle;
    if (value < key) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

export function buildNanpOperatorIndex(rows: Iterable<NanpOperatorRow>): NanpOperatorIndex {
  const nameIds = new Map<string, number>();
  const slotsByExchange = new Map<number, number[]>();
  for (const { prefix, operator } of rows) {
    if (!/^\d{6,7}$/.test(prefix)) throw new Error(`NANP prefix must have 6 or 7 digits: ${prefix}`);
    let nameId = nameIds.get(operator);
    if (nameId === undefined) {
      nameId = nameIds.size;
      if (nameId >= NO_OPERATOR) throw new Error('too many distinct NANP operators for a u16 index');
      nameIds.set(operator, nameId);
    }
    const exchangeKey = Number(prefix.slice(0, 6));
    let slots = slotsByExchange.get(exchangeKey);
    if (!slots) slotsByExchange.set(exchangeKey, (slots = new Array<number>(SLOTS_PER_EXCHANGE).fill(NO_OPERATOR)));
    slots[prefix.length === 6 ? 0 : 1 + Number(prefix[6])] = nameId;
  }
  const exchangeKeys = Uint32Array.from([...slotsByExchange.keys()].sort((a, b) => a - b));
  const operatorSlots = new Uint16Array(exchangeKeys.length * SLOTS_PER_EXCHANGE);
  exchangeKeys.forEach((key, position) => operatorSlots.set(slotsByExchange.get(key)!, position * SLOTS_PER_EXCHANGE));
  return { operatorNames: [...nameIds.keys()], exchangeKeys, operatorSlots };
}

export function encodeNanpOperatorIndex(index: NanpOperatorIndex): Buffer {
  const names = Buffer.from(index.operatorNames.join('\n'), 'utf8');
  const namesPadded = Buffer.concat([names, Buffer.alloc((4 - (names.length % 4)) % 4)]);
  const header = Buffer.alloc(MAGIC.length + 4);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(names.length, MAGIC.length);
  const count = Buffer.alloc(4);
  count.writeUInt32LE(index.exchangeKeys.length);
  return Buffer.concat([
    header, namesPadded, count, littleEndianBytes(index.exchangeKeys), littleEndianBytes(index.operatorSlots),
  ]);
}

export function decodeNanpOperatorIndex(bytes: Buffer): NanpOperatorIndex {
  if (bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not a NANP operator index (bad magic)');
  let offset = MAGIC.length;
  const namesLength = bytes.readUInt32LE(offset);
  offset += 4;
  const operatorNames = bytes.toString('utf8', offset, offset + namesLength).split('\n');
  offset += namesLength + ((4 - (namesLength % 4)) % 4);
  const count = bytes.readUInt32LE(offset);
  offset += 4;
  const exchangeKeys = new Uint32Array(count);
  for (let i = 0; i < count; i++, offset += 4) exchangeKeys[i] = bytes.readUInt32LE(offset);
  const operatorSlots = new Uint16Array(count * SLOTS_PER_EXCHANGE);
  for (let i = 0; i < operatorSlots.length; i++, offset += 2) operatorSlots[i] = bytes.readUInt16LE(offset);
  if (offset !== bytes.length) throw new Error('NANP operator index has trailing or missing bytes');
  return { operatorNames, exchangeKeys, operatorSlots };
}

function littleEndianBytes(values: Uint32Array | Uint16Array): Buffer {
  const bytes = Buffer.alloc(values.length * values.BYTES_PER_ELEMENT);
  values.forEach((value, i) =>
    values.BYTES_PER_ELEMENT === 4 ? bytes.writeUInt32LE(value, i * 4) : bytes.writeUInt16LE(value, i * 2));
  return bytes;
}
