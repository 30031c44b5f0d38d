/** The repository's root. */
export declare const root: string;
/** `undefined` when `dir`'s dist/ is up to date, otherwise why it is not. */
export declare function whyStale(dir?: string): string | undefined;
