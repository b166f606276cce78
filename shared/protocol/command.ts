import type { z } from 'zod';

/** A command is a name plus request and response schemas; the client is typed from the map. */
export interface CommandSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly request: Req;
  readonly response: Res;
}

/**
 * Each schema is built when first read (a host parses a command's request when it is first
 * invoked): an idle host whose page is open invokes a handful of the commands, and building every
 * command's schemas as the map loaded held them all in memory (#26).
 */
export function command<Req extends z.ZodType, Res extends z.ZodType>(
  request: () => Req,
  response: () => Res,
): CommandSpec<Req, Res> {
  let req: Req | undefined;
  let res: Res | undefined;
  return {
    get request() {
      return (req ??= request());
    },
    get response() {
      return (res ??= response());
    },
  };
}
