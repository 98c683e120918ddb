/** What a command may touch of the process: output streams and the terminal's abilities. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** True when stdout is a terminal and NO_COLOR is not set. */
  readonly color: boolean;
}
