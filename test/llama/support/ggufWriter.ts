/**
 * Writes a GGUF file (version 3): the header, the key/value metadata, the tensor infos and the
 * tensor data, each tensor aligned to `general.alignment` (32). Only what a tiny float32 model
 * needs: scalar and array values, F32 tensors. The layout is ggml's own (ggml/include/gguf.h in
 * llama.cpp): little-endian, strings as a u64 length and UTF-8 bytes.
 */
import * as fs from 'node:fs';

const ALIGNMENT = 32;
const GGML_TYPE_F32 = 0;

/** GGUF value types (gguf_type). */
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;

export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'f32[]'; value: ArrayLike<number> }
  | { type: 'i32[]'; value: ArrayLike<number> };

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the contiguous one (a [rows × cols] matrix is [cols, rows]). */
  dims: number[];
  data: Float32Array;
}

/** Grows a byte buffer as values are appended. */
class ByteSink {
  private buf = Buffer.alloc(1 << 16);
  length = 0;
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number): void { this.ensure(4); this.buf.writeUInt32LE(v, this.length); this.length += 4; }
  i32(v: number): void { this.ensure(4); this.buf.writeInt32LE(v, this.length); this.length += 4; }
  u64(v: number): void { this.ensure(8); this.buf.writeBigUInt64LE(BigInt(v), this.length); this.length += 8; }
  f32(v: number): void { this.ensure(4); this.buf.writeFloatLE(v, this.length); this.length += 4; }
  u8(v: number): void { this.ensure(1); this.buf.writeUInt8(v, this.length); this.length += 1; }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.ensure(bytes.length);
    bytes.copy(this.buf, this.length);
    this.length += bytes.length;
  }
  pad(to: number): void {
    const n = (to - (this.length % to)) % to;
    this.ensure(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
  }
  bytes(): Buffer { return this.buf.subarray(0, this.length); }
}

function writeValue(out: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case 'u32': out.u32(T.UINT32); out.u32(v.value); return;
    case 'f32': out.u32(T.FLOAT32); out.f32(v.value); return;
    case 'bool': out.u32(T.BOOL); out.u8(v.value ? 1 : 0); return;
    case 'string': out.u32(T.STRING); out.str(v.value); return;
    case 'string[]': out.u32(T.ARRAY); out.u32(T.STRING); out.u64(v.value.length); for (const s of v.value) out.str(s); return;
    case 'f32[]': out.u32(T.ARRAY); out.u32(T.FLOAT32); out.u64(v.value.length); for (let i = 0; i < v.value.length; i++) out.f32(v.value[i]); return;
    case 'i32[]': out.u32(T.ARRAY); out.u32(T.INT32); out.u64(v.value.length); for (let i = 0; i < v.value.length; i++) out.i32(v.value[i]); return;
  }
}

/** Writes `file`; returns its size in bytes. */
export function writeGguf(file: string, metadata: Record<string, GgufValue>, tensors: readonly GgufTensor[]): number {
  const head = new ByteSink();
  head.u32(0x46554747); // "GGUF"
  head.u32(3);
  head.u64(tensors.length);
  head.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    head.str(key);
    writeValue(head, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new Error(`tensor ${t.name}: dims ${t.dims.join('×')} need ${count} values, got ${t.data.length}`);
    head.str(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_TYPE_F32);
    head.u64(offset);
    offsets.push(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  head.pad(ALIGNMENT);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, head.bytes());
    const base = head.length;
    for (let i = 0; i < tensors.length; i++) {
      const t = tensors[i];
      fs.writeSync(fd, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength), 0, t.data.byteLength, base + offsets[i]);
    }
    // The last tensor's padding, so the file ends on the alignment like gguf-py's.
    const end = base + offset;
    fs.ftruncateSync(fd, end);
    return end;
  } finally {
    fs.closeSync(fd);
  }
}
