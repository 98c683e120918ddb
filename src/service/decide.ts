// The frame every decision function shares: read record, command and context into fresh copies, check
// the actor's kind, run the command's rule. Rules refuse by throwing Refused, which never leaves here.
import { refusal, type Refusal } from './refusals.js';
import { readActor, time, type Actor, type ActorKind, type Decision, type Effect, type ServiceRecord } from './model.js';
import { Malformed, fail, obj, type Reader } from './shape.js';

/** A rule's "no", thrown inside the core and returned as `{ ok: false, refusal }`. */
export class Refused {
  constructor(readonly refusal: Refusal) {}
}

export function refuse(code: string, problem: string, pointer?: string): never {
  throw new Refused(refusal(code, problem, pointer));
}

export function readAs<T>(code: string, where: string, reader: Reader<T>, value: unknown): T {
  try {
    return reader(value, '');
  } catch (error) {
    if (error instanceof Malformed) throw new Refused(refusal(code, `The ${where}${error.pointer === '' ? '' : ` at ${error.pointer}`} ${error.message}`, error.pointer));
    // A Proxy trap, a getter that throws, a value too deep to walk: not plain JSON either.
    throw new Refused(refusal(code, `The ${where} cannot be read as plain JSON`));
  }
}

export interface BaseContext {
  readonly now: number;
}

export interface CommandSpec {
  /** Roles inside a publisher are the rule's check. */
  readonly actors: readonly ActorKind[];
  readonly fields: Record<string, Reader<unknown>>;
  readonly context: Record<string, Reader<unknown>>;
  /** The record passed must be null. */
  readonly creates: boolean;
  // The rule: records and context are already read, so it works on plain copies.
  readonly run: (record: any, command: any, context: any) => { records: ServiceRecord[]; effects: Effect[] };
}

/** The decision function of one record kind: (record | null, command, context) -> Decision. */
export function decider(kind: string, readRecord: Reader<ServiceRecord>, specs: Record<string, CommandSpec>) {
  const names = Object.keys(specs);
  const readers = new Map(
    names.map((n) => [n, { command: obj({ type: (v: unknown) => v as string, actor: readActor, ...specs[n]!.fields }), context: obj({ now: time, ...specs[n]!.context }) }]),
  );
  // Read alone first: it picks the shapes of the command and the context.
  const readType: Reader<string> = (v, p) => {
    if (typeof v !== 'object' || v === null) fail(p, 'must be a plain JSON object naming its type');
    const d = Object.getOwnPropertyDescriptor(v, 'type');
    const type = d !== undefined && 'value' in d ? d.value : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(specs, type)) throw new Malformed('/type', `must name a command of a ${kind} record (${names.join(', ')})`);
    return type;
  };
  return function decide(record: unknown, command: unknown, context: unknown): Decision {
    try {
      const head: string = readAs('service/malformed-command', 'command', readType, command);
      const spec = specs[head]!;
      const read = readers.get(head)!;
      const cmd = readAs('service/malformed-command', 'command', read.command, command) as { actor: Actor };
      const ctx = readAs('service/malformed-context', 'context', read.context, context);
      if (!spec.actors.includes(cmd.actor.kind)) {
        refuse('service/actor-not-allowed', `A ${cmd.actor.kind} may not ${head} (allowed: ${spec.actors.join(', ')})`, '/actor/kind');
      }
      let current: ServiceRecord | null = null;
      if (record !== null) {
        if (spec.creates) refuse('service/record-exists', `${head} creates a ${kind} record, so the record passed must be null`);
        current = readAs('service/malformed-record', `${kind} record`, readRecord, record);
      } else if (!spec.creates) {
        refuse('service/record-missing', `${head} needs the ${kind} record it acts on`);
      }
      const result = spec.run(current, cmd, ctx);
      return { ok: true, records: result.records, effects: result.effects };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, refusal: error.refusal };
      // Anything else is a defect of the core; it is still a refusal, never an exception.
      return { ok: false, refusal: refusal('service/malformed-command', 'The command could not be decided') };
    }
  };
}
