/** A problem with how a command was called or with its target: exit status 2 (D-21), message on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
