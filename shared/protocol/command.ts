import type { z } from 'zod';

/** A command is a name plus request and response schemas; the client is typed from the map. */
export interface CommandSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}

export function command<Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  response: Res,
): CommandSpec<Req, Res> {
  return { request, response };
}
