const secretKey = /token|authorization|password|secret/i;

function toJsonValue(value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { type: value.name, message: value.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return value;
}

/**
 * The fields of a log call as the loggers write them: the entries of `obj` except `level`, `time` and
 * `msg` (the logger's own), values of keys that look like secrets (`token`, `authorization`, `password`,
 * `secret`) replaced by `"[redacted]"`, and `Error` values as `{type, message, code}`.
 */
export function logFields(obj: Readonly<Record<string, unknown>>): [string, unknown][] {
  const fields: [string, unknown][] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'level' || key === 'time' || key === 'msg') continue;
    fields.push([key, secretKey.test(key) ? '[redacted]' : toJsonValue(value)]);
  }
  return fields;
}
