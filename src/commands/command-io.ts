/** What a command may touch of the process: output streams, the terminal's abilities and the environment. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** True when stdout is a terminal and NO_COLOR is not set. */
  readonly color: boolean;
  /**
   * The process environment, read once by the entry point (src/cli.ts) and passed down:
   * no command reads `process.env` itself.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
}
