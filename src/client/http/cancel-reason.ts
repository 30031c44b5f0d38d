/**
 * The reason the client gives when it cancels a request itself (unsubscribe, leaving a loop, end of a
 * body). Built once: `AbortController.abort()` without a reason creates a `DOMException` with a stack
 * trace, a cost paid on every page of a tail. Nobody observes the outcome of such a cancel.
 */
export const cancelReason: Error = new Error('ledger-rx: the request was cancelled by its consumer');
