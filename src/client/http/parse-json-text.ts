import { ErrorCodes, ProtocolError } from '../../errors/index.js';

/**
 * Parses the text of a 2xx response as JSON.
 *
 * @param text - the body text.
 * @param request - `METHOD /path`, for the message.
 * @returns the parsed value.
 * @throws ProtocolError `MALFORMED_JSON` (with the parser's error as `cause` and, when known, `bytePosition`).
 */
export function parseJsonText(text: string, request: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new ProtocolError(ErrorCodes.MALFORMED_JSON, `${request}: the response body is not valid JSON`, {
      cause: error,
      ...(position === undefined ? {} : { bytePosition: Number(position) }),
    });
  }
}
