import { parseArgs, type ParseArgsConfig } from 'node:util';

/** One `quire` command: how it is called, what it does, and its options (all of them take a value). */
export interface CommandSpec {
  usage: string;
  summary: string;
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Options the command cannot run without. */
  required?: readonly string[];
  /** The command reads its own arguments (a sub-command and flags): they are handed over unparsed. */
  ownArguments?: boolean;
}

/** A command line the program cannot run: the message (`quire …: `) says what is wrong, `hint` how to call it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export type CommandLine =
  { kind: 'help'; text: string } | { kind: 'run'; command: string; values: Record<string, string | undefined>; args: readonly string[] };

const HELP_FLAGS = new Set(['--help', '-h']);

const commandHelp = (spec: CommandSpec) => `usage: ${spec.usage}\n\n${spec.help}`;

/** Node's parseArgs messages, shortened to what a person needs (its own suggest `--` quoting). */
function shorten(err: unknown): string {
  const { code, message } = err as { code?: string; message: string };
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted) return `unknown option '${quoted}'`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && quoted) return `unexpected argument '${quoted}'`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted) return `${quoted.split(' ')[0]} needs a value`;
  throw err;
}

/**
 * `quire [--help] <command> [--help | options]`: help is asked for (stdout, exit 0), or a command to run with
 * its options, or a UsageError naming what is wrong (unknown command or option, missing value or option).
 */
export function parseCommandLine(argv: readonly string[], commands: Readonly<Record<string, CommandSpec>>, overview: string): CommandLine {
  const [first, ...rest] = argv;
  const list = `commands: ${Object.keys(commands).join(', ')} (quire --help describes them)`;
  if (first === undefined) throw new UsageError('quire: no command given', overview);
  if (HELP_FLAGS.has(first) || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic === undefined) return { kind: 'help', text: overview };
    const spec = Object.hasOwn(commands, topic) ? commands[topic] : undefined;
    if (!spec) throw new UsageError(`quire: unknown command '${topic}'`, list);
    return { kind: 'help', text: commandHelp(spec) };
  }
  if (first.startsWith('-')) throw new UsageError(`quire: unknown option '${first}' (options come after the command)`, list);
  const spec = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!spec) throw new UsageError(`quire: unknown command '${first}'`, list);
  const hint = `usage: ${spec.usage}\n(quire ${first} --help describes its options)`;
  if (rest.some((arg) => HELP_FLAGS.has(arg))) return { kind: 'help', text: commandHelp(spec) };
  if (spec.ownArguments) return { kind: 'run', command: first, values: {}, args: rest };
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args: [...rest], options: spec.options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (err) {
    throw new UsageError(`quire ${first}: ${shorten(err)}`, hint);
  }
  const missing = (spec.required ?? []).filter((name) => !values[name]);
  if (missing.length) throw new UsageError(`quire ${first}: missing ${missing.map((name) => `--${name}`).join(', ')}`, hint);
  return { kind: 'run', command: first, values, args: rest };
}
