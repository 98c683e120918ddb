// A scanner's warm-up, run once per process when enough text is to be scanned to pay for it.
// Why warm up at all: the CLI checks a bundle in a fresh process, where most of a scan's
// time goes to V8 compiling the scanner, and compiling it again each time real text first
// takes a path the compiled code never saw (a deoptimisation). A sample scanned first gives
// V8 feedback for every path, so each hot function is compiled once (bench/scan-speed-js.mjs,
// bench/scan-speed-css.mjs). Below the threshold V8 never optimises the scanner anyway, and
// the warm-up would only cost.

export class ScannerPrimer {
  #done = false;
  #seen = 0;

  /** `threshold`: text (in the scanner's own units) from which a warm-up pays; `warmUp` scans the sample. */
  constructor(
    private readonly threshold: number,
    private readonly warmUp: () => void,
  ) {}

  /** A scan of `length` more units is starting: warms up once the total so far reaches the threshold. */
  beforeScan(length: number): void {
    if (this.#done) return;
    this.#seen += length;
    if (this.#seen >= this.threshold) this.#run();
  }

  /**
   * `length` units are about to be scanned in all (validateProject knows before the listing
   * rules): warms up now, so that V8 compiles the scanner on a background thread while this
   * one does other work, instead of at the first large file.
   */
  ahead(length: number): void {
    if (!this.#done && length >= this.threshold) this.#run();
  }

  #run(): void {
    // Done first: the warm-up's own scans pass through beforeScan.
    this.#done = true;
    this.warmUp();
  }
}
