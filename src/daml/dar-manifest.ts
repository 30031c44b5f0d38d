import { DarError, DarErrorCodes } from './dar-error.js';

/** The attributes of a DAR's `META-INF/MANIFEST.MF` that locate its archives. */
export interface DarManifest {
  /** Zip path of the main package's `.dalf`. */
  readonly mainDalf: string;
  /** Zip paths of every `.dalf`, the main one included, in the manifest's order. */
  readonly dalfs: readonly string[];
  /** Every attribute of the main section, as written (`Sdk-Version`, `Name`, ...). */
  readonly attributes: ReadonlyMap<string, string>;
}

const manifestEntry = 'META-INF/MANIFEST.MF';

/**
 * Parses a JAR manifest's main section (docs/daml-archives.md, "DAR layout"): `Name: value` lines, a line
 * starting with one space continues the previous one. Requires `Main-Dalf` and `Format: daml-lf` (as the participant does); `Dalfs`
 * may be absent (then only the main `.dalf` is listed). Throws `DAR_MANIFEST_INVALID`.
 */
export function parseDarManifest(text: string): DarManifest {
  const attributes = new Map<string, string>();
  let last: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (attributes.size > 0) break; // the main section ends at the first blank line
      continue;
    }
    if (line.startsWith(' ')) {
      if (last === undefined) throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `${manifestEntry} starts with a continuation line`, { entry: manifestEntry });
      attributes.set(last, `${attributes.get(last) ?? ''}${line.slice(1)}`);
      continue;
    }
    const colon = line.indexOf(': ');
    if (colon <= 0) throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `${manifestEntry}: '${line.slice(0, 80)}' is not a 'Name: value' line`, { entry: manifestEntry });
    last = line.slice(0, colon);
    attributes.set(last, line.slice(colon + 2));
  }
  const mainDalf = attributes.get('Main-Dalf')?.trim();
  if (mainDalf === undefined || mainDalf === '') throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `${manifestEntry} has no Main-Dalf`, { entry: manifestEntry });
  const format = attributes.get('Format')?.trim();
  if (format !== 'daml-lf') {
    throw new DarError(DarErrorCodes.DAR_MANIFEST_INVALID, `${manifestEntry} ${format === undefined ? 'has no Format' : `says Format: ${format}`}: a DAR's is daml-lf`, { entry: manifestEntry });
  }
  const listed = (attributes.get('Dalfs') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const dalfs = listed.includes(mainDalf) ? listed : [mainDalf, ...listed];
  return { mainDalf, dalfs, attributes };
}
