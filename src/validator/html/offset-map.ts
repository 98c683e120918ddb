// Decoded text -> file offsets; a decoded piece (a reference, CR LF) maps to its first file offset.

export class OffsetMap {
  private readonly pieces: number[] = [];
  private decodedLength = 0;
  private lastLiteral = false;
  private lastFileEnd = -1;

  /** Appends `length` decoded units copied one-to-one from the file at `fileOffset`. */
  literal(fileOffset: number, length: number): void {
    if (length === 0) return;
    if (!this.lastLiteral || this.lastFileEnd !== fileOffset) this.pieces.push(this.decodedLength, fileOffset, 1);
    this.decodedLength += length;
    this.lastLiteral = true;
    this.lastFileEnd = fileOffset + length;
  }

  /** Appends `length` decoded units that came from the file span starting at `fileOffset`. */
  decoded(fileOffset: number, length: number, fileLength: number): void {
    if (length === 0) return;
    this.pieces.push(this.decodedLength, fileOffset, 0);
    this.decodedLength += length;
    this.lastLiteral = false;
    this.lastFileEnd = fileOffset + fileLength;
  }

  get length(): number {
    return this.decodedLength;
  }

  /** File offset of decoded offset `at` (the end of the text maps just past the last piece). */
  map(at: number): number {
    const p = this.pieces;
    const count = p.length / 3;
    if (count === 0) return this.lastFileEnd < 0 ? 0 : this.lastFileEnd;
    if (at >= this.decodedLength) return this.lastFileEnd;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (p[mid * 3]! <= at) lo = mid;
      else hi = mid - 1;
    }
    const base = p[lo * 3]!;
    const file = p[lo * 3 + 1]!;
    return p[lo * 3 + 2] === 1 ? file + (at - base) : file;
  }
}
